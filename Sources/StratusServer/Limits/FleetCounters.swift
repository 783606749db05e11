/// What the instances on one store count together, so that running more of them does not
/// multiply a bound: the rate buckets that guard accounts and addresses (password guesses,
/// sign-ups, verification mails). What may be used once is the database's (``ReplayStore``).
///
/// A store without other instances (SQLite) has none, and one process counts in memory.
package protocol FleetCounters: Sendable {
    /// Takes one token from the shared bucket of `key`: nil once taken, else the seconds until
    /// one is back. `now` is wall-clock milliseconds (instances share no other clock).
    func take(_ key: String, _ rule: RateRule, now: Int64) async throws -> Double?

    /// Gives a token back to the shared bucket of `key`.
    func refund(_ key: String, _ rule: RateRule) async throws

    /// Forgets buckets untouched for an hour (all full by then).
    func purge(now: Int64) async throws
}
