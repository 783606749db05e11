import Logging

/// Background upkeep, run by a ``Periodic`` service: purging expired tombstones and record
/// versions past history's retention or its byte budget, passing webhook endpoints over events
/// older than the webhook backlog, collecting
/// asset files nothing refers to, forgetting expired replay keys and the fleet's full rate
/// buckets, and destroying the data keys of deleted users that a deletion left behind.
struct Maintenance: Sendable {
    let services: StratusServices
    let logger: Logger

    /// One round of maintenance, unless another instance of the store is running one.
    func run() async {
        let (services, logger) = (self.services, self.logger)
        do {
            _ = try await services.storage.exclusively("maintenance") {
                let purged = try await services.changes.purgeTombstones()
                if purged > 0 { logger.info("purged \(purged) expired tombstones") }
                let passed = try await services.webhooks.passBacklog()
                if passed > 0 { logger.warning("\(passed) webhook endpoints fell behind the webhook backlog; events older than it were not delivered") }
                let versions = try await services.history.purgeExpired()
                if versions > 0 { logger.info("purged \(versions) record versions older than history's retention") }
                let evicted = try await services.history.enforceBudget()
                if evicted > 0 { logger.info("evicted \(evicted) record versions past history's byte budget per zone") }
                let collected = try await services.assets.collectGarbage()
                if collected.uploads + collected.files > 0 {
                    logger.info("collected \(collected.uploads) unused asset uploads and \(collected.files) unreferenced files")
                }
                let now = services.clock.milliseconds
                try await services.storage.write { try await $0.deleteExpiredReplayKeys(before: now) }
                try await services.storage.fleetCounters?.purge(now: now)
                let orphans = try await Self.destroyKeysOfDeletedUsers(services)
                if orphans > 0 { logger.info("destroyed the data keys of \(orphans) deleted users") }
            }
        } catch {
            logger.error("maintenance failed: \(error)")
        }
    }

    /// Destroys the data keys whose users no longer exist (``KeyVault/destroyKeysOfDeletedUsers(existing:)``).
    static func destroyKeysOfDeletedUsers(_ services: StratusServices) async throws -> Int {
        try await services.keys.destroyKeysOfDeletedUsers { names in
            try await services.storage.read { transaction in
                var existing = Set<String>()
                for name in names where try await transaction.user(recordName: name) != nil { existing.insert(name) }
                return existing
            }
        }
    }
}
