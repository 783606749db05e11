import Foundation
import GRDB

/// The default storage: one SQLite file in WAL mode through GRDB, with one writer connection and
/// a pool of readers.
///
/// Every commit is fsynced (`synchronous = FULL`, set on the writer after GRDB's own WAL set-up,
/// which lowers it to `NORMAL`), so an acknowledged write survives a crash of the process or of
/// the machine. Concurrent writes share transactions and fsyncs through ``GroupCommit``.
package final class SQLiteStorage: StratusStorage {
    private let pool: DatabasePool
    private let group: GroupCommit

    /// Opens (creating and migrating if needed) the database file at `path`.
    ///
    /// - parameter maxQueuedWrites: writes that may wait for the writer before more are shed
    ///   with `THROTTLED`.
    /// - parameter maxDatabaseBytes: a cap on the database file's size; writes past it fail with
    ///   `TRY_AGAIN_LATER` and change nothing. Nil leaves SQLite's own limit.
    package init(path: String, maxQueuedWrites: Int = 1024, maxDatabaseBytes: Int64? = nil) throws {
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        configuration.prepareDatabase { db in
            db.add(function: SQLiteTransaction.distanceFunction)
        }
        pool = try DatabasePool(path: path, configuration: configuration)
        try pool.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA synchronous = FULL")
            if let maxDatabaseBytes {
                let pageSize = try Int64.fetchOne(db, sql: "PRAGMA page_size") ?? 4096
                try db.execute(sql: "PRAGMA max_page_count = \(max(1, maxDatabaseBytes / pageSize))")
            }
        }
        try SQLiteSchema.migrator.migrate(pool)
        group = GroupCommit(writer: pool, maxQueuedWrites: maxQueuedWrites)
    }

    package func read<T: Sendable>(_ body: @escaping @Sendable (any StorageTransaction) throws -> T) async throws -> T {
        do {
            return try await pool.read { db in
                try body(SQLiteTransaction(db: db))
            }
        } catch {
            throw StorageFault.map(error)
        }
    }

    package func write<T: Sendable>(_ body: @escaping @Sendable (any StorageTransaction) throws -> T) async throws -> T {
        try await group.write { db in
            let transaction = SQLiteTransaction(db: db)
            let result = try body(transaction)
            try transaction.storeChangeSequence()
            return result
        }
    }

    /// Writes waiting for the writer now.
    package var queuedWrites: Int { group.depth }

    /// The writer connection's `journal_mode` and `synchronous` pragmas, read back from SQLite.
    package func writerDurability() async throws -> (journalMode: String, synchronous: Int) {
        try await pool.writeWithoutTransaction { db in
            (try String.fetchOne(db, sql: "PRAGMA journal_mode") ?? "", try Int.fetchOne(db, sql: "PRAGMA synchronous") ?? -1)
        }
    }
}
