import Foundation
import GRDB
import StratusClient

/// The engine's state in its own SQLite file: the outbox of pending changes, change tokens, and
/// the last known server version (system fields and fields) of every record.
///
/// Every write is one transaction. Queuing is durable when it returns (WAL, `synchronous = FULL`).
/// What the server told the engine (fetched pages with their token, a send's outcome) is written
/// with `synchronous = NORMAL`: a power cut may roll it back, never tear it, and the engine then
/// fetches those pages again or resends what is still queued — which the server recognises.
final class SyncStateStore: Sendable {
    private let database: DatabaseQueue
    /// This file's name in the create keys it gives queued creates: random, made with the file.
    private let createKeyPrefix: String

    init(path: String) throws {
        var configuration = Configuration()
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
        // Another connection to the file (an app extension's, or a killed app's still closing)
        // makes writes wait rather than fail.
        configuration.busyMode = .timeout(10)
        database = try DatabaseQueue(path: path, configuration: configuration)
        try database.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA journal_mode = WAL") }
        try Self.migrator.migrate(database)
        let key = "createKeyPrefix"
        if let prefix = try database.read({ db in try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = ?", arguments: [key]) }) {
            createKeyPrefix = prefix
        } else {
            createKeyPrefix = try database.write { db in
                try db.execute(sql: "INSERT OR IGNORE INTO meta (key, value) VALUES (?, ?)", arguments: [key, UUID().uuidString])
                return try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = ?", arguments: [key])!
            }
        }
    }

    /// The connection's `journal_mode` and `synchronous` pragmas, read back from SQLite.
    func durability() throws -> (journalMode: String, synchronous: Int) {
        try database.read { db in
            (try String.fetchOne(db, sql: "PRAGMA journal_mode") ?? "", try Int.fetchOne(db, sql: "PRAGMA synchronous") ?? -1)
        }
    }

    private static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(sql: """
                CREATE TABLE pending_records (
                    zone_name TEXT NOT NULL, owner TEXT NOT NULL, record_name TEXT NOT NULL,
                    change TEXT NOT NULL, version INTEGER NOT NULL,
                    PRIMARY KEY (zone_name, owner, record_name)
                ) WITHOUT ROWID;
                CREATE INDEX pending_records_order ON pending_records(version);
                CREATE TABLE pending_zones (
                    zone_name TEXT NOT NULL, owner TEXT NOT NULL, change TEXT NOT NULL, version INTEGER NOT NULL,
                    PRIMARY KEY (zone_name, owner)
                ) WITHOUT ROWID;
                CREATE TABLE tokens (scope TEXT PRIMARY KEY NOT NULL, token TEXT NOT NULL) WITHOUT ROWID;
                CREATE TABLE records (
                    zone_name TEXT NOT NULL, owner TEXT NOT NULL, record_name TEXT NOT NULL,
                    record_type TEXT NOT NULL, change_tag TEXT NOT NULL,
                    created_at INTEGER, created_by TEXT, created_device TEXT,
                    modified_at INTEGER, modified_by TEXT, modified_device TEXT,
                    parent TEXT, share TEXT, fields BLOB,
                    PRIMARY KEY (zone_name, owner, record_name)
                ) WITHOUT ROWID;
                CREATE TABLE set_aside (
                    zone_name TEXT NOT NULL, owner TEXT NOT NULL, record_name TEXT NOT NULL,
                    change TEXT NOT NULL, error TEXT NOT NULL, at REAL NOT NULL,
                    PRIMARY KEY (zone_name, owner, record_name)
                ) WITHOUT ROWID;
                CREATE TABLE meta (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL) WITHOUT ROWID;
                """)
        }
        return migrator
    }

    // MARK: Outbox

    /// A queued record change and the version it was queued at (newer queuing replaces it).
    struct QueuedRecordChange: Sendable, Hashable {
        var change: PendingRecordZoneChange
        var version: Int64
    }

    /// The `createKey` a queued save carries while it creates its record: the same every time
    /// that queuing is sent, and never another queuing's (versions only grow).
    func createKey(of queued: QueuedRecordChange) -> String {
        "\(createKeyPrefix).\(queued.version)"
    }

    func addPending(_ changes: [PendingRecordZoneChange]) throws {
        try database.write { db in
            var version = try Self.nextVersion(db, count: changes.count)
            let statement = try db.cachedStatement(sql: """
                INSERT OR REPLACE INTO pending_records (zone_name, owner, record_name, change, version) VALUES (?, ?, ?, ?, ?)
                """)
            for change in changes {
                let id = change.recordID
                let kind = if case .saveRecord = change { "save" } else { "delete" }
                try statement.execute(arguments: [id.zoneID.zoneName, id.zoneID.ownerRecordName ?? "", id.recordName, kind, version])
                try db.execute(sql: "DELETE FROM set_aside WHERE zone_name = ? AND owner = ? AND record_name = ?",
                               arguments: [id.zoneID.zoneName, id.zoneID.ownerRecordName ?? "", id.recordName])
                version += 1
            }
        }
    }

    func addPending(_ changes: [PendingDatabaseChange]) throws {
        try database.write { db in
            var version = try Self.nextVersion(db, count: changes.count)
            for change in changes {
                let kind = if case .saveZone = change { "save" } else { "delete" }
                try db.execute(sql: "INSERT OR REPLACE INTO pending_zones (zone_name, owner, change, version) VALUES (?, ?, ?, ?)",
                               arguments: [change.zoneID.zoneName, change.zoneID.ownerRecordName ?? "", kind, version])
                if case .deleteZone(let zoneID) = change {
                    try Self.forgetZone(zoneID, in: db, keepingPendingZone: true)
                }
                version += 1
            }
        }
    }

    /// The oldest pending record changes queued after `version`, of one zone (the zone of the
    /// oldest of them), at most `limit`.
    func nextPendingBatch(limit: Int, after version: Int64) throws -> [QueuedRecordChange] {
        try database.read { db in
            guard let first = try Row.fetchOne(db, sql: """
                SELECT zone_name, owner FROM pending_records WHERE version > ? ORDER BY version LIMIT 1
                """, arguments: [version]) else { return [] }
            let zoneName: String = first[0]
            let owner: String = first[1]
            return try Row.fetchAll(db, sql: """
                SELECT record_name, change, version FROM pending_records
                WHERE zone_name = ? AND owner = ? AND version > ? ORDER BY version LIMIT ?
                """, arguments: [zoneName, owner, version, limit]).map { row in
                let id = RecordID(recordName: row[0], zoneID: Self.zoneID(zoneName, owner))
                let kind: String = row[1]
                return QueuedRecordChange(change: kind == "save" ? .saveRecord(id) : .deleteRecord(id), version: row[2])
            }
        }
    }

    func pendingRecordChanges() throws -> [PendingRecordZoneChange] {
        try database.read { db in
            try Row.fetchAll(db, sql: "SELECT zone_name, owner, record_name, change FROM pending_records ORDER BY version").map { row in
                let id = RecordID(recordName: row[2], zoneID: Self.zoneID(row[0], row[1]))
                let kind: String = row[3]
                return kind == "save" ? .saveRecord(id) : .deleteRecord(id)
            }
        }
    }

    func pendingRecordCount() throws -> Int {
        try database.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM pending_records") ?? 0 }
    }

    func pendingDatabaseChanges() throws -> [PendingDatabaseChange] {
        try database.read { db in
            try Row.fetchAll(db, sql: "SELECT zone_name, owner, change FROM pending_zones ORDER BY version").map { row in
                let zoneID = Self.zoneID(row[0], row[1])
                let kind: String = row[2]
                return kind == "save" ? .saveZone(zoneID) : .deleteZone(zoneID)
            }
        }
    }

    // MARK: Outcomes of a send

    /// What one sent batch changed in the state, applied in one transaction.
    struct SendOutcome: Sendable {
        /// Records the server now has (saved, or found already there): remembered, and their pending
        /// change removed if it was not queued again meanwhile.
        var saved: [(record: CloudRecord, version: Int64)] = []
        var deleted: [(id: RecordID, version: Int64)] = []
        /// Records whose change failed for good: moved out of the outbox with their error.
        var setAside: [(change: QueuedRecordChange, error: String)] = []
        /// Records whose server version became known (a conflict): remembered, change kept pending.
        var rebased: [CloudRecord] = []
        /// Records to forget (saved again as new: the server lost them).
        var forgotten: [RecordID] = []
        /// Creates the server had applied (their answer was lost) whose record was deleted since.
        var deletedSinceCreated: [(deletion: RecordZoneChanges.Deletion, version: Int64)] = []
        /// Pending saves of records the app no longer has: dropped.
        var dropped: [(id: RecordID, version: Int64)] = []
    }

    /// Applies a send's outcome; returns the records whose change was queued again meanwhile (the
    /// app holds a newer version, which stays pending): saved ones, and ones deleted since created.
    @discardableResult
    func apply(_ outcome: SendOutcome) throws -> Set<RecordID> {
        try writeRecoverable { db in
            var requeued = Set<RecordID>()
            let removePending = try db.cachedStatement(sql: """
                DELETE FROM pending_records WHERE zone_name = ? AND owner = ? AND record_name = ? AND version = ?
                """)
            for record in outcome.rebased { try Self.remember(record, in: db) }
            for id in outcome.forgotten { try Self.forget(id, in: db) }
            for (record, version) in outcome.saved {
                try Self.remember(record, in: db)
                try removePending.execute(arguments: Self.key(record.recordID) + [version])
                if db.changesCount == 0 { requeued.insert(record.recordID) }
            }
            for (id, version) in outcome.deleted {
                try Self.forget(id, in: db)
                try removePending.execute(arguments: Self.key(id) + [version])
            }
            for (id, version) in outcome.dropped { try removePending.execute(arguments: Self.key(id) + [version]) }
            for (deletion, version) in outcome.deletedSinceCreated {
                try removePending.execute(arguments: Self.key(deletion.recordID) + [version])
                if db.changesCount == 0 { requeued.insert(deletion.recordID) } else { try Self.forget(deletion.recordID, in: db) }
            }
            for (queued, error) in outcome.setAside {
                let id = queued.change.recordID
                try removePending.execute(arguments: Self.key(id) + [queued.version])
                let kind = if case .saveRecord = queued.change { "save" } else { "delete" }
                try db.execute(sql: "INSERT OR REPLACE INTO set_aside (zone_name, owner, record_name, change, error, at) VALUES (?, ?, ?, ?, ?, ?)",
                               arguments: Self.key(id) + [kind, error, Date().timeIntervalSince1970])
            }
            return requeued
        }
    }

    func removePendingZone(_ change: PendingDatabaseChange) throws {
        try database.write { db in
            let kind = if case .saveZone = change { "save" } else { "delete" }
            try db.execute(sql: "DELETE FROM pending_zones WHERE zone_name = ? AND owner = ? AND change = ?",
                           arguments: [change.zoneID.zoneName, change.zoneID.ownerRecordName ?? "", kind])
        }
    }

    /// Changes set aside because the server refused them for their content, with the reason.
    func setAsideChanges() throws -> [(PendingRecordZoneChange, String)] {
        try database.read { db in
            try Row.fetchAll(db, sql: "SELECT zone_name, owner, record_name, change, error FROM set_aside ORDER BY at").map { row in
                let id = RecordID(recordName: row[2], zoneID: Self.zoneID(row[0], row[1]))
                let kind: String = row[3]
                return (kind == "save" ? .saveRecord(id) : .deleteRecord(id), row[4])
            }
        }
    }

    // MARK: Known server records

    /// The last known server version of records: system fields and fields.
    func serverVersions(_ ids: [RecordID]) throws -> [RecordID: CloudRecord] {
        try database.read { db in
            var found: [RecordID: CloudRecord] = [:]
            let statement = try db.cachedStatement(sql: """
                SELECT record_type, change_tag, created_at, created_by, created_device, modified_at, modified_by, modified_device,
                       parent, share, fields FROM records WHERE zone_name = ? AND owner = ? AND record_name = ?
                """)
            for id in ids {
                guard let row = try Row.fetchOne(statement, arguments: Self.key(id)) else { continue }
                found[id] = try Self.record(id, row)
            }
            return found
        }
    }

    /// The records of a zone the engine knows the server has, with their types.
    func knownRecords(in zoneID: ZoneID) throws -> [RecordID: String] {
        try database.read { db in
            var known: [RecordID: String] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT record_name, record_type FROM records WHERE zone_name = ? AND owner = ?",
                                        arguments: [zoneID.zoneName, zoneID.ownerRecordName ?? ""]) {
                known[RecordID(recordName: row[0], zoneID: zoneID)] = row[1]
            }
            return known
        }
    }

    /// The zones the device holds server records of, except those it is about to create.
    func knownZones() throws -> Set<ZoneID> {
        try database.read { db in
            Set(try Row.fetchAll(db, sql: """
                SELECT DISTINCT zone_name, owner FROM records
                WHERE (zone_name, owner) NOT IN (SELECT zone_name, owner FROM pending_zones WHERE change = 'save')
                """).map { Self.zoneID($0[0], $0[1]) })
        }
    }

    /// A fetched page, in one transaction: records with a change still pending are left alone
    /// (the send will meet the server's version as a conflict); the others are remembered or
    /// forgotten, and the zone's token is stored unless `storingToken` is false (a page in the
    /// middle of a listing that must end before it counts). Returns what the app has not seen
    /// yet: the settled modifications whose change tag the engine did not know, and the settled
    /// deletions.
    func applyFetched(_ page: RecordZoneChanges, storingToken: Bool = true) throws -> (modifications: [CloudRecord], deletions: [RecordZoneChanges.Deletion]) {
        try writeRecoverable { db in
            let anyPending = try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM pending_records)") ?? false
            let pendingStatement = try db.cachedStatement(sql: "SELECT 1 FROM pending_records WHERE zone_name = ? AND owner = ? AND record_name = ?")
            let tagStatement = try db.cachedStatement(sql: "SELECT change_tag FROM records WHERE zone_name = ? AND owner = ? AND record_name = ?")
            func isPending(_ id: RecordID) throws -> Bool {
                try anyPending && Bool.fetchOne(pendingStatement, arguments: Self.key(id)) == true
            }
            var news: [CloudRecord] = []
            news.reserveCapacity(page.modifications.count)
            for record in page.modifications where try !isPending(record.recordID) {
                if try String.fetchOne(tagStatement, arguments: Self.key(record.recordID)) != record.changeTag { news.append(record) }
                try Self.remember(record, in: db)
            }
            var deletions: [RecordZoneChanges.Deletion] = []
            for deletion in page.deletions where try !isPending(deletion.recordID) {
                try Self.forget(deletion.recordID, in: db)
                deletions.append(deletion)
            }
            if storingToken { try Self.setToken(page.changeToken.rawValue, scope: Self.zoneScope(page.zoneID), in: db) }
            return (news, deletions)
        }
    }

    /// Forgets everything about zones the server no longer has.
    func forgetZones(_ zoneIDs: [ZoneID]) throws {
        guard !zoneIDs.isEmpty else { return }
        try database.write { db in
            for zoneID in zoneIDs { try Self.forgetZone(zoneID, in: db, keepingPendingZone: false) }
        }
    }

    func setDatabaseToken(_ token: ServerChangeToken) throws {
        try database.write { db in try Self.setToken(token.rawValue, scope: "database", in: db) }
    }

    // MARK: Tokens and meta

    func databaseToken() throws -> ServerChangeToken? { try token(scope: "database") }
    func zoneToken(_ zoneID: ZoneID) throws -> ServerChangeToken? { try token(scope: Self.zoneScope(zoneID)) }

    func resetZoneToken(_ zoneID: ZoneID) throws {
        try database.write { db in try db.execute(sql: "DELETE FROM tokens WHERE scope = ?", arguments: [Self.zoneScope(zoneID)]) }
    }

    /// Every token, by scope (`database`, `zone:<owner>:<name>`), for diagnostics.
    func allTokens() throws -> [String: String] {
        try database.read { db in
            Dictionary(uniqueKeysWithValues: try Row.fetchAll(db, sql: "SELECT scope, token FROM tokens").map { ($0[0], $0[1]) })
        }
    }

    private func token(scope: String) throws -> ServerChangeToken? {
        try database.read { db in
            try String.fetchOne(db, sql: "SELECT token FROM tokens WHERE scope = ?", arguments: [scope]).map(ServerChangeToken.init)
        }
    }

    func meta(_ key: String) throws -> String? {
        try database.read { db in try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = ?", arguments: [key]) }
    }

    func setMeta(_ key: String, _ value: String?) throws {
        try database.write { db in
            if let value {
                try db.execute(sql: "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", arguments: [key, value])
            } else {
                try db.execute(sql: "DELETE FROM meta WHERE key = ?", arguments: [key])
            }
        }
    }

    /// Forgets every token and known record, so the next fetch brings everything again.
    func forgetServerState() throws {
        try database.write { db in
            for table in ["tokens", "records"] { try db.execute(sql: "DELETE FROM \(table)") }
        }
    }

    /// Forgets the account's data: tokens and known records (after the user changed).
    func resetForNewAccount() throws {
        try database.write { db in
            for table in ["tokens", "records", "set_aside"] { try db.execute(sql: "DELETE FROM \(table)") }
        }
    }

    /// A transaction whose loss in a power cut the engine recovers from (see the type's comment).
    private func writeRecoverable<T>(_ body: (GRDB.Database) throws -> T) throws -> T {
        try database.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            defer { try? db.execute(sql: "PRAGMA synchronous = FULL") }
            var result: T?
            try db.inTransaction {
                result = try body(db)
                return .commit
            }
            return result!
        }
    }

    // MARK: Rows

    private static func nextVersion(_ db: GRDB.Database, count: Int) throws -> Int64 {
        let current = Int64(try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'version'") ?? "0") ?? 0
        try db.execute(sql: "INSERT OR REPLACE INTO meta (key, value) VALUES ('version', ?)", arguments: [String(current + Int64(count))])
        return current + 1
    }

    static func zoneID(_ name: String, _ owner: String) -> ZoneID {
        ZoneID(zoneName: name, ownerRecordName: owner.isEmpty ? nil : owner)
    }

    private static func key(_ id: RecordID) -> StatementArguments {
        [id.zoneID.zoneName, id.zoneID.ownerRecordName ?? "", id.recordName]
    }

    private static func zoneScope(_ zoneID: ZoneID) -> String { "zone:\(zoneID.ownerRecordName ?? ""):\(zoneID.zoneName)" }

    private static func setToken(_ token: String, scope: String, in db: GRDB.Database) throws {
        try db.cachedStatement(sql: "INSERT OR REPLACE INTO tokens (scope, token) VALUES (?, ?)").execute(arguments: [scope, token])
    }

    private static func remember(_ record: CloudRecord, in db: GRDB.Database) throws {
        guard let system = record.systemFields else { return }
        var writer = WireWriter(capacity: 256)
        writer.fields(record.fields.mapValues(Optional.some))
        try db.cachedStatement(sql: """
            INSERT OR REPLACE INTO records (zone_name, owner, record_name, record_type, change_tag, created_at, created_by, created_device,
                                            modified_at, modified_by, modified_device, parent, share, fields)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """).execute(arguments: key(record.recordID) + [
                system.recordType, system.changeTag, system.created?.timestamp, system.created?.userRecordName, system.created?.deviceID,
                system.modified?.timestamp, system.modified?.userRecordName, system.modified?.deviceID, system.parent, system.share,
                Data(writer.bytes),
            ])
    }

    private static func forget(_ id: RecordID, in db: GRDB.Database) throws {
        try db.cachedStatement(sql: "DELETE FROM records WHERE zone_name = ? AND owner = ? AND record_name = ?").execute(arguments: key(id))
    }

    private static func forgetZone(_ zoneID: ZoneID, in db: GRDB.Database, keepingPendingZone: Bool) throws {
        let arguments: StatementArguments = [zoneID.zoneName, zoneID.ownerRecordName ?? ""]
        for table in ["records", "pending_records", "set_aside"] {
            try db.execute(sql: "DELETE FROM \(table) WHERE zone_name = ? AND owner = ?", arguments: arguments)
        }
        if !keepingPendingZone { try db.execute(sql: "DELETE FROM pending_zones WHERE zone_name = ? AND owner = ?", arguments: arguments) }
        try db.execute(sql: "DELETE FROM tokens WHERE scope = ?", arguments: [zoneScope(zoneID)])
    }

    private static func record(_ id: RecordID, _ row: Row) throws -> CloudRecord {
        func stamp(_ at: Int64?, _ by: String?, _ device: String?) -> RecordStamp? {
            guard let at, let by, let device else { return nil }
            return RecordStamp(timestamp: at, userRecordName: by, deviceID: device)
        }
        let system = RecordSystemFields(recordID: id, recordType: row[0], changeTag: row[1], created: stamp(row[2], row[3], row[4]),
                                        modified: stamp(row[5], row[6], row[7]), parent: row[8], share: row[9])
        var fields: [String: FieldValue] = [:]
        if let data: Data = row[10] {
            fields = try Record.readFields(JSONParser.parse(Array(data))).compactMapValues { $0 }
        }
        return CloudRecord(systemFields: system, fields: fields).edit(of: system, serverFields: fields)
    }
}
