import GRDB
import StratusCore

/// APNs credentials per container and the device tokens users register.
extension SQLiteTransaction {
    func setAPNsCredentials(_ credentials: APNsCredentials?, containerID: String) throws {
        guard let credentials else {
            try db.execute(sql: "DELETE FROM apns_credentials WHERE container_id = ?", arguments: [containerID])
            return
        }
        try db.execute(sql: """
            INSERT OR REPLACE INTO apns_credentials (container_id, key_id, team_id, topic, private_key) VALUES (?, ?, ?, ?, ?)
            """, arguments: [containerID, credentials.keyID, credentials.teamID, credentials.topic, credentials.privateKeyPEM])
    }

    func apnsCredentials(containerID: String) throws -> APNsCredentials? {
        try Row.fetchOne(db.cachedStatement(sql: "SELECT key_id, team_id, topic, private_key FROM apns_credentials WHERE container_id = ?"),
                         arguments: [containerID]).map { APNsCredentials(keyID: $0[0], teamID: $0[1], topic: $0[2], privateKeyPEM: $0[3]) }
    }

    func registerAPNsToken(_ token: StoredAPNsToken, maxPerUser: Int) throws {
        try db.execute(sql: """
            INSERT OR REPLACE INTO apns_tokens (container_id, apns_token, environment, user_record_name, apns_environment, registered_at,
                                                session_hash)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """, arguments: [token.containerID, token.token, token.environment.rawValue, token.user, token.apnsEnvironment.rawValue,
                             token.registeredAt, token.sessionHash])
        try db.execute(sql: """
            DELETE FROM apns_tokens WHERE container_id = ? AND environment = ? AND user_record_name = ? AND apns_token NOT IN (
                SELECT apns_token FROM apns_tokens WHERE container_id = ? AND environment = ? AND user_record_name = ?
                ORDER BY registered_at DESC, apns_token LIMIT ?)
            """, arguments: [token.containerID, token.environment.rawValue, token.user,
                             token.containerID, token.environment.rawValue, token.user, maxPerUser])
    }

    func apnsTokens(containerID: String, environment: ContainerEnvironment, user: String, liveAt: Int64?) throws -> [StoredAPNsToken] {
        try Row.fetchAll(db.cachedStatement(sql: """
            SELECT apns_token, apns_environment, registered_at, session_hash FROM apns_tokens
            WHERE container_id = ? AND environment = ? AND user_record_name = ?
              AND (?4 IS NULL OR session_hash IS NULL
                   OR EXISTS (SELECT 1 FROM sessions WHERE token_hash = apns_tokens.session_hash AND expires_at > ?4))
            ORDER BY registered_at, apns_token
            """), arguments: [containerID, environment.rawValue, user, liveAt]).compactMap { row in
            guard let apnsEnvironment = ContainerEnvironment(rawValue: row[1]) else { return nil }
            return StoredAPNsToken(containerID: containerID, environment: environment, user: user, token: row[0],
                                   apnsEnvironment: apnsEnvironment, registeredAt: row[2], sessionHash: row[3])
        }
    }

    func removeAPNsToken(_ token: String, containerID: String) throws -> Bool {
        try db.execute(sql: "DELETE FROM apns_tokens WHERE container_id = ? AND apns_token = ?", arguments: [containerID, token])
        return db.changesCount > 0
    }
}
