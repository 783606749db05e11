/// The durable outbox of mail (``MailCourier``): a mail is a row written in the transaction of the
/// request that sends it, claimed by one courier at a time with a lease, and deleted once sent.
package protocol MailOutboxStore {
    func enqueueMail(_ mail: StoredMail) async throws
    /// Leases up to `limit` mails due by `now` (their attempt time reached, no live lease) until
    /// `leaseUntil`, oldest first: another courier claims none of them before then.
    func claimMail(now: Int64, leaseUntil: Int64, limit: Int) async throws -> [StoredMail]
    /// Forgets a mail (sent, dropped, or a decoy).
    func deleteMail(id: Int64) async throws
    /// Releases a mail's lease, to be tried again at `nextAttemptAt` (ms), its `attempts`th try failed.
    func rescheduleMail(id: Int64, attempts: Int, nextAttemptAt: Int64) async throws
    /// Deletes the mails holding a code that expired by `now`; returns how many.
    func deleteMailWithExpiredCodes(before now: Int64) async throws -> Int
}
