import PostgresNIO
import StratusCore

/// Containers, users and administrators as the admin service manages them.
extension PostgresTransaction {
    func containers() async throws -> [StoredContainer] {
        try await rows("SELECT id, api_token, created_at FROM containers ORDER BY id").map(Self.container)
    }

    func setAPIToken(containerID: String, apiToken: String) async throws {
        try await execute("UPDATE containers SET api_token = \(apiToken) WHERE id = \(containerID)")
    }

    func users(containerID: String, matching text: String?, limit: Int) async throws -> [StoredUser] {
        let pattern = text.map { "%" + $0.replacingOccurrences(of: "\\", with: "\\\\")
            .replacingOccurrences(of: "%", with: "\\%").replacingOccurrences(of: "_", with: "\\_") + "%" }
        return try await rows("""
            SELECT \(unescaped: Self.userColumns) FROM users
            WHERE container_id = \(containerID) AND (\(pattern)::text IS NULL OR username LIKE \(pattern) OR email LIKE \(pattern))
            ORDER BY username LIMIT \(Int64(limit))
            """).map(Self.user)
    }

    func setUserDisabled(user: String, at time: Int64?) async throws {
        try await execute("UPDATE users SET disabled_at = \(time) WHERE user_record_name = \(user)")
    }

    func setPasswordHash(user: String, passwordHash: String) async throws {
        try await execute("UPDATE users SET password_hash = \(passwordHash) WHERE user_record_name = \(user)")
    }

    func deleteSessions(user: String, except kept: String?) async throws -> [String] {
        try await execute("DELETE FROM apns_tokens WHERE user_record_name = \(user) AND session_hash IS DISTINCT FROM \(kept)")
        return try await values("""
            DELETE FROM sessions WHERE user_record_name = \(user) AND token_hash IS DISTINCT FROM \(kept) RETURNING token_hash
            """, as: String.self)
    }

    func zonesSharedWith(user: String) async throws -> [Int64] {
        try await values("SELECT DISTINCT zone_id FROM share_participants WHERE user_record_name = \(user) ORDER BY zone_id", as: Int64.self)
    }

    func deleteUser(recordName user: String) async throws {
        for table in ["email_codes", "user_roles", "apns_tokens", "users"] {
            try await execute("DELETE FROM \(unescaped: table) WHERE user_record_name = \(user)")
        }
    }

    func databaseIDs(containerID: String, environment: ContainerEnvironment) async throws -> [Int64] {
        try await values("SELECT id FROM databases WHERE container_id = \(containerID) AND environment = \(environment.rawValue) ORDER BY id",
                         as: Int64.self)
    }

    // MARK: Administrators and the console

    func insertAdministrator(_ administrator: StoredAdministrator) async throws {
        let inserted = try await changedRows("""
            INSERT INTO administrators (username, password_hash, created_at)
            VALUES (\(administrator.username), \(administrator.passwordHash), \(administrator.createdAt)) ON CONFLICT DO NOTHING RETURNING 1
            """)
        if inserted == 0 { throw CloudKitError(.exists, "there is an administrator '\(administrator.username)'") }
    }

    func administrator(username: String) async throws -> StoredAdministrator? {
        try await rows("SELECT username, password_hash, created_at FROM administrators WHERE username = \(username)").first.map(Self.administrator)
    }

    func administrators() async throws -> [StoredAdministrator] {
        try await rows("SELECT username, password_hash, created_at FROM administrators ORDER BY username").map(Self.administrator)
    }

    private static func administrator(_ row: PostgresRandomAccessRow) throws -> StoredAdministrator {
        StoredAdministrator(username: try row[0].decode(String.self), passwordHash: try row[1].decode(String.self),
                            createdAt: try row[2].decode(Int64.self))
    }

    func deleteAdministrator(username: String) async throws -> Bool {
        try await execute("DELETE FROM console_sessions WHERE username = \(username)")
        return try await changedRows("DELETE FROM administrators WHERE username = \(username) RETURNING 1") > 0
    }

    func insertConsoleSession(_ session: StoredConsoleSession) async throws {
        try await execute("""
            INSERT INTO console_sessions (token_hash, username, expires_at) VALUES (\(session.tokenHash), \(session.username), \(session.expiresAt))
            """)
    }

    func consoleSession(tokenHash: String) async throws -> StoredConsoleSession? {
        try await rows("SELECT token_hash, username, expires_at FROM console_sessions WHERE token_hash = \(tokenHash)").first.map {
            StoredConsoleSession(tokenHash: try $0[0].decode(String.self), username: try $0[1].decode(String.self), expiresAt: try $0[2].decode(Int64.self))
        }
    }

    func deleteConsoleSession(tokenHash: String) async throws {
        try await execute("DELETE FROM console_sessions WHERE token_hash = \(tokenHash)")
    }

    func deleteExpiredConsoleSessions(before time: Int64) async throws {
        try await execute("DELETE FROM console_sessions WHERE expires_at < \(time)")
    }

    // MARK: Server-to-server keys

    func insertServerKey(_ key: StoredServerKey) async throws {
        try await execute("""
            INSERT INTO server_keys (key_id, container_id, public_key, created_at, revoked_at)
            VALUES (\(key.keyID), \(key.containerID), \(key.publicKeyPEM), \(key.createdAt), \(key.revokedAt))
            """)
    }

    func serverKey(keyID: String) async throws -> StoredServerKey? {
        try await rows("SELECT key_id, container_id, public_key, created_at, revoked_at FROM server_keys WHERE key_id = \(keyID)")
            .first.map(Self.serverKey)
    }

    func serverKeys(containerID: String) async throws -> [StoredServerKey] {
        try await rows("""
            SELECT key_id, container_id, public_key, created_at, revoked_at FROM server_keys WHERE container_id = \(containerID)
            ORDER BY created_at, key_id
            """).map(Self.serverKey)
    }

    func revokeServerKey(keyID: String, at time: Int64) async throws -> Bool {
        try await changedRows("UPDATE server_keys SET revoked_at = \(time) WHERE key_id = \(keyID) AND revoked_at IS NULL RETURNING 1") > 0
    }

    private static func serverKey(_ row: PostgresRandomAccessRow) throws -> StoredServerKey {
        StoredServerKey(keyID: try row[0].decode(String.self), containerID: try row[1].decode(String.self), publicKeyPEM: try row[2].decode(String.self),
                        createdAt: try row[3].decode(Int64.self), revokedAt: try row[4].decode(Int64?.self))
    }

    // MARK: APNs

    func setAPNsCredentials(_ credentials: APNsCredentials?, containerID: String) async throws {
        guard let credentials else {
            try await execute("DELETE FROM apns_credentials WHERE container_id = \(containerID)")
            return
        }
        try await execute("""
            INSERT INTO apns_credentials (container_id, key_id, team_id, topic, private_key)
            VALUES (\(containerID), \(credentials.keyID), \(credentials.teamID), \(credentials.topic), \(credentials.privateKeyPEM))
            ON CONFLICT (container_id) DO UPDATE SET key_id = EXCLUDED.key_id, team_id = EXCLUDED.team_id, topic = EXCLUDED.topic,
                private_key = EXCLUDED.private_key
            """)
    }

    func apnsCredentials(containerID: String) async throws -> APNsCredentials? {
        try await rows("SELECT key_id, team_id, topic, private_key FROM apns_credentials WHERE container_id = \(containerID)").first.map {
            APNsCredentials(keyID: try $0[0].decode(String.self), teamID: try $0[1].decode(String.self), topic: try $0[2].decode(String.self),
                            privateKeyPEM: try $0[3].decode(String.self))
        }
    }

    func registerAPNsToken(_ token: StoredAPNsToken, maxPerUser: Int) async throws {
        try await execute("""
            INSERT INTO apns_tokens (container_id, apns_token, environment, user_record_name, apns_environment, registered_at, session_hash)
            VALUES (\(token.containerID), \(token.token), \(token.environment.rawValue), \(token.user), \(token.apnsEnvironment.rawValue),
                    \(token.registeredAt), \(token.sessionHash))
            ON CONFLICT (container_id, apns_token) DO UPDATE SET environment = EXCLUDED.environment, user_record_name = EXCLUDED.user_record_name,
                apns_environment = EXCLUDED.apns_environment, registered_at = EXCLUDED.registered_at, session_hash = EXCLUDED.session_hash
            """)
        try await execute("""
            DELETE FROM apns_tokens WHERE container_id = \(token.containerID) AND environment = \(token.environment.rawValue)
              AND user_record_name = \(token.user) AND apns_token NOT IN (
                SELECT apns_token FROM apns_tokens WHERE container_id = \(token.containerID) AND environment = \(token.environment.rawValue)
                  AND user_record_name = \(token.user) ORDER BY registered_at DESC, apns_token LIMIT \(Int64(maxPerUser)))
            """)
    }

    func apnsTokens(containerID: String, environment: ContainerEnvironment, user: String, liveAt: Int64?) async throws -> [StoredAPNsToken] {
        try await rows("""
            SELECT apns_token, apns_environment, registered_at, session_hash FROM apns_tokens
            WHERE container_id = \(containerID) AND environment = \(environment.rawValue) AND user_record_name = \(user)
              AND (\(liveAt)::BIGINT IS NULL OR session_hash IS NULL
                   OR EXISTS (SELECT 1 FROM sessions WHERE token_hash = apns_tokens.session_hash AND expires_at > \(liveAt)))
            ORDER BY registered_at, apns_token
            """).compactMap { row in
            guard let apnsEnvironment = ContainerEnvironment(rawValue: try row[1].decode(String.self)) else { return nil }
            return StoredAPNsToken(containerID: containerID, environment: environment, user: user, token: try row[0].decode(String.self),
                                   apnsEnvironment: apnsEnvironment, registeredAt: try row[2].decode(Int64.self),
                                   sessionHash: try row[3].decode(String?.self))
        }
    }

    func removeAPNsToken(_ token: String, containerID: String) async throws -> Bool {
        try await changedRows("DELETE FROM apns_tokens WHERE container_id = \(containerID) AND apns_token = \(token) RETURNING 1") > 0
    }
}
