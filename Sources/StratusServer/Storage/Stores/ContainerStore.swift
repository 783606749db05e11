import StratusCore

/// Containers: their API tokens, web origins and history setting.
package protocol ContainerStore {
    func container(id: String) async throws -> StoredContainer?
    func containers() async throws -> [StoredContainer]
    func insertContainer(_ container: StoredContainer) async throws
    func setAPIToken(containerID: String, apiToken: String) async throws
    /// Replaces the container's web origins (``StoredContainer/webOrigins``).
    func setWebOrigins(containerID: String, origins: [String]) async throws
    /// Sets how many days the container keeps record history (``StoredContainer/historyDays``).
    func setHistoryDays(containerID: String, days: Int?) async throws
}
