/// ``ReplayStore`` in the SQL both drivers speak: one row of `replay_keys` a key, taken in one
/// statement (concurrent uses of one key on any instances: one wins).
extension ReplayStore where Self: SQLDatabase {
    package func useOnce(_ key: String, until expiry: Int64, now: Int64) async throws -> Bool {
        try await changedRowCount("""
            INSERT INTO replay_keys (key, expires_at) VALUES (\(key), \(expiry))
            ON CONFLICT (key) DO UPDATE SET expires_at = EXCLUDED.expires_at WHERE replay_keys.expires_at <= \(now)
            RETURNING 1
            """) > 0
    }

    package func deleteExpiredReplayKeys(before now: Int64) async throws {
        try await run("DELETE FROM replay_keys WHERE expires_at <= \(now)")
    }
}
