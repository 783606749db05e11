import Foundation

/// What one Stratus instance tells the others that share its database: the events whose effects
/// live in each instance's memory (its push connections, its subscription cache).
package enum InstanceMessage: Codable, Sendable {
    /// A commit: each instance delivers it to its own push connections.
    case committed(CommittedChanges)
    /// A database's subscriptions changed: each instance drops its cached copy.
    case subscriptionsChanged(databaseID: Int64)
    /// Sessions ended (signed out, revoked, deleted): each instance closes their push connections.
    case sessionsEnded([String])
    /// Grants or roles changed: each instance re-checks public subscriptions against them.
    case permissionsChanged
    /// A container's history setting changed: each instance reads it again (``HistoryRetention``).
    case historyRetentionChanged(containerID: String)
}

/// The channel between instances of one deployment. A single instance (SQLite) has none; the
/// PostgreSQL backend's is PostgreSQL's `LISTEN`/`NOTIFY` (`PostgresBus`, in StratusPostgreSQL).
package protocol InstanceBus: Sendable {
    /// Sends `message` to every other instance. Best effort: notifications are hints, and a
    /// device that misses one still fetches by change token.
    func broadcast(_ message: InstanceMessage) async
    /// Passes the messages other instances send to `receive`, until the task is cancelled.
    func listen(_ receive: @escaping @Sendable (InstanceMessage) async -> Void) async throws
}
