import Logging
import ServiceLifecycle

/// Background upkeep on a timer for as long as the server runs: purging expired tombstones and
/// collecting asset files nothing refers to.
struct Maintenance: Service, CustomStringConvertible {
    let services: StratusServices
    let interval: Duration
    let logger: Logger

    var description: String { "Maintenance" }

    func run() async throws {
        try? await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do {
                    let purged = try await services.changes.purgeTombstones()
                    if purged > 0 { logger.info("purged \(purged) expired tombstones") }
                    let collected = try await services.assets.collectGarbage()
                    if collected.uploads + collected.files > 0 {
                        logger.info("collected \(collected.uploads) unused asset uploads and \(collected.files) unreferenced files")
                    }
                } catch {
                    logger.error("maintenance failed: \(error)")
                }
                try await Task.sleep(for: interval)
            }
        }
    }
}
