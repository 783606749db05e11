import StratusCore
import GRDB

extension SQLiteTransaction {
    func containers() throws -> [StoredContainer] {
        try Row.fetchAll(db, sql: "SELECT id, api_token, created_at FROM containers ORDER BY id").map {
            StoredContainer(id: $0[0], apiToken: $0[1], createdAt: $0[2])
        }
    }

    func setAPIToken(containerID: String, apiToken: String) throws {
        try db.execute(sql: "UPDATE containers SET api_token = ? WHERE id = ?", arguments: [apiToken, containerID])
    }

    func users(containerID: String, matching text: String?, limit: Int) throws -> [StoredUser] {
        let pattern = text.map { "%" + $0.replacingOccurrences(of: "\\", with: "\\\\")
            .replacingOccurrences(of: "%", with: "\\%").replacingOccurrences(of: "_", with: "\\_") + "%" }
        return try Row.fetchAll(db, sql: """
            SELECT \(Self.userColumns) FROM users
            WHERE container_id = ? AND (? IS NULL OR username LIKE ? ESCAPE '\\' OR email LIKE ? ESCAPE '\\')
            ORDER BY username LIMIT ?
            """, arguments: [containerID, pattern, pattern, pattern, limit]).map(Self.user)
    }

    func setUserDisabled(user: String, at time: Int64?) throws {
        try db.execute(sql: "UPDATE users SET disabled_at = ? WHERE user_record_name = ?", arguments: [time, user])
    }

    func setPasswordHash(user: String, passwordHash: String) throws {
        try db.execute(sql: "UPDATE users SET password_hash = ? WHERE user_record_name = ?", arguments: [passwordHash, user])
    }

    func deleteSessions(user: String, except kept: String?) throws -> [String] {
        let hashes = try String.fetchAll(db, sql: "SELECT token_hash FROM sessions WHERE user_record_name = ? AND token_hash IS NOT ?",
                                         arguments: [user, kept])
        try db.execute(sql: "DELETE FROM sessions WHERE user_record_name = ? AND token_hash IS NOT ?", arguments: [user, kept])
        try db.execute(sql: "DELETE FROM apns_tokens WHERE user_record_name = ? AND session_hash IS NOT ?", arguments: [user, kept])
        return hashes
    }

    func zonesSharedWith(user: String) throws -> [Int64] {
        try Int64.fetchAll(db, sql: "SELECT DISTINCT zone_id FROM share_participants WHERE user_record_name = ? ORDER BY zone_id",
                           arguments: [user])
    }

    func deleteUser(recordName user: String) throws {
        for table in ["email_codes", "user_roles", "apns_tokens", "users"] {
            try db.execute(sql: "DELETE FROM \(table) WHERE user_record_name = ?", arguments: [user])
        }
    }

    func databaseIDs(containerID: String, environment: ContainerEnvironment) throws -> [Int64] {
        try Int64.fetchAll(db, sql: "SELECT id FROM databases WHERE container_id = ? AND environment = ? ORDER BY id",
                           arguments: [containerID, environment.rawValue])
    }
}
