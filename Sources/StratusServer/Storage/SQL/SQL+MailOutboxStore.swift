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
        try await claimDue(from: "mail_outbox", returning: "id, recipient, subject, body, decoy, code_expires_at, created_at, attempts, sealed_for",
                           now: now, leaseUntil: leaseUntil, limit: limit).map { row in
            StoredMail(id: try row.int64(0), recipient: try row.string(1), subject: try row.string(2), body: try row.string(3),
                       isDecoy: try row.int64(4) != 0, codeExpiresAt: try row.optionalInt64(5), createdAt: try row.int64(6),
                       sealedFor: try row.optionalString(8), attempts: Int(try row.int64(7)))
        }
    }

    package func deleteMail(id: Int64) async throws {
        try await run("DELETE FROM mail_outbox WHERE id = \(id)")
    }

    package func rescheduleMail(id: Int64, attempts: Int, nextAttemptAt: Int64) async throws {
        try await reschedule(in: "mail_outbox", id: id, attempts: attempts, nextAttemptAt: nextAttemptAt)
    }

    package func deleteMailWithExpiredCodes(before now: Int64) async throws -> Int {
        try await changedRowCount("DELETE FROM mail_outbox WHERE code_expires_at IS NOT NULL AND code_expires_at <= \(now) RETURNING 1")
    }
}

/// The lease both outboxes (mail, Apple's revocations) claim their rows with: a table with `id`,
/// `next_attempt_at`, `attempts` and `lease_until` columns.
extension SQLDatabase {
    /// Leases up to `limit` rows of `table` due by `now` (their attempt time reached, no live
    /// lease) until `leaseUntil`, oldest first, and returns their `columns`. One `UPDATE` that
    /// re-checks the lease on each row it sets, so two claimers never both take a row.
    func claimDue(from table: String, returning columns: String, now: Int64, leaseUntil: Int64, limit: Int) async throws -> [SQLRow] {
        let rows = try await fetch("""
            UPDATE \(unescaped: table) SET lease_until = \(leaseUntil)
            WHERE id IN (SELECT id FROM \(unescaped: table) WHERE next_attempt_at <= \(now) AND lease_until <= \(now) ORDER BY id LIMIT \(limit))
              AND next_attempt_at <= \(now) AND lease_until <= \(now)
            RETURNING \(unescaped: columns)
            """)
        return try rows.map { (try $0.int64(0), $0) }.sorted { $0.0 < $1.0 }.map(\.1)
    }

    /// Releases a row's lease, to be tried again at `nextAttemptAt` (ms), its `attempts`th try failed.
    func reschedule(in table: String, id: Int64, attempts: Int, nextAttemptAt: Int64) async throws {
        try await run("UPDATE \(unescaped: table) SET attempts = \(attempts), next_attempt_at = \(nextAttemptAt), lease_until = 0 WHERE id = \(id)")
    }
}
