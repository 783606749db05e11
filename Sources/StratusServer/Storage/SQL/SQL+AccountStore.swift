import StratusCore

/// ``AccountStore`` in the SQL both drivers speak.
extension AccountStore where Self: SQLDatabase {
    package func user(containerID: String, username: String) async throws -> StoredUser? {
        try await fetchOne("SELECT \(unescaped: SQLColumns.user) FROM users WHERE container_id = \(containerID) AND username = \(username)")
            .map(AccountRows.user)
    }

    package func user(containerID: String, email: String) async throws -> StoredUser? {
        try await fetchOne("""
            SELECT \(unescaped: SQLColumns.user) FROM users
            WHERE container_id = \(containerID) AND email = \(email.lowercased()) AND email_verified = \(literal: true)
            """).map(AccountRows.user)
    }

    package func user(recordName: String) async throws -> StoredUser? {
        try await fetchOne("SELECT \(unescaped: SQLColumns.user) FROM users WHERE user_record_name = \(recordName)").map(AccountRows.user)
    }

    package func users(containerID: String, matching text: String?, limit: Int) async throws -> [StoredUser] {
        let pattern = text.map(SQLColumns.containing)
        return try await fetch("""
            SELECT \(unescaped: SQLColumns.user) FROM users
            WHERE container_id = \(containerID)
              AND (CAST(\(pattern) AS TEXT) IS NULL OR username LIKE \(pattern) ESCAPE '\\' OR email LIKE \(pattern) ESCAPE '\\')
            ORDER BY username LIMIT \(limit)
            """).map(AccountRows.user)
    }

    package func insertUser(_ user: StoredUser) async throws {
        let inserted = try await changedRowCount("""
            INSERT INTO users (\(unescaped: SQLColumns.user)) VALUES (\(user.userRecordName), \(user.containerID), \(user.username),
                \(user.passwordHash), \(user.createdAt), \(user.email?.lowercased()), \(user.discoverable), \(user.emailVerified), \(user.disabledAt),
                \(user.apple?.subject), \(user.apple?.email), \(user.apple?.emailVerified ?? false), \(user.apple?.refreshToken?.sealedToken),
                \(user.apple?.refreshToken?.clientID), \(user.apple?.relayMailDisabled == true ? 1 : 0))
            ON CONFLICT (container_id, username) DO NOTHING RETURNING 1
            """)
        if inserted == 0 { throw CloudKitError(.exists, "username '\(user.username)' is taken") }
    }

    package func setUserDisabled(user: String, at time: Int64?) async throws {
        try await run("UPDATE users SET disabled_at = \(time) WHERE user_record_name = \(user)")
    }

    package func user(containerID: String, appleSubject: String) async throws -> StoredUser? {
        try await fetchOne("SELECT \(unescaped: SQLColumns.user) FROM users WHERE container_id = \(containerID) AND apple_subject = \(appleSubject)")
            .map(AccountRows.user)
    }

    package func setAppleIdentity(user: String, _ identity: StoredAppleIdentity?) async throws {
        try await run("""
            UPDATE users SET apple_subject = \(identity?.subject), apple_email = \(identity?.email), apple_email_verified = \(identity?.emailVerified ?? false),
                apple_refresh_token = \(identity?.refreshToken?.sealedToken), apple_client_id = \(identity?.refreshToken?.clientID),
                apple_relay_mail_disabled = \(identity?.relayMailDisabled == true ? 1 : 0)
            WHERE user_record_name = \(user)
            """)
    }

    package func setPasswordHash(user: String, passwordHash: String) async throws {
        try await run("UPDATE users SET password_hash = \(passwordHash) WHERE user_record_name = \(user)")
    }

    package func setEmail(user: String, email: String?) async throws {
        try await run("DELETE FROM email_codes WHERE user_record_name = \(user)")
        try await run("UPDATE users SET email = \(email), email_verified = \(literal: false) WHERE user_record_name = \(user)")
    }

    package func deleteUser(recordName user: String) async throws {
        for table in ["email_codes", "proof_codes", "password_reset_codes", "user_roles", "apns_tokens", "passkeys", "openid_identities", "users"] {
            try await run("DELETE FROM \(unescaped: table) WHERE user_record_name = \(user)")
        }
    }

    package func markEmailVerified(user: String) async throws {
        // A unique partial index refuses a second verified claim; checked first, so that a
        // PostgreSQL transaction is not aborted by the violation.
        let taken = try await fetchOne("""
            SELECT 1 FROM users mine JOIN users other ON other.container_id = mine.container_id AND other.email = mine.email
            WHERE mine.user_record_name = \(user) AND other.user_record_name <> mine.user_record_name AND other.email_verified = \(literal: true)
            """)
        if taken != nil { throw CloudKitError(.exists, "another account has verified this email address") }
        try await run("UPDATE users SET email_verified = \(true) WHERE user_record_name = \(user)")
        try await run("DELETE FROM email_codes WHERE user_record_name = \(user)")
    }
}

/// Column lists and patterns the shared statements use.
enum SQLColumns {
    static let user = "user_record_name, container_id, username, password_hash, created_at, email, discoverable, email_verified, disabled_at, "
        + "apple_subject, apple_email, apple_email_verified, apple_refresh_token, apple_client_id, apple_relay_mail_disabled"

    /// A `LIKE … ESCAPE '\'` pattern matching text that contains `text`, its wildcards escaped.
    static func containing(_ text: String) -> String {
        "%" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%")
            .replacingOccurrences(of: "_", with: "\\_") + "%"
    }
}

extension SQLDatabase {
    /// Every user of a container, by record name (an archive's order).
    func containerUsers(_ containerID: String) async throws -> [StoredUser] {
        try await fetch("SELECT \(unescaped: SQLColumns.user) FROM users WHERE container_id = \(containerID) ORDER BY user_record_name")
            .map(AccountRows.user)
    }
}

/// How account rows read.
enum AccountRows {
    static func container(_ row: SQLRow) throws -> StoredContainer {
        StoredContainer(id: try row.string(0), apiToken: try row.string(1), createdAt: try row.int64(2),
                        webOrigins: try row.string(3).split(separator: "\n").map(String.init), historyDays: try row.optionalInt64(4).map(Int.init))
    }

    /// Web origins as the column holds them: one per line.
    static func originsText(_ origins: [String]) -> String { origins.joined(separator: "\n") }

    static func user(_ row: SQLRow) throws -> StoredUser {
        StoredUser(userRecordName: try row.string(0), containerID: try row.string(1), username: try row.string(2),
                   passwordHash: try row.string(3), createdAt: try row.int64(4), email: try row.optionalString(5),
                   discoverable: try row.bool(6), emailVerified: try row.bool(7), disabledAt: try row.optionalInt64(8),
                   apple: try row.optionalString(9).map { subject in
                       let token = try row.optionalString(12).map { AppleRefreshToken(sealedToken: $0, clientID: try row.optionalString(13) ?? "") }
                       return StoredAppleIdentity(subject: subject, email: try row.optionalString(10), emailVerified: try row.bool(11),
                                                  refreshToken: token, relayMailDisabled: try row.int64(14) != 0)
                   })
    }
}
