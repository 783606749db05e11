/// ``ServerKeyStore`` in the SQL both drivers speak.
extension ServerKeyStore where Self: SQLDatabase {
    package func insertServerKey(_ key: StoredServerKey) async throws {
        try await run("""
            INSERT INTO server_keys (key_id, container_id, public_key, created_at, revoked_at)
            VALUES (\(key.keyID), \(key.containerID), \(key.publicKeyPEM), \(key.createdAt), \(key.revokedAt))
            """)
    }

    package func serverKey(keyID: String) async throws -> StoredServerKey? {
        try await fetchOne("SELECT key_id, container_id, public_key, created_at, revoked_at FROM server_keys WHERE key_id = \(keyID)")
            .map(Self.serverKey)
    }

    package func serverKeys(containerID: String) async throws -> [StoredServerKey] {
        try await fetch("""
            SELECT key_id, container_id, public_key, created_at, revoked_at FROM server_keys WHERE container_id = \(containerID)
            ORDER BY created_at, key_id
            """).map(Self.serverKey)
    }

    package func revokeServerKey(keyID: String, at time: Int64) async throws -> Bool {
        try await changedRowCount("UPDATE server_keys SET revoked_at = \(time) WHERE key_id = \(keyID) AND revoked_at IS NULL RETURNING 1") > 0
    }

    private static func serverKey(_ row: SQLRow) throws -> StoredServerKey {
        StoredServerKey(keyID: try row.string(0), containerID: try row.string(1), publicKeyPEM: try row.string(2),
                        createdAt: try row.int64(3), revokedAt: try row.optionalInt64(4))
    }
}
