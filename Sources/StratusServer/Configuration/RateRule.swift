/// How often one key (an account, a client address, a user) may do one thing: a burst, then a
/// sustained rate. Requests over it are answered `THROTTLED` with `retryAfter`.
public struct RateRule: Sendable, Equatable {
    /// Requests allowed at once, after a quiet period.
    public var burst: Double
    /// Requests allowed per second, sustained.
    public var perSecond: Double

    public init(burst: Double, perSecond: Double) {
        self.burst = burst
        self.perSecond = perSecond
    }

    /// No limit.
    public static let unlimited = RateRule(burst: .infinity, perSecond: .infinity)
}
