import Logging

/// Background upkeep, run by a ``Periodic`` service: purging expired tombstones and collecting
/// asset files nothing refers to.
struct Maintenance: Sendable {
    let services: StratusServices
    let logger: Logger

    func run() async {
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
    }
}
