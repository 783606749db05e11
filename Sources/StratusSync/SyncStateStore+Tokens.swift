import Foundation
import GRDB
import StratusClient
import StratusCore

/// Change tokens and the state's meta values; forgetting the server's state.
extension SyncStateStore {
    func databaseToken() throws -> ServerChangeToken? { try token(scope: "database") }
    func zoneToken(_ zoneID: ZoneID) throws -> ServerChangeToken? { try token(scope: Self.zoneScope(zoneID)) }

    func resetZoneToken(_ zoneID: ZoneID) throws {
        try database.write { db in try db.execute(sql: "DELETE FROM \(tables.tokens) WHERE scope = ?", arguments: [Self.zoneScope(zoneID)]) }
    }

    /// Every token, by scope (`database`, `zone:<owner>:<name>`), for diagnostics.
    func allTokens() throws -> [String: String] {
        try database.read { db in
            Dictionary(uniqueKeysWithValues: try Row.fetchAll(db, sql: "SELECT scope, token FROM \(tables.tokens)").map { ($0[0], $0[1]) })
        }
    }

    func token(scope: String) throws -> ServerChangeToken? {
        try database.read { db in
            try String.fetchOne(db, sql: "SELECT token FROM \(tables.tokens) WHERE scope = ?", arguments: [scope]).map(ServerChangeToken.init)
        }
    }

    func meta(_ key: String) throws -> String? {
        try database.read { db in try String.fetchOne(db, sql: "SELECT value FROM \(tables.meta) WHERE key = ?", arguments: [key]) }
    }

    func setMeta(_ key: String, _ value: String?) throws {
        try database.write { db in
            if let value {
                try db.execute(sql: "INSERT OR REPLACE INTO \(tables.meta) (key, value) VALUES (?, ?)", arguments: [key, value])
            } else {
                try db.execute(sql: "DELETE FROM \(tables.meta) WHERE key = ?", arguments: [key])
            }
        }
    }

    /// Forgets every token and known record, so the next fetch brings everything again.
    func forgetServerState() throws {
        try database.write { db in
            for table in [tables.tokens, tables.records] { try db.execute(sql: "DELETE FROM \(table)") }
        }
    }

    /// Forgets the account's data: tokens and known records (after the user changed).
    func resetForNewAccount() throws {
        try database.write { db in
            for table in [tables.tokens, tables.records, tables.setAside] { try db.execute(sql: "DELETE FROM \(table)") }
        }
    }

    /// A transaction whose loss in a power cut the engine recovers from (see the type's comment).
    func writeRecoverable<T>(_ body: (GRDB.Database) throws -> T) throws -> T {
        guard relaxesRecoverableWrites else { return try database.write(body) }
        return try database.writeWithoutTransaction { db in
            // The connection's own setting comes back after (FULL in a file of the engine's).
            let setting = try Int.fetchOne(db, sql: "PRAGMA synchronous") ?? 2
            if setting > 1 { try db.execute(sql: "PRAGMA synchronous = NORMAL") }
            defer { if setting > 1 { try? db.execute(sql: "PRAGMA synchronous = \(setting)") } }
            var result: T?
            try db.inTransaction {
                result = try body(db)
                return .commit
            }
            return result!
        }
    }
}
