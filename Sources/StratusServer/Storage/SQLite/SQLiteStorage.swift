import Foundation
import GRDB

/// The default storage: one SQLite file in WAL mode through GRDB, with one writer connection and
/// a pool of readers. Every commit is fsynced (`synchronous = FULL`), so an acknowledged write
/// survives a crash of the process or of the machine.
package final class SQLiteStorage: StratusStorage {
    private let pool: DatabasePool

    /// Opens (creating and migrating if needed) the database file at `path`.
    package init(path: String) throws {
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = FULL")
            db.add(function: SQLiteTransaction.distanceFunction)
        }
        pool = try DatabasePool(path: path, configuration: configuration)
        try SQLiteSchema.migrator.migrate(pool)
    }

    package func read<T: Sendable>(_ body: @escaping @Sendable (any StorageTransaction) throws -> T) async throws -> T {
        try await pool.read { db in
            try body(SQLiteTransaction(db: db))
        }
    }

    package func write<T: Sendable>(_ body: @escaping @Sendable (any StorageTransaction) throws -> T) async throws -> T {
        try await pool.write { db in
            let transaction = SQLiteTransaction(db: db)
            let result = try body(transaction)
            try transaction.storeChangeSequence()
            return result
        }
    }
}
