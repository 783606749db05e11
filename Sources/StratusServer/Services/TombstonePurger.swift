import Logging
import ServiceLifecycle

/// Purges expired tombstones on a timer for as long as the server runs.
struct TombstonePurger: Service {
    let changes: ChangeService
    let interval: Duration
    let logger: Logger

    func run() async throws {
        while !Task.isCancelledOrShuttingDown {
            do {
                let purged = try await changes.purgeTombstones()
                if purged > 0 { logger.info("purged \(purged) expired tombstones") }
            } catch {
                logger.error("tombstone purge failed: \(error)")
            }
            try? await Task.sleep(for: interval)
        }
    }
}

extension Task where Success == Never, Failure == Never {
    /// Whether the task was cancelled or the service group is shutting down gracefully.
    static var isCancelledOrShuttingDown: Bool { Task.isCancelled || Task.isShuttingDownGracefully }
}
