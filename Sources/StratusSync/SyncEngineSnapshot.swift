import Foundation
import StratusClient

/// What an engine is doing and holding, for a diagnostics screen.
public struct SyncEngineSnapshot: Sendable {
    public enum Status: Sendable {
        case idle
        case sending
        case fetching
        /// A transient failure; the next attempt is at `until`.
        case waitingToRetry(until: Date, error: CloudError)
        /// Stopped on an error that needs the app, until ``SyncEngine/resume()``.
        case halted(CloudError)
    }

    /// A change the server refused for its content, and why.
    public struct SetAsideChange: Sendable {
        public var change: PendingRecordZoneChange
        public var reason: String
    }

    public var status: Status
    public var pendingRecordChanges: [PendingRecordZoneChange]
    public var pendingDatabaseChanges: [PendingDatabaseChange]
    public var setAsideChanges: [SetAsideChange]
    /// Change tokens by scope (`database`, `zone:<owner>:<zone name>`).
    public var tokens: [String: String]
    public var lastSuccessfulSync: Date?
    /// The latest events, oldest first, as text.
    public var recentEvents: [String]
}
