import StratusCore
import Synchronization

/// How long each container keeps record history: its own setting (``StoredContainer/historyDays``,
/// `stratus container history-days`), else the server's `--history-days`; zero keeps none and
/// writes none.
///
/// Every write asks, so each container's setting is read from the database once and kept for
/// ``freshness``. A change made through this instance applies at once here and, through the
/// instance bus, on every other instance (``NotificationHub/historyRetentionChanged(containerID:)``);
/// one made by a command in another process applies within ``freshness``.
package final class HistoryRetention: Sendable {
    /// The server's retention (`--history-days`), for containers without their own.
    package let serverDefault: Duration
    private let storage: any StratusStorage
    private let remembered = Mutex<[String: (retention: Duration, readAt: ContinuousClock.Instant)]>([:])

    /// How long a container's setting is used before it is read again.
    static let freshness: Duration = .seconds(30)

    init(storage: any StratusStorage, serverDefault: Duration) {
        self.storage = storage
        self.serverDefault = serverDefault
    }

    /// The retention of a container's history.
    package func retention(of containerID: String) async throws -> Duration {
        let now = ContinuousClock.now
        if let known = remembered.withLock({ $0[containerID] }), known.readAt.duration(to: now) < Self.freshness { return known.retention }
        let days = try await storage.read { try await $0.container(id: containerID) }?.historyDays
        let retention = Self.retention(days: days, serverDefault: serverDefault)
        remembered.withLock { $0[containerID] = (retention, now) }
        return retention
    }

    /// Whether changes in the container keep the versions they replace.
    package func keepsHistory(in containerID: String) async throws -> Bool {
        try await retention(of: containerID) > .zero
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
