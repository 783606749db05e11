import Logging
import PostgresNIO
import StratusServer

/// ``FleetCounters`` in the database every instance uses: a bucket is a row of `rate_buckets`
/// refilled and taken from in one statement (under the row's lock, so concurrent takes on any
/// instances never overdraw it).
package struct PostgresFleetCounters: FleetCounters {
    let client: PostgresClient
    let logger: Logger

    init(storage: PostgresStorage) {
        client = storage.client
        logger = storage.logger
    }

    package func take(_ key: String, _ rule: RateRule, now: Int64) async throws -> Double? {
        guard rule.burst.isFinite else { return nil }
        let (burst, rate) = (rule.burst, rule.perSecond)
        let row = try await client.query("""
            INSERT INTO rate_buckets AS b (key, tokens, updated_at, taken) VALUES (\(key), \(burst - 1), \(now), TRUE)
            ON CONFLICT (key) DO UPDATE SET
                tokens = LEAST(\(burst), b.tokens + GREATEST(0, \(now) - b.updated_at) / 1000.0 * \(rate))
                    - CASE WHEN LEAST(\(burst), b.tokens + GREATEST(0, \(now) - b.updated_at) / 1000.0 * \(rate)) >= 1 THEN 1 ELSE 0 END,
                updated_at = GREATEST(b.updated_at, \(now)),
                taken = LEAST(\(burst), b.tokens + GREATEST(0, \(now) - b.updated_at) / 1000.0 * \(rate)) >= 1
            RETURNING tokens, taken
            """, logger: logger).decode((Double, Bool).self).first { _ in true }
        guard let (tokens, taken) = row else { return nil }
        return taken ? nil : (1 - tokens) / max(rate, 1e-9)
    }

    package func refund(_ key: String, _ rule: RateRule) async throws {
        guard rule.burst.isFinite else { return }
        try await client.query("UPDATE rate_buckets SET tokens = LEAST(\(rule.burst), tokens + 1) WHERE key = \(key)", logger: logger)
    }

    package func purge(now: Int64) async throws {
        try await client.query("DELETE FROM rate_buckets WHERE updated_at < \(now - 3_600_000)", logger: logger)
    }
}
