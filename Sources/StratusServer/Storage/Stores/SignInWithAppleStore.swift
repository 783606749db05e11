/// What Sign in with Apple keeps beside the user's row: the refresh tokens waiting to be revoked
/// at Apple (``AppleTokenRevoker``), an outbox claimed with a lease as mail is, and the relay
/// addresses Apple said not to mail.
package protocol SignInWithAppleStore {
    /// Queues a refresh token's revocation, written in the transaction that deletes the account or
    /// unlinks the Apple ID.
    func enqueueAppleRevocation(_ revocation: StoredAppleRevocation) async throws
    /// Leases up to `limit` revocations due by `now` until `leaseUntil`, oldest first.
    func claimAppleRevocations(now: Int64, leaseUntil: Int64, limit: Int) async throws -> [StoredAppleRevocation]
    /// Forgets a revocation Apple answered.
    func deleteAppleRevocation(id: Int64) async throws
    /// Releases a revocation's lease, to be tried again at `nextAttemptAt` (ms).
    func rescheduleAppleRevocation(id: Int64, attempts: Int, nextAttemptAt: Int64) async throws
    /// How many revocations wait (for the metrics and the tests).
    func pendingAppleRevocationCount() async throws -> Int
    /// Whether `address` is the relay address of an Apple ID whose user turned forwarding off.
    func isRelayMailDisabled(address: String) async throws -> Bool
}
