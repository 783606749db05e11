import Foundation
import Logging
import NIOCore
import PostgresNIO
import StratusCore
import StratusServer

/// Storage on a PostgreSQL server through postgres-nio's connection pool, for running many
/// Stratus instances on one database.
///
/// **Writers take turns.** Every write transaction starts by locking the change sequence's row
/// (`SELECT … FOR UPDATE`) and holds it until it commits. So sequences are handed out in commit
/// order across every instance: once a change feed has served a sequence, no change with a
/// smaller one can still commit, and a device never skips a change. The read-check-write logic of
/// the services (change tags, unique names, quotas) sees the same serial history it sees on
/// SQLite. Reads run in parallel, each in one `REPEATABLE READ` snapshot.
package final class PostgresStorage: StratusStorage {
    let client: PostgresClient
    private let running: Task<Void, Never>
    let logger: Logger
    let clock: ServerClock
    package let epoch: Int64
    package let bus: (any InstanceBus)?
    /// This instance's ID, random per process (job leases name their holder by it).
    let instance = UUID().uuidString

    /// Connects to the database at `url` (`postgres://user:password@host:port/database`),
    /// migrates it under an advisory lock (instances starting together migrate one at a time),
    /// and reads the store's epoch. Job leases and bus messages are timed by `clock`.
    package init(url: String, maxConnections: Int = 16, clock: ServerClock = ServerClock(),
                 logger: Logger = Logger(label: "stratus.postgres")) async throws {
        let address = try PostgresAddress(url: url)
        var configuration = address.client
        configuration.options.maximumConnections = maxConnections
        // The pool's own log: only its errors (it warns of leases asked for while run() starts).
        var background = logger
        background.logLevel = .error
        let client = PostgresClient(configuration: configuration, backgroundLogger: background)
        self.client = client
        self.logger = logger
        self.clock = clock
        running = Task { await client.run() }
        bus = PostgresBus(client: client, address: address, clock: clock, logger: logger)
        do {
            try await PostgresMigrator.migrate(client, logger: logger)
            epoch = try await client.withConnection { connection in
                try await connection.query("SELECT epoch FROM store_epoch WHERE id = 1", logger: logger)
                    .decode(Int64.self).first { _ in true } ?? 0
            }
        } catch let error as PSQLError {
            running.cancel()
            throw CloudKitError(.internalError, "could not open the PostgreSQL database: \(error.serverInfo?[.message] ?? "\(error.code)")")
        } catch {
            running.cancel()
            throw error
        }
    }

    deinit { running.cancel() }

    package func read<T: Sendable>(_ body: @escaping @Sendable (any StorageTransaction) async throws -> T) async throws -> T {
        try await transaction(begin: "BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY", locksWriters: false, body)
    }

    package func write<T: Sendable>(_ body: @escaping @Sendable (any StorageTransaction) async throws -> T) async throws -> T {
        try await transaction(begin: "BEGIN", locksWriters: true, body)
    }

    private func transaction<T: Sendable>(begin: String, locksWriters: Bool,
                                          _ body: @escaping @Sendable (any StorageTransaction) async throws -> T) async throws -> T {
        let (logger, epoch) = (self.logger, self.epoch)
        assert(!Self.holdsConnection, "a transaction started inside another: with the pool full, it would wait forever")
        do {
            return try await client.withConnection { connection in try await Self.$holdsConnection.withValue(true) {
                try await connection.query(PostgresQuery(unsafeSQL: begin), logger: logger)
                do {
                    var sequence: Int64?
                    if locksWriters {
                        sequence = try await connection.query("SELECT value FROM change_sequence WHERE id = 1 FOR UPDATE", logger: logger)
                            .decode(Int64.self).first { _ in true }
                    }
                    let start = ContinuousClock.now
                    let transaction = PostgresTransaction(connection: connection, logger: logger, epoch: epoch, changeSequence: sequence)
                    let result = try await body(transaction)
                    try await transaction.sendHeldWrites()
                    try await transaction.storeChangeSequence()
                    try await connection.query("COMMIT", logger: logger)
                    if locksWriters { ServerMetrics.committed(writes: 1, in: ContinuousClock.now - start) }
                    return result
                } catch {
                    try? await connection.query("ROLLBACK", logger: logger)
                    throw error
                }
            } }
        } catch {
            throw PostgresFault.map(error)
        }
    }

    /// Whether this task runs inside a transaction. A transaction never starts another: the
    /// second would wait for a connection of the pool, which could be full of transactions
    /// waiting the same way.
    @TaskLocal static var holdsConnection = false

    /// The schema `stratus_keys` of the database, which every instance reaches.
    package func keyStore(directory: URL) async throws -> any KeyStore {
        try await PostgresKeyStore(storage: self)
    }

    /// Rows of the database, so that every instance on it serves every file.
    package func blobStore(directory: URL) -> any BlobStore {
        PostgresBlobStore(storage: self)
    }

    package func isReady() async -> Bool {
        (try? await client.withConnection { connection in
            try await PostgresMigrator.isCurrent(connection, logger: self.logger)
        }) ?? false
    }

    /// PostgreSQL's backups are its own (`pg_dump`, base backups and WAL archiving); `stratus
    /// backup` copies a SQLite data directory.
    package func backup(to path: String) async throws {
        throw CloudKitError.badRequest("stratus backup copies SQLite stores; back PostgreSQL up with pg_dump or pg_basebackup")
    }
}
