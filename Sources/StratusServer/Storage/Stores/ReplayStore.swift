/// What may be used once only, kept in the database until it expires, so that neither a restart
/// nor another instance reopens a replay: Sign in with Apple identity tokens, server-to-server
/// request signatures (and, later, passkey challenges and OpenID states).
package protocol ReplayStore {
    /// Records `key` as used until `expiry` (ms); false when it was used already and has not
    /// expired by `now`.
    func useOnce(_ key: String, until expiry: Int64, now: Int64) async throws -> Bool
    /// Forgets what expired by `now`.
    func deleteExpiredReplayKeys(before now: Int64) async throws
}
