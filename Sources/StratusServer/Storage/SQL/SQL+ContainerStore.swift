import StratusCore

/// ``ContainerStore`` in the SQL both drivers speak.
extension ContainerStore where Self: SQLDatabase {
    package func container(id: String) async throws -> StoredContainer? {
        try await fetchOne("SELECT id, api_token, created_at, web_origins, history_days FROM containers WHERE id = \(id)").map(AccountRows.container)
    }

    package func containers() async throws -> [StoredContainer] {
        try await fetch("SELECT id, api_token, created_at, web_origins, history_days FROM containers ORDER BY id").map(AccountRows.container)
    }

    package func insertContainer(_ container: StoredContainer) async throws {
        try await run("""
            INSERT INTO containers (id, api_token, created_at, web_origins, history_days)
            VALUES (\(container.id), \(container.apiToken), \(container.createdAt), \(AccountRows.originsText(container.webOrigins)),
                    \(container.historyDays.map(Int64.init)))
            """)
    }

    package func setWebOrigins(containerID: String, origins: [String]) async throws {
        try await run("UPDATE containers SET web_origins = \(AccountRows.originsText(origins)) WHERE id = \(containerID)")
    }

    package func setHistoryDays(containerID: String, days: Int?) async throws {
        try await run("UPDATE containers SET history_days = \(days.map(Int64.init)) WHERE id = \(containerID)")
    }

    package func setAPIToken(containerID: String, apiToken: String) async throws {
        try await run("UPDATE containers SET api_token = \(apiToken) WHERE id = \(containerID)")
    }
}
