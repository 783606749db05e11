import Synchronization

/// A clock whose time moves only when something sleeps on it: a sleep returns at once, having
/// advanced the clock to its deadline. Give it to sync engines (``SyncEngine/Configuration/clock``)
/// and their send delays, backoff and `retryAfter` waits cost no real time, while ``elapsed`` still
/// adds them up — how a simulation runs hours of retries in seconds.
public final class SimulatedClock: Clock, Sendable {
    public struct Instant: InstantProtocol {
        /// The time since the clock was made.
        public var offset: Duration

        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private let current = Mutex(Instant(offset: .zero))

    public init() {}

    public var now: Instant { current.withLock { $0 } }
    public var minimumResolution: Duration { .zero }

    /// The simulated time that has passed: the sum of the waits, however short they really were.
    public var elapsed: Duration { now.offset }

    /// Moves the clock to `deadline` (if it is later) and returns after letting other tasks run.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try Task.checkCancellation()
        current.withLock { if $0 < deadline { $0 = deadline } }
        await Task.yield()
    }
}
