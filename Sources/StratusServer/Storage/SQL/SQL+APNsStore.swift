import StratusCore

/// ``APNsStore`` in the SQL both drivers speak.
extension APNsStore where Self: SQLDatabase {
    package func setAPNsCredentials(_ credentials: APNsCredentials?, containerID: String) async throws {
        guard let credentials else {
            try await run("DELETE FROM apns_credentials WHERE container_id = \(containerID)")
            return
        }
        try await run("""
            INSERT INTO apns_credentials (container_id, key_id, team_id, topic, private_key)
            VALUES (\(containerID), \(credentials.keyID), \(credentials.teamID), \(credentials.topic), \(credentials.privateKeyPEM))
            ON CONFLICT (container_id) DO UPDATE SET key_id = EXCLUDED.key_id, team_id = EXCLUDED.team_id, topic = EXCLUDED.topic,
                private_key = EXCLUDED.private_key
            """)
    }

    package func apnsCredentials(containerID: String) async throws -> APNsCredentials? {
        try await fetchOne("SELECT key_id, team_id, topic, private_key FROM apns_credentials WHERE container_id = \(containerID)").map {
            APNsCredentials(keyID: try $0.string(0), teamID: try $0.string(1), topic: try $0.string(2), privateKeyPEM: try $0.string(3))
        }
    }

    package func registerAPNsToken(_ token: StoredAPNsToken, maxPerUser: Int) async throws {
        try await run("""
            INSERT INTO apns_tokens (container_id, apns_token, environment, user_record_name, apns_environment, registered_at, session_hash)
            VALUES (\(token.containerID), \(token.token), \(token.environment.rawValue), \(token.user), \(token.apnsEnvironment.rawValue),
                    \(token.registeredAt), \(token.sessionHash))
            ON CONFLICT (container_id, apns_token) DO UPDATE SET environment = EXCLUDED.environment, user_record_name = EXCLUDED.user_record_name,
                apns_environment = EXCLUDED.apns_environment, registered_at = EXCLUDED.registered_at, session_hash = EXCLUDED.session_hash
            """)
        try await run("""
            DELETE FROM apns_tokens WHERE container_id = \(token.containerID) AND environment = \(token.environment.rawValue)
              AND user_record_name = \(token.user) AND apns_token NOT IN (
                SELECT apns_token FROM apns_tokens WHERE container_id = \(token.containerID) AND environment = \(token.environment.rawValue)
                  AND user_record_name = \(token.user) ORDER BY registered_at DESC, apns_token LIMIT \(maxPerUser))
            """)
    }

    package func apnsTokens(containerID: String, environment: ContainerEnvironment, user: String, liveAt: Int64?) async throws -> [StoredAPNsToken] {
        try await fetch("""
            SELECT apns_token, apns_environment, registered_at, session_hash FROM apns_tokens
            WHERE container_id = \(containerID) AND environment = \(environment.rawValue) AND user_record_name = \(user)
              AND (CAST(\(liveAt) AS BIGINT) IS NULL OR session_hash IS NULL
                   OR EXISTS (SELECT 1 FROM sessions WHERE token_hash = apns_tokens.session_hash AND expires_at > \(liveAt)))
            ORDER BY registered_at, apns_token
            """).compactMap { row in
            guard let apnsEnvironment = ContainerEnvironment(rawValue: try row.string(1)) else { return nil }
            return StoredAPNsToken(containerID: containerID, environment: environment, user: user, token: try row.string(0),
                                   apnsEnvironment: apnsEnvironment, registeredAt: try row.int64(2), sessionHash: try row.optionalString(3))
        }
    }

    package func removeAPNsToken(_ token: String, containerID: String) async throws -> Bool {
        try await changedRowCount("DELETE FROM apns_tokens WHERE container_id = \(containerID) AND apns_token = \(token) RETURNING 1") > 0
    }
}
