import Foundation
import GRDB
import StratusCore
import StratusServer

/// The default storage: one SQLite file in WAL mode through GRDB, with one writer connection and
/// a pool of readers.
///
/// Every commit is fsynced (`synchronous = FULL`, set on the writer after GRDB's own WAL set-up,
/// which lowers it to `NORMAL`), so an acknowledged write survives a crash of the process or of
/// the machine. Concurrent writes share transactions and fsyncs through ``GroupCommit``.
package final class SQLiteStorage: StratusStorage {
    private let pool: DatabasePool
    private let group: GroupCommit
    private let path: String
    package let epoch: Int64

    /// Opens (creating and migrating if needed) the database file at `path`.
    ///
    /// - parameter maxQueuedWrites: writes that may wait for the writer before more are shed
    ///   with `THROTTLED`.
    /// - parameter maxDatabaseBytes: a cap on the database file's size; writes past it fail with
    ///   `TRY_AGAIN_LATER` and change nothing. Nil leaves SQLite's own limit.
    /// - parameter groupCommit: whether concurrent writes share commits (off only to measure it).
    package init(path: String, maxQueuedWrites: Int = 1024, maxDatabaseBytes: Int64? = nil, groupCommit: Bool = true) throws {
        self.path = path
        pool = try Self.openPool(path: path)
        if let maxDatabaseBytes {
            try pool.writeWithoutTransaction { db in
                let pageSize = try Int64.fetchOne(db, sql: "PRAGMA page_size") ?? 4096
                try db.execute(sql: "PRAGMA max_page_count = \(max(1, maxDatabaseBytes / pageSize))")
            }
        }
        try SQLiteSchema.migrate(pool)
        epoch = try pool.read { try SQLiteTransaction.storeEpoch(in: $0) }
        group = GroupCommit(writer: pool, maxQueuedWrites: maxQueuedWrites, enabled: groupCommit)
    }

    /// A pool over `path` with the server's connection settings: WAL, `synchronous = FULL` on
    /// the writer, a busy timeout. The benchmarks' raw-SQLite baselines open theirs here too,
    /// so both sides pay for the same durability.
    package static func openPool(path: String) throws -> DatabasePool {
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        configuration.prepareDatabase { db in
            db.add(function: distanceFunction)
        }
        let pool = try DatabasePool(path: path, configuration: configuration)
        // GRDB sets NORMAL while enabling WAL, after `prepareDatabase`; raise it on the writer.
        try pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
        return pool
    }

    /// `stratus_distance(lat1, lon1, lat2, lon2)`: great-circle meters between two points, for
    /// the query plan's distance conditions and sort keys (`SQL+QueryIndexStore`).
    private static let distanceFunction = DatabaseFunction("stratus_distance", argumentCount: 4, pure: true) { values in
        let numbers = values.compactMap { Double.fromDatabaseValue($0) }
        guard numbers.count == 4 else { return nil }
        return QueryIndexing.greatCircleMeters(numbers[0], numbers[1], numbers[2], numbers[3])
    }

    /// Runs `body` in a read transaction on the calling thread: GRDB lends a reader connection
    /// there (its queue runs the closure on the caller's thread), so a read costs no hop to another
    /// thread and back (a fifth of a one-record lookup's time, which reads twice).
    ///
    /// The body must not wait for an actor or anything else that needs the cooperative pool: it
    /// holds one of its threads (debug builds stop when it does; see
    /// ``ConnectionThread/run(_:mayWaitElsewhere:)``). Reads only ask their transaction.
    package func read<T: Sendable>(_ body: @escaping @Sendable (any StorageTransaction) async throws -> T) async throws -> T {
        do {
            return try readOnThisThread { db in
                try ConnectionThread.run({ try await body(SQLiteTransaction(db: db, epoch: epoch)) }, mayWaitElsewhere: false)
            }
        } catch {
            throw StorageFault.map(error)
        }
    }

    /// GRDB's synchronous read (from an async function, the compiler would pick the asynchronous one),
    /// in a deferred transaction begun and ended by cached statements: GRDB's own read parses
    /// `BEGIN` and `COMMIT` anew each time, a tenth of a small page's read.
    private func readOnThisThread<T>(_ body: (Database) throws -> T) throws -> T {
        try pool.unsafeRead { db in
            try db.cachedStatement(sql: "BEGIN DEFERRED TRANSACTION").execute()
            do {
                let result = try body(db)
                try db.cachedStatement(sql: "COMMIT TRANSACTION").execute()
                return result
            } catch {
                if db.isInsideTransaction { try? db.execute(sql: "ROLLBACK TRANSACTION") }
                throw error
            }
        }
    }

    package func write<T: Sendable>(_ body: @escaping @Sendable (any StorageTransaction) async throws -> T) async throws -> T {
        let epoch = self.epoch
        return try await group.write { db in
            let transaction = SQLiteTransaction(db: db, epoch: epoch)
            let result = try await body(transaction)
            try transaction.storeChangeSequence()
            return result
        }
    }

    /// Copies a consistent snapshot of the database to a new file at `path`, through SQLite's
    /// online backup from one read transaction: writes go on meanwhile and are not in the copy.
    /// Mails waiting in the outbox with a code in them are left out of it.
    package func backup(to path: String) async throws {
        let copy = try DatabaseQueue(path: path)
        try pool.backup(to: copy)
        // Mails holding a code are never in a backup: deleted from the copy, their pages zeroed.
        try copy.inDatabase { db in
            try db.execute(sql: "PRAGMA secure_delete = ON")
            try db.execute(sql: "DELETE FROM mail_outbox WHERE code_expires_at IS NOT NULL")
        }
        try copy.close()
    }

    /// Transactions committed and the writes they carried (more writes than transactions means
    /// writes shared commits).
    /// The secret in `asset-url.key` next to the database file (owner-only), made on first use;
    /// backups copy it with the database.
    package func serverSecret() throws -> [UInt8] {
        let path = URL(fileURLWithPath: self.path).deletingLastPathComponent().appendingPathComponent(Backup.assetKeyFile).path
        if let data = FileManager.default.contents(atPath: path), data.count == 32 { return Array(data) }
        let fresh = SecretGenerator.randomBytes(32)
        guard FileManager.default.createFile(atPath: path, contents: Data(fresh), attributes: [.posixPermissions: 0o600]) else {
            throw CloudKitError(.internalError, "cannot write the server's secret to \(path)")
        }
        return fresh
    }

    /// `keys.sqlite` in `directory`, a database file of its own that no backup of this one holds.
    package func keyStore(directory: URL) throws -> any KeyStore {
        try SQLiteKeyStore(directory: directory)
    }

    /// Files in the data directory.
    package func blobStore(directory: URL) -> any BlobStore {
        FileBlobStore(directory: directory)
    }

    /// One process: no other instance to talk to.
    package var bus: (any InstanceBus)? { nil }
    package var fleetCounters: (any FleetCounters)? { nil }

    /// One process owns the file: every job runs.
    package func exclusively(_ job: String, _ body: @Sendable () async throws -> Void) async throws -> Bool {
        try await body()
        return true
    }

    package var commitStatistics: (transactions: Int, writes: Int) { group.statistics }

    /// Writes waiting for the writer connection now.
    package var queuedWrites: Int { group.queuedWrites }

    /// The writer connection's `journal_mode` and `synchronous` pragmas, read back from SQLite.
    package func isReady() async -> Bool {
        (try? await pool.read { try SQLiteSchema.migrator.hasCompletedMigrations($0) }) ?? false
    }

    package func writerDurability() async throws -> (journalMode: String, synchronous: Int) {
        try await pool.writeWithoutTransaction { db in
            (try String.fetchOne(db, sql: "PRAGMA journal_mode") ?? "", try Int.fetchOne(db, sql: "PRAGMA synchronous") ?? -1)
        }
    }
}
