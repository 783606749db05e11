import Synchronization
import StratusCore

/// A bound on how many run at once: past `limit` in all, or `limitPerKey` for one key (a client
/// address), a newcomer is turned away with `THROTTLED` rather than queued.
final class Occupancy: Sendable {
    let limit: Int
    let limitPerKey: Int
    private struct Counts {
        var total = 0
        /// Only keys running now: an entry goes when its count is back to zero.
        var byKey: [String: Int] = [:]
    }

    private let counts = Mutex(Counts())

    init(limit: Int, limitPerKey: Int = .max) {
        self.limit = limit
        self.limitPerKey = limitPerKey
    }

    /// Runs `body` as one of at most `limit`, and of at most `limitPerKey` for `key`; throws
    /// `THROTTLED` (saying `busy`, or `busyKey` for the key) when full.
    func run<T>(key: String = "", shedding busy: @autoclosure () -> String, sheddingKey busyKey: @autoclosure () -> String = "",
                _ body: () async throws -> T) async throws -> T {
        let refused = counts.withLock { counts -> Bool? in
            guard counts.total < limit else { return false }
            guard counts.byKey[key, default: 0] < limitPerKey else { return true }
            counts.total += 1
            counts.byKey[key, default: 0] += 1
            return nil
        }
        if let byKey = refused {
            throw CloudKitError(.throttled, "\(byKey ? busyKey() : busy()); retry after the delay", retryAfter: 1)
        }
        defer {
            counts.withLock { counts in
                counts.total -= 1
                counts.byKey[key, default: 1] -= 1
                if counts.byKey[key] == 0 { counts.byKey[key] = nil }
            }
        }
        return try await body()
    }
}
