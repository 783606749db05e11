import Synchronization

/// A clock whose time moves only when something sleeps on it: a sleep returns at once, having
/// advanced the clock to its deadline. Give it to sync engines (`SyncEngine.Configuration.clock`)
/// and their send delays, backoff and `retryAfter` waits cost no real time, while ``elapsed`` still
/// adds them up — how a simulation runs hours of retries in seconds.
public final class SimulatedClock: Clock, Sendable {
    /// A moment of simulated time: how long after the clock's start.
    public struct Instant: InstantProtocol {
        /// The time since the clock was made.
        public var offset: Duration

        /// The instant `duration` later.
        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        /// The time from this instant to `other`.
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private let current = Mutex(Instant(offset: .zero))

    /// A clock at its start, with nothing elapsed.
    public init() {}

    /// The current simulated time.
    public var now: Instant { current.withLock { $0 } }
    /// Simulated time has no resolution limit.
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
