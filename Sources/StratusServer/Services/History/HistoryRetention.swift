import StratusCore
import Synchronization

/// How long each container keeps record history: its own setting (``StoredContainer/historyDays``,
/// `stratus container history-days`), else the server's `--history-days`; zero keeps none and
/// writes none — unless a webhook endpoint of the container reads the log (``WebhookCourier``),
/// which then holds each entry until the endpoints passed it.
///
/// Every write asks, so each container's setting is read from the database once and kept for
/// ``freshness``. A change made through this instance applies at once here and, through the
/// instance bus, on every other instance (``NotificationHub/historyRetentionChanged(containerID:)``);
/// one made by a command in another process applies within ``freshness``.
package final class HistoryRetention: Sendable {
    /// The server's retention (`--history-days`), for containers without their own.
    package let serverDefault: Duration
    private let storage: any StratusStorage
    private let remembered = Mutex<[String: (retention: Duration, webhooks: Bool, readAt: ContinuousClock.Instant)]>([:])

    /// How long a container's setting is used before it is read again.
    static let freshness: Duration = .seconds(30)

    init(storage: any StratusStorage, serverDefault: Duration) {
        self.storage = storage
        self.serverDefault = serverDefault
    }

    /// The retention of a container's history.
    package func retention(of containerID: String) async throws -> Duration {
        try await setting(of: containerID).retention
    }

    /// Whether changes in the container are logged with the versions they replace: it keeps
    /// history, or a webhook endpoint not disabled reads its changes.
    package func keepsHistory(in containerID: String) async throws -> Bool {
        let setting = try await setting(of: containerID)
        return setting.retention > .zero || setting.webhooks
    }

    private func setting(of containerID: String) async throws -> (retention: Duration, webhooks: Bool) {
        let now = ContinuousClock.now
        if let known = remembered.withLock({ $0[containerID] }), known.readAt.duration(to: now) < Self.freshness {
            return (known.retention, known.webhooks)
        }
        let (days, webhooks) = try await storage.read { transaction in
            (try await transaction.container(id: containerID)?.historyDays,
             try await transaction.webhookEndpoints(containerID: containerID).contains { $0.state != .disabled })
        }
        let retention = Self.retention(days: days, serverDefault: serverDefault)
        remembered.withLock { $0[containerID] = (retention, webhooks, now) }
        return (retention, webhooks)
    }

    /// Reads the container's setting again at its next use.
    package func forget(_ containerID: String) {
        _ = remembered.withLock { $0.removeValue(forKey: containerID) }
    }

    /// The retention a container's setting gives.
    static func retention(days: Int?, serverDefault: Duration) -> Duration {
        days.map { .seconds($0 * 24 * 3600) } ?? serverDefault
    }
}
