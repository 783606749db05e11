import Foundation
import GRDB
import Logging
import StratusClient

extension SyncEngine {
    /// How an engine syncs one database of one account.
    public struct Configuration: Sendable {
        /// The database to keep in sync.
        public var database: CloudDatabase
        /// Where the engine keeps its state (outbox, change tokens, known server records).
        public var state: StateStorage
        /// Hands the engine the records it sends and takes in what it reports. Held weakly, as
        /// CloudKit's engine holds its delegate: the app keeps it alive for as long as it syncs.
        public weak var delegate: (any SyncEngineDelegate)?
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
        /// devices of changes (in the public database, a subscription of its `_defaultZone`, which
        /// notifies of the changes the user may read); nil creates none.
        public var subscriptionID: String? = "stratus-sync-engine"
        /// Records per `records/modify` request (halved while the server answers `limitExceeded`).
        public var batchSize = 400
        /// Records per `changes/zone` page.
        public var fetchPageSize = 200
        /// Waits between retries of transient failures.
        public var retry = RetryPolicy()
        /// The app's version. When it is not the one the engine last ran with, every change set
        /// aside is retried once at the next fetch: a new version of the app may take what the
        /// old one refused. Nil: never retried for this reason.
        public var appVersion: String?
        /// The clock the send delay, polling, backoff and `retryAfter` waits run on; a test or a
        /// simulation gives a simulated one (`StratusTesting.SimulatedClock`) so waits cost no time.
        public var clock: any Clock<Duration> = ContinuousClock()
        /// Where the engine logs every decision about a failure (what failed, what it will do,
        /// when): `error` for a halt, `notice` for retries, split batches and set-aside changes,
        /// `info` for the rest. Silent unless the app gives a logger of its own, as postgres-nio's
        /// background logger is.
        public var logger = Logger(label: "stratus.sync", factory: { _ in SwiftLogNoOpLogHandler() })

        /// An engine keeping its state in a SQLite file of its own.
        public init(database: CloudDatabase, stateURL: URL, delegate: any SyncEngineDelegate) {
            self.init(database: database, state: .file(stateURL), delegate: delegate)
        }

        /// A configuration with the state where `state` says: its own file, or tables of the app's GRDB database.
        public init(database: CloudDatabase, state: StateStorage, delegate: any SyncEngineDelegate) {
            self.database = database
            self.state = state
            self.delegate = delegate
        }

        func resolver(for recordType: String) -> ConflictResolver {
            conflictResolvers[recordType] ?? conflictResolver
        }
    }
}

extension SyncEngine {
    /// Where an engine keeps its state: the outbox of changes to send, change tokens, and the last
    /// known server version of every record.
    public enum StateStorage: Sendable {
        /// A SQLite file of its own, created on first use.
        case file(URL)
        /// Tables of an app's GRDB database, named with `tablePrefix`, so that one transaction
        /// can change the app's data and the engine's state together: the app queues a change by
        /// appending to the outbox table (``SyncEngine/outboxTable(tablePrefix:)``) in the
        /// transaction that makes it, for instance from a trigger, and the engine applies fetched
        /// changes (``SyncEngineDelegate/applyServerChanges(_:in:)``) in the transaction that
        /// stores their change token. The engines of one database's private and shared scopes may
        /// share a prefix.
        case database(any DatabaseWriter, tablePrefix: String)
    }

    /// The outbox of an engine whose state lives in the app's database: an append-only table
    /// (`sequence INTEGER PRIMARY KEY, zone_name TEXT, owner TEXT, record_name TEXT, change TEXT`)
    /// into which a row `(zone_name, owner, record_name, 'save' or 'delete')` queues a record
    /// change, with `owner` empty for the user's own zones and the zone owner's record name for
    /// zones shared with them. It exists once the engine was opened. What is appended while the
    /// engine applies the server's changes is removed (``applyingServerChanges(in:tablePrefix:_:)``).
    public static func outboxTable(tablePrefix: String) -> String { "\(tablePrefix)outbox" }
}

/// How long to wait before retrying a transient failure: exponential backoff with jitter, or the
/// server's `retryAfter` when it gave one.
public struct RetryPolicy: Sendable {
    /// The wait before the first retry; each further retry waits twice as long.
    public var initialDelay: Duration = .milliseconds(200)
    /// The longest wait between two attempts.
    public var maximumDelay: Duration = .seconds(60)
    /// Attempts an explicit ``SyncEngine/syncNow()`` (or send or fetch) makes before it throws.
    public var maximumAttempts = 6

    /// The default policy: 200 ms doubling up to a minute, with jitter.
    public init() {}

    /// The wait before attempt `attempt + 1` (attempt counts from 0).
    func delay(attempt: Int, error: CloudError) -> Duration {
        if let retryAfter = error.retryAfter { return .milliseconds(Int64(retryAfter * 1000)) }
        let exponential = initialDelay * Double(1 << min(attempt, 16))
        let capped = min(exponential, maximumDelay)
        return capped * Double.random(in: 0.75...1.25)
    }
}
