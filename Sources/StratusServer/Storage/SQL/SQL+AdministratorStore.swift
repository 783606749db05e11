import StratusCore

/// ``AdministratorStore`` in the SQL both drivers speak.
extension AdministratorStore where Self: SQLDatabase {
    package func insertAdministrator(_ administrator: StoredAdministrator) async throws {
        let inserted = try await changedRowCount("""
            INSERT INTO administrators (username, password_hash, created_at)
            VALUES (\(administrator.username), \(administrator.passwordHash), \(administrator.createdAt)) ON CONFLICT DO NOTHING RETURNING 1
            """)
        if inserted == 0 { throw CloudKitError(.exists, "there is an administrator '\(administrator.username)'") }
    }

    package func administrator(username: String) async throws -> StoredAdministrator? {
        try await fetchOne("SELECT username, password_hash, created_at FROM administrators WHERE username = \(username)").map(Self.administrator)
    }

    package func administrators() async throws -> [StoredAdministrator] {
        try await fetch("SELECT username, password_hash, created_at FROM administrators ORDER BY username").map(Self.administrator)
    }

    package func deleteAdministrator(username: String) async throws -> Bool {
        try await run("DELETE FROM console_sessions WHERE username = \(username)")
        return try await changedRowCount("DELETE FROM administrators WHERE username = \(username) RETURNING 1") > 0
    }

    private static func administrator(_ row: SQLRow) throws -> StoredAdministrator {
        StoredAdministrator(username: try row.string(0), passwordHash: try row.string(1), createdAt: try row.int64(2))
    }
}
