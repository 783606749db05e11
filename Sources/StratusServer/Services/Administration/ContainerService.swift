import StratusCore

/// Containers: made on first start and asked for their API token by the CLI.
package struct ContainerService: Sendable {
    let storage: any StratusStorage
    let clock: ServerClock

    /// Returns the container, creating it with a fresh API token if it does not exist yet.
    package func ensureContainer(id: String) async throws -> StoredContainer {
        try NameRules.validateContainerID(id)
        return try await storage.write { transaction in
            if let existing = try await transaction.container(id: id) { return existing }
            let container = StoredContainer(id: id, apiToken: SecretGenerator.apiToken(), createdAt: clock.milliseconds)
            try await transaction.insertContainer(container)
            return container
        }
    }

    /// The container, or nil if there is none with that identifier.
    package func container(id: String) async throws -> StoredContainer? {
        try await storage.read { try await $0.container(id: id) }
    }
}
