import StratusCore

/// Containers: their API tokens and web origins.
package protocol ContainerStore {
    func container(id: String) async throws -> StoredContainer?
    func containers() async throws -> [StoredContainer]
    func insertContainer(_ container: StoredContainer) async throws
    func setAPIToken(containerID: String, apiToken: String) async throws
    /// Replaces the container's web origins (``StoredContainer/webOrigins``).
    func setWebOrigins(containerID: String, origins: [String]) async throws
}
