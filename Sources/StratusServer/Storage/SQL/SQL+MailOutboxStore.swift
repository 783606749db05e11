/// ``MailOutboxStore`` in the SQL both drivers speak.
///
/// A claim is one `UPDATE` that re-checks the lease on each row it sets, so two couriers
/// (instances) claiming at once never both take a row.
extension MailOutboxStore where Self: SQLDatabase {
    package func enqueueMail(_ mail: StoredMail) async throws {
        try await run("""
            INSERT INTO mail_outbox (recipient, subject, body, decoy, code_expires_at, created_at, next_attempt_at, attempts, lease_until, sealed_for)
            VALUES (\(mail.recipient), \(mail.subject), \(mail.body), \(mail.isDecoy ? 1 : 0), \(mail.codeExpiresAt), \(mail.createdAt),
                    \(mail.createdAt), 0, 0, \(mail.sealedFor))
            """)
    }

    package func claimMail(now: Int64, leaseUntil: Int64, limit: Int) async throws -> [StoredMail] {
        try await fetch("""
            UPDATE mail_outbox SET lease_until = \(leaseUntil)
            WHERE id IN (SELECT id FROM mail_outbox WHERE next_attempt_at <= \(now) AND lease_until <= \(now) ORDER BY id LIMIT \(limit))
              AND next_attempt_at <= \(now) AND lease_until <= \(now)
            RETURNING id, recipient, subject, body, decoy, code_expires_at, created_at, attempts, sealed_for
            """).map { row in
            StoredMail(id: try row.int64(0), recipient: try row.string(1), subject: try row.string(2), body: try row.string(3),
                       isDecoy: try row.int64(4) != 0, codeExpiresAt: try row.optionalInt64(5), createdAt: try row.int64(6),
                       sealedFor: try row.optionalString(8), attempts: Int(try row.int64(7)))
        }.sorted { $0.id < $1.id }
    }

    package func deleteMail(id: Int64) async throws {
        try await run("DELETE FROM mail_outbox WHERE id = \(id)")
    }

    package func rescheduleMail(id: Int64, attempts: Int, nextAttemptAt: Int64) async throws {
        try await run("UPDATE mail_outbox SET attempts = \(attempts), next_attempt_at = \(nextAttemptAt), lease_until = 0 WHERE id = \(id)")
    }

    package func deleteMailWithExpiredCodes(before now: Int64) async throws -> Int {
        try await changedRowCount("DELETE FROM mail_outbox WHERE code_expires_at IS NOT NULL AND code_expires_at <= \(now) RETURNING 1")
    }
}
