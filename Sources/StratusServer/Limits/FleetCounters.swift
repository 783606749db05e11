/// What the instances on one store count together, so that running more of them does not
/// multiply a bound: the rate buckets that guard accounts and addresses (password guesses,
/// sign-ups, verification mails), and the server-to-server signatures already accepted.
///
/// A store without other instances (SQLite) has none, and one process counts in memory.
package protocol FleetCounters: Sendable {
    /// Takes one token from the shared bucket of `key`: nil once taken, else the seconds until
    /// one is back. `now` is wall-clock milliseconds (instances share no other clock).
    func take(_ key: String, _ rule: RateRule, now: Int64) async throws -> Double?

    /// Gives a token back to the shared bucket of `key`.
    func refund(_ key: String, _ rule: RateRule) async throws

    /// Records a message (a signature's replay key) as accepted until `expiry` (ms); false when it was accepted already.
    func acceptOnce(_ message: String, until expiry: Int64, now: Int64) async throws -> Bool

    /// Forgets buckets untouched for an hour (all full by then) and messages past their expiry.
    func purge(now: Int64) async throws
}
