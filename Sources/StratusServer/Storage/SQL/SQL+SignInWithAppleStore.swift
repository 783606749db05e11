/// ``SignInWithAppleStore`` in the SQL both drivers speak.
extension SignInWithAppleStore where Self: SQLDatabase {
    package func enqueueAppleRevocation(_ revocation: StoredAppleRevocation) async throws {
        try await run("""
            INSERT INTO apple_revocations (container_id, client_id, sealed_token, created_at, next_attempt_at, attempts, lease_until)
            VALUES (\(revocation.containerID), \(revocation.token.clientID), \(revocation.token.sealedToken), \(revocation.createdAt),
                    \(revocation.createdAt), 0, 0)
            """)
    }

    package func claimAppleRevocations(now: Int64, leaseUntil: Int64, limit: Int) async throws -> [StoredAppleRevocation] {
        try await claimDue(from: "apple_revocations", returning: "id, container_id, client_id, sealed_token, created_at, attempts",
                           now: now, leaseUntil: leaseUntil, limit: limit).map { row in
            StoredAppleRevocation(id: try row.int64(0), containerID: try row.string(1),
                                  token: AppleRefreshToken(sealedToken: try row.string(3), clientID: try row.string(2)),
                                  createdAt: try row.int64(4), attempts: Int(try row.int64(5)))
        }
    }

    package func deleteAppleRevocation(id: Int64) async throws {
        try await run("DELETE FROM apple_revocations WHERE id = \(id)")
    }

    package func rescheduleAppleRevocation(id: Int64, attempts: Int, nextAttemptAt: Int64) async throws {
        try await reschedule(in: "apple_revocations", id: id, attempts: attempts, nextAttemptAt: nextAttemptAt)
    }

    package func pendingAppleRevocationCount() async throws -> Int {
        Int(try await fetchOne("SELECT COUNT(*) FROM apple_revocations")?.int64(0) ?? 0)
    }

    package func isRelayMailDisabled(address: String) async throws -> Bool {
        try await fetchOne("SELECT 1 FROM users WHERE apple_email = \(address) AND apple_relay_mail_disabled <> 0 LIMIT 1") != nil
    }
}
