import StratusCore

/// ``SessionStore`` in the SQL both drivers speak.
extension SessionStore where Self: SQLDatabase {
    package func session(tokenHash: String) async throws -> StoredSession? {
        try await fetchOne("SELECT \(Self.sessionColumns) FROM sessions WHERE token_hash = \(tokenHash)").flatMap(Self.session)
    }

    package func sessions(user: String) async throws -> [StoredSession] {
        try await fetch("""
            SELECT \(Self.sessionColumns) FROM sessions WHERE user_record_name = \(user) ORDER BY created_at DESC, token_hash LIMIT \(Self.maxListedSessions)
            """).compactMap(Self.session)
    }

    package func insertSession(_ session: StoredSession) async throws {
        try await run("""
            INSERT INTO sessions (token_hash, user_record_name, container_id, environment, expires_at, created_at, last_used_at, proven_at, device, client_address)
            VALUES (\(session.tokenHash), \(session.userRecordName), \(session.containerID), \(session.environment.rawValue), \(session.expiresAt),
                    \(session.createdAt), \(session.lastUsedAt), \(session.provenAt), \(session.device), \(session.clientAddress))
            """)
    }

    package func setSessionProven(tokenHash: String, at time: Int64) async throws {
        try await run("UPDATE sessions SET proven_at = \(time), last_used_at = \(time) WHERE token_hash = \(tokenHash)")
    }

    package func setSessionUsed(tokenHash: String, at time: Int64) async throws {
        try await run("UPDATE sessions SET last_used_at = \(time) WHERE token_hash = \(tokenHash) AND last_used_at < \(time)")
    }

    /// The columns ``session(_:)`` reads, in its order.
    private static var sessionColumns: SQLStatement {
        "token_hash, user_record_name, container_id, environment, expires_at, created_at, last_used_at, proven_at, device, client_address"
    }

    /// The most sessions of one user listed (the newest).
    static var maxListedSessions: Int { 200 }

    private static func session(_ row: SQLRow) throws -> StoredSession? {
        guard let environment = ContainerEnvironment(rawValue: try row.string(3)) else { return nil }
        return StoredSession(tokenHash: try row.string(0), userRecordName: try row.string(1), containerID: try row.string(2),
                             environment: environment, expiresAt: try row.int64(4), createdAt: try row.int64(5), lastUsedAt: try row.int64(6),
                             provenAt: try row.int64(7), device: try row.string(8), clientAddress: try row.string(9))
    }

    package func deleteSession(tokenHash: String) async throws {
        try await run("DELETE FROM apns_tokens WHERE session_hash = \(tokenHash)")
        try await run("DELETE FROM sessions WHERE token_hash = \(tokenHash)")
    }

    package func deleteSessions(user: String, except kept: String?) async throws -> [String] {
        try await run("DELETE FROM apns_tokens WHERE user_record_name = \(user) AND session_hash IS DISTINCT FROM \(kept)")
        return try await fetch("""
            DELETE FROM sessions WHERE user_record_name = \(user) AND token_hash IS DISTINCT FROM \(kept) RETURNING token_hash
            """).map { try $0.string(0) }
    }

    package func deleteExpiredSessions(before time: Int64) async throws {
        try await run("DELETE FROM apns_tokens WHERE session_hash IN (SELECT token_hash FROM sessions WHERE expires_at < \(time))")
        try await run("DELETE FROM sessions WHERE expires_at < \(time)")
    }

    package func insertConsoleSession(_ session: StoredConsoleSession) async throws {
        try await run("""
            INSERT INTO console_sessions (token_hash, username, expires_at) VALUES (\(session.tokenHash), \(session.username), \(session.expiresAt))
            """)
    }

    package func consoleSession(tokenHash: String) async throws -> StoredConsoleSession? {
        try await fetchOne("SELECT token_hash, username, expires_at FROM console_sessions WHERE token_hash = \(tokenHash)").map {
            StoredConsoleSession(tokenHash: try $0.string(0), username: try $0.string(1), expiresAt: try $0.int64(2))
        }
    }

    package func deleteConsoleSession(tokenHash: String) async throws {
        try await run("DELETE FROM console_sessions WHERE token_hash = \(tokenHash)")
    }

    package func deleteExpiredConsoleSessions(before time: Int64) async throws {
        try await run("DELETE FROM console_sessions WHERE expires_at < \(time)")
    }
}
