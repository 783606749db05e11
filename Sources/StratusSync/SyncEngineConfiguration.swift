import Foundation
import Logging
import StratusClient

extension SyncEngine {
    /// How an engine syncs one database of one account.
    public struct Configuration: Sendable {
        /// The database to keep in sync.
        public var database: Database
        /// The engine's own SQLite file (created on first use).
        public var stateURL: URL
        /// The app's current version of a record with a pending save; nil if it no longer exists
        /// locally (its pending save is then dropped). An error (the app's store could not be
        /// read) ends the send and keeps the change queued for the next one.
        public var recordProvider: @Sendable (RecordID) async throws -> CloudRecord?
        /// Resolves conflicts of record types without a resolver of their own.
        public var conflictResolver: ConflictResolver = .serverWins
        /// Conflict resolvers by record type.
        public var conflictResolvers: [String: ConflictResolver] = [:]
        /// With automatic sync, how long after a change the send starts, so that changes made
        /// together (keystrokes) go in one request.
        public var sendDelay: Duration = .milliseconds(300)
        /// With automatic sync, how often to fetch when nothing else triggers it; nil never polls.
        public var pollInterval: Duration? = .seconds(60)
        /// Whether the engine schedules sends and fetches itself after ``SyncEngine/start()``.
        public var automaticallySync = true
        /// The database subscription the engine creates (once) so that the server notifies its
        /// devices of changes; nil creates none. The public database takes none.
        public var subscriptionID: String? = "stratus-sync-engine"
        /// Records per `records/modify` request (halved while the server answers `limitExceeded`).
        public var batchSize = 400
        /// Records per `changes/zone` page.
        public var fetchPageSize = 200
        /// Waits between retries of transient failures.
        public var retry = RetryPolicy()
        /// The clock the send delay, polling, backoff and `retryAfter` waits run on; a test or a
        /// simulation gives a simulated one (`StratusTesting.SimulatedClock`) so waits cost no time.
        public var clock: any Clock<Duration> = ContinuousClock()
        /// Where the engine logs every decision about a failure (what failed, what it will do,
        /// when): `error` for a halt, `notice` for retries, split batches and set-aside changes,
        /// `info` for the rest. Silent unless the app gives a logger of its own, as postgres-nio's
        /// background logger is.
        public var logger = Logger(label: "stratus.sync", factory: { _ in SwiftLogNoOpLogHandler() })

        public init(database: Database, stateURL: URL, recordProvider: @escaping @Sendable (RecordID) async throws -> CloudRecord?) {
            self.database = database
            self.stateURL = stateURL
            self.recordProvider = recordProvider
        }

        func resolver(for recordType: String) -> ConflictResolver {
            conflictResolvers[recordType] ?? conflictResolver
        }
    }
}

/// How long to wait before retrying a transient failure: exponential backoff with jitter, or the
/// server's `retryAfter` when it gave one.
public struct RetryPolicy: Sendable {
    public var initialDelay: Duration = .milliseconds(200)
    public var maximumDelay: Duration = .seconds(60)
    /// Attempts an explicit ``SyncEngine/syncNow()`` (or send or fetch) makes before it throws.
    public var maximumAttempts = 6

    public init() {}

    /// The wait before attempt `attempt + 1` (attempt counts from 0).
    func delay(attempt: Int, error: CloudError) -> Duration {
        if let retryAfter = error.retryAfter { return .milliseconds(Int64(retryAfter * 1000)) }
        let exponential = initialDelay * Double(1 << min(attempt, 16))
        let capped = min(exponential, maximumDelay)
        return capped * Double.random(in: 0.75...1.25)
    }
}
