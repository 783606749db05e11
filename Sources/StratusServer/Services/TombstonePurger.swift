import Logging
import ServiceLifecycle

/// Purges expired tombstones on a timer for as long as the server runs.
struct TombstonePurger: Service, CustomStringConvertible {
    let changes: ChangeService
    let interval: Duration
    let logger: Logger

    var description: String { "TombstonePurger" }

    func run() async throws {
        try? await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do {
                    let purged = try await changes.purgeTombstones()
                    if purged > 0 { logger.info("purged \(purged) expired tombstones") }
                } catch {
                    logger.error("tombstone purge failed: \(error)")
                }
                try await Task.sleep(for: interval)
            }
        }
    }
}
