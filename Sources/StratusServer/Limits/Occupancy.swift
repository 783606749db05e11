import NIOConcurrencyHelpers
import StratusCore

/// A count of things in progress with a ceiling: work beyond it is shed at once with
/// `THROTTLED` and `retryAfter` 1 instead of waiting without bound.
struct Occupancy: Sendable {
    let limit: Int
    private let count = NIOLockedValueBox(0)

    init(limit: Int) {
        self.limit = limit
    }

    /// Runs `body` as one of at most `limit`; throws `THROTTLED` (saying `busy`) when full.
    func run<T>(shedding busy: @autoclosure () -> String, _ body: () async throws -> T) async throws -> T {
        let admitted = count.withLockedValue { count in
            guard count < limit else { return false }
            count += 1
            return true
        }
        guard admitted else { throw CloudKitError(.throttled, "\(busy()); retry after the delay", retryAfter: 1) }
        defer { count.withLockedValue { $0 -= 1 } }
        return try await body()
    }
}
