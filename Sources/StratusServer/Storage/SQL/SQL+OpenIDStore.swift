import StratusCore

/// ``OpenIDStore`` in the SQL both drivers speak. Flags are stored as 0 and 1.
extension OpenIDStore where Self: SQLDatabase {
    package func insertOpenIDIdentity(_ identity: StoredOpenIDIdentity) async throws {
        // Checked first, so that a PostgreSQL transaction is not aborted by the violation.
        if try await fetchOne("""
            SELECT 1 FROM openid_identities WHERE (container_id = \(identity.containerID) AND issuer = \(identity.issuer) AND subject = \(identity.subject))
                OR (user_record_name = \(identity.userRecordName) AND provider = \(identity.provider))
            """) != nil {
            throw CloudKitError(.exists, "this identity signs in to an account already, or the account has one of this provider")
        }
        try await run("""
            INSERT INTO openid_identities (container_id, issuer, subject, provider, user_record_name, email, email_verified, linked_at, last_used_at)
            VALUES (\(identity.containerID), \(identity.issuer), \(identity.subject), \(identity.provider), \(identity.userRecordName), \(identity.email),
                    \(Int64(identity.emailVerified ? 1 : 0)), \(identity.linkedAt), \(identity.lastUsedAt))
            """)
    }

    package func openIDIdentity(containerID: String, issuer: String, subject: String) async throws -> StoredOpenIDIdentity? {
        try await fetchOne("""
            SELECT \(Self.identityColumns) FROM openid_identities WHERE container_id = \(containerID) AND issuer = \(issuer) AND subject = \(subject)
            """).map(Self.identity)
    }

    package func openIDIdentities(user: String) async throws -> [StoredOpenIDIdentity] {
        try await fetch("SELECT \(Self.identityColumns) FROM openid_identities WHERE user_record_name = \(user) ORDER BY linked_at, provider")
            .map(Self.identity)
    }

    package func openIDIdentities(containerID: String) async throws -> [StoredOpenIDIdentity] {
        try await fetch("SELECT \(Self.identityColumns) FROM openid_identities WHERE container_id = \(containerID) ORDER BY issuer, subject")
            .map(Self.identity)
    }

    package func setOpenIDIdentityUsed(containerID: String, issuer: String, subject: String, email: String?, emailVerified: Bool,
                                       at time: Int64) async throws {
        try await run("""
            UPDATE openid_identities SET email = \(email), email_verified = \(Int64(emailVerified ? 1 : 0)), last_used_at = \(time)
            WHERE container_id = \(containerID) AND issuer = \(issuer) AND subject = \(subject)
            """)
    }

    package func deleteOpenIDIdentity(user: String, provider: String) async throws -> Bool {
        try await changedRowCount("DELETE FROM openid_identities WHERE user_record_name = \(user) AND provider = \(provider) RETURNING 1") > 0
    }

    package func insertOpenIDFlow(_ flow: StoredOpenIDFlow, now: Int64) async throws {
        try await run("""
            DELETE FROM openid_flows WHERE state_hash IN (SELECT state_hash FROM openid_flows WHERE expires_at <= \(now) LIMIT 100)
            """)
        try await run("""
            INSERT INTO openid_flows (state_hash, container_id, environment, provider, sealed_verifier, nonce, browser_hash, redirect_uri, purpose,
                                      handoff, session_hash, expires_at)
            VALUES (\(flow.stateHash), \(flow.containerID), \(flow.environment), \(flow.provider), \(flow.sealedVerifier), \(flow.nonce),
                    \(flow.browserHash), \(flow.redirectURI), \(flow.purpose), \(flow.handoff), \(flow.sessionHash), \(flow.expiresAt))
            """)
    }

    package func takeOpenIDFlow(stateHash: String) async throws -> StoredOpenIDFlow? {
        try await fetchOne("""
            DELETE FROM openid_flows WHERE state_hash = \(stateHash)
            RETURNING state_hash, container_id, environment, provider, sealed_verifier, nonce, browser_hash, redirect_uri, purpose, handoff,
                      session_hash, expires_at
            """).map { row in
            StoredOpenIDFlow(stateHash: try row.string(0), containerID: try row.string(1), environment: try row.string(2), provider: try row.string(3),
                             sealedVerifier: try row.string(4), nonce: try row.string(5), browserHash: try row.string(6), redirectURI: try row.string(7),
                             purpose: try row.string(8), handoff: try row.string(9), sessionHash: try row.optionalString(10), expiresAt: try row.int64(11))
        }
    }

    /// The columns ``identity(_:)`` reads, in its order.
    private static var identityColumns: SQLStatement {
        "container_id, provider, issuer, subject, user_record_name, email, email_verified, linked_at, last_used_at"
    }

    private static func identity(_ row: SQLRow) throws -> StoredOpenIDIdentity {
        StoredOpenIDIdentity(containerID: try row.string(0), provider: try row.string(1), issuer: try row.string(2), subject: try row.string(3),
                             userRecordName: try row.string(4), email: try row.optionalString(5), emailVerified: try row.int64(6) != 0,
                             linkedAt: try row.int64(7), lastUsedAt: try row.optionalInt64(8))
    }
}
