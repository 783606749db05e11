import GRDB

extension SQLiteTransaction {
    func insertServerKey(_ key: StoredServerKey) throws {
        try db.execute(sql: "INSERT INTO server_keys (key_id, container_id, public_key, created_at, revoked_at) VALUES (?, ?, ?, ?, ?)",
                       arguments: [key.keyID, key.containerID, key.publicKeyPEM, key.createdAt, key.revokedAt])
    }

    func serverKey(keyID: String) throws -> StoredServerKey? {
        try Row.fetchOne(db.cachedStatement(sql: "SELECT key_id, container_id, public_key, created_at, revoked_at FROM server_keys WHERE key_id = ?"),
                         arguments: [keyID]).map(Self.serverKey)
    }

    func serverKeys(containerID: String) throws -> [StoredServerKey] {
        try Row.fetchAll(db, sql: """
            SELECT key_id, container_id, public_key, created_at, revoked_at FROM server_keys WHERE container_id = ? ORDER BY created_at, key_id
            """, arguments: [containerID]).map(Self.serverKey)
    }

    func revokeServerKey(keyID: String, at time: Int64) throws -> Bool {
        try db.execute(sql: "UPDATE server_keys SET revoked_at = ? WHERE key_id = ? AND revoked_at IS NULL", arguments: [time, keyID])
        return db.changesCount > 0
    }

    private static func serverKey(_ row: Row) -> StoredServerKey {
        StoredServerKey(keyID: row[0], containerID: row[1], publicKeyPEM: row[2], createdAt: row[3], revokedAt: row[4])
    }
}
