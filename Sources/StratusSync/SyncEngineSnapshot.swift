import Foundation
import StratusClient

/// What an engine is doing and holding, for a diagnostics screen.
public struct SyncEngineSnapshot: Sendable {
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

    /// A change the server refused for its content, and why.
    public struct SetAsideChange: Sendable {
        /// The refused change.
        public var change: PendingRecordZoneChange
        /// The server's reason.
        public var reason: String
    }

    /// What the engine is doing now.
    public var status: Status
    /// Record changes queued and not yet sent.
    public var pendingRecordChanges: [PendingRecordZoneChange]
    /// Zone changes queued and not yet sent.
    public var pendingDatabaseChanges: [PendingDatabaseChange]
    /// Changes the server refused, with its reasons.
    public var setAsideChanges: [SetAsideChange]
    /// Change tokens by scope (`database`, `zone:<owner>:<zone name>`).
    public var tokens: [String: String]
    /// When a sync last completed without error.
    public var lastSuccessfulSync: Date?
    /// The latest events, oldest first, as text.
    public var recentEvents: [String]
}
