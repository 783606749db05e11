import Foundation
import StratusClient

extension SyncEngine {
    /// What an engine is doing and holding (``SyncEngine/snapshot()``), for a diagnostics screen:
    /// its pending changes, as CKSyncEngine's `State` lists them, and more.
    public struct State: Sendable {
        /// What an engine is doing.
        public enum Status: Sendable {
            /// Not sending or fetching.
            case idle
            /// Sending queued changes.
            case sending
            /// Fetching changes made elsewhere.
            case fetching
            /// A transient failure; the next attempt is at `until`.
            case waitingToRetry(until: Date, error: CloudError)
            /// Stopped on an error that needs the app, until ``SyncEngine/resume()``.
            case halted(CloudError)
        }

        /// A change set aside, and why: one the server refused for its content, or a server
        /// version of a record the app could not apply (``isServerVersion``).
        public struct SetAsideChange: Sendable {
            /// The refused change; for a server version not applied, a save of the record.
            public var change: SyncEngine.PendingRecordZoneChange
            /// The server's reason, or the app's.
            public var reason: String
            /// Whether this is the server's version of the record, which this device could not
            /// apply (a constraint of the app's table, a value it cannot store); the local row keeps
            /// what it had.
            public var isServerVersion: Bool
        }

        /// What the engine is doing now.
        public var status: Status
        /// Record changes queued and not yet sent.
        public var pendingRecordChanges: [SyncEngine.PendingRecordZoneChange]
        /// Zone changes queued and not yet sent.
        public var pendingDatabaseChanges: [SyncEngine.PendingDatabaseChange]
        /// Changes the server refused, and server versions not applied, with the reasons, oldest
        /// first; at most 1,000 are kept.
        public var setAsideChanges: [SetAsideChange]
        /// How many set-aside changes were dropped, oldest first, to keep the list bounded.
        public var setAsideDropped: Int
        /// Change tokens by scope (`database`, `zone:<owner>:<zone name>`).
        public var tokens: [String: String]
        /// When a sync last completed without error.
        public var lastSuccessfulSync: Date?
        /// The latest events, oldest first, as text.
        public var recentEvents: [String]
    }
}
