import Foundation
import Synchronization
import StratusCore

/// Stratus's one rate limiter: token buckets by key (an account, a client address, a user).
///
/// A bucket holds up to ``RateRule/burst`` tokens and refills at ``RateRule/perSecond``. Taking a token
/// from an empty bucket is refused with CloudKit's `THROTTLED` and a `retryAfter` of the seconds
/// until a token is back, which the sync engine honours. Memory is bounded whatever keys arrive:
/// a key longer than ``maxKeyBytes`` is kept as its SHA-256, and past ``maxKeys`` buckets the ones
/// closest to full (the least recently used, which carry the least information) are dropped.
///
/// With other instances on the store, the buckets that guard accounts and addresses are shared
/// (``acquireAcrossInstances(_:_:what:)``, kept in ``FleetCounters``), so N instances do not let
/// N times the password guesses through; a user's request rate is counted by each instance.
package final class RateLimiter: Sendable {
    private struct Bucket {
        var tokens: Double
        var updated: Double
    }

    private let buckets = Mutex<[String: Bucket]>([:])
    /// What buckets refill by.
    private let clock: ServerClock
    let maxKeys: Int
    private let fleet: (any FleetCounters)?

    /// - parameter clock: the server's clock; tests move it to refill buckets.
    /// - parameter fleet: the buckets shared with other instances, if any.
    package init(maxKeys: Int = 100_000, clock: ServerClock, fleet: (any FleetCounters)? = nil) {
        self.maxKeys = maxKeys
        self.clock = clock
        self.fleet = fleet
    }

    /// Takes one token for `key` from the bucket every instance of the store shares (from this
    /// process's when there are no others), or throws `THROTTLED` when it is empty.
    package func acquireAcrossInstances(_ key: String, _ rule: RateRule, what: @autoclosure () -> String) async throws(CloudKitError) {
        if let wait = try await takeAcrossInstances(key, rule) { throw Self.throttled(what(), wait: wait) }
    }

    /// Takes one token for `key` from the shared bucket as ``acquireAcrossInstances(_:_:what:)``
    /// does: nil once taken, else the seconds until one is back (nothing taken).
    package func takeAcrossInstances(_ key: String, _ rule: RateRule) async throws(CloudKitError) -> Double? {
        let key = Self.bounded(key)
        guard let fleet else { return take(key, rule) }
        do {
            return try await fleet.take(key, rule, now: clock.milliseconds)
        } catch {
            throw CloudKitError(.tryAgainLater, "the server could not count this request; try again", retryAfter: 1)
        }
    }

    /// Gives back a token taken with ``acquireAcrossInstances(_:_:what:)`` or ``takeAcrossInstances(_:_:)``.
    package func refundAcrossInstances(_ key: String, _ rule: RateRule) async {
        let key = Self.bounded(key)
        guard let fleet else { return refund(key, rule) }
        try? await fleet.refund(key, rule)
    }

    /// Takes one token for `key`, or throws `THROTTLED` when the bucket is empty.
    package func acquire(_ key: String, _ rule: RateRule, what: @autoclosure () -> String) throws(CloudKitError) {
        if let wait = take(key, rule) { throw Self.throttled(what(), wait: wait) }
    }

    /// Gives back a token taken with ``acquire(_:_:what:)`` (the attempt it paid for succeeded).
    package func refund(_ key: String, _ rule: RateRule) {
        guard rule.burst.isFinite else { return }
        let key = Self.bounded(key)
        buckets.withLock { buckets in
            if var bucket = buckets[key] {
                bucket.tokens = min(rule.burst, bucket.tokens + 1)
                buckets[key] = bucket
            }
        }
    }

    /// Seconds to wait when the bucket is empty, else nil (and a token taken).
    private func take(_ key: String, _ rule: RateRule) -> Double? {
        guard rule.burst.isFinite else { return nil }
        let key = Self.bounded(key)
        let time = clock.seconds
        return buckets.withLock { buckets in
            var bucket = buckets[key] ?? Bucket(tokens: rule.burst, updated: time)
            // A clock set back refills nothing.
            bucket.tokens = min(rule.burst, bucket.tokens + max(0, time - bucket.updated) * rule.perSecond)
            bucket.updated = max(bucket.updated, time)
            guard bucket.tokens >= 1 else {
                buckets[key] = bucket
                return (1 - bucket.tokens) / max(rule.perSecond, 1e-9)
            }
            bucket.tokens -= 1
            if buckets[key] == nil && buckets.count >= maxKeys { Self.prune(&buckets, keeping: maxKeys * 3 / 4, now: time, rule: rule) }
            buckets[key] = bucket
            return nil
        }
    }

    /// Drops the buckets closest to full until `keeping` remain.
    private static func prune(_ buckets: inout [String: Bucket], keeping: Int, now: Double, rule: RateRule) {
        let fullness = buckets.mapValues { $0.tokens + (now - $0.updated) * rule.perSecond }
        for (key, _) in fullness.sorted(by: { $0.value > $1.value }).prefix(max(0, buckets.count - keeping)) {
            buckets[key] = nil
        }
    }

    /// The longest key kept as it is; longer ones are kept as their SHA-256 (64 bytes).
    static let maxKeyBytes = 128

    private static func bounded(_ key: String) -> String {
        key.utf8.count <= maxKeyBytes ? key : "sha256:" + SecretGenerator.digest(key)
    }

    /// Keys with a bucket now, and their bytes (for tests of the memory bound).
    package var keyCount: Int { buckets.withLock { $0.count } }
    package var keyBytes: Int { buckets.withLock { $0.keys.reduce(0) { $0 + $1.utf8.count } } }

    /// `THROTTLED` for too many `what`, with the seconds to wait as `retryAfter`.
    package static func throttled(_ what: String, wait: Double) -> CloudKitError {
        CloudKitError(.throttled, "too many \(what); retry after the delay", retryAfter: max(1, Int(wait.rounded(.up))))
    }
}
