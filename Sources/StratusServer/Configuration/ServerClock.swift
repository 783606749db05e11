import Foundation
import Synchronization

/// The server's wall clock: every rule that depends on the time of day reads it here — session,
/// code, token and signed-URL expiry, fresh proof, tombstone and upload retention, mail retries,
/// rate-limit refills, replay windows. Monotonic durations (deadlines, measurements) and the access
/// log's timestamps do not.
///
/// A server uses its configuration's clock (``ServerConfiguration/clock``), the system's time by
/// default. Tests move it forward (``advance(by:)``) instead of waiting; `TestCloud` does so and then
/// runs the maintenance that fell due.
public final class ServerClock: Sendable {
    /// How far the clock has been moved ahead of its start.
    private let offset = Mutex(Duration.zero)
    /// The time (seconds since 1970) a stopped clock started at; nil for the system's time.
    private let stoppedAt: Double?

    /// A clock that reads the system's time, plus however far it has been moved.
    public init() {
        stoppedAt = nil
    }

    /// A clock that stands at `start` and moves only when moved: for tests whose verdict must not
    /// depend on how fast the machine runs.
    public init(stoppedAt start: Date) {
        stoppedAt = start.timeIntervalSince1970
    }

    /// The current time.
    public var date: Date { Date(timeIntervalSince1970: seconds) }

    /// The current time in milliseconds since 1970, as the store keeps times.
    public var milliseconds: Int64 { Int64(seconds * 1000) }

    /// The current time in seconds since 1970.
    public var seconds: Double {
        let (whole, attoseconds) = offset.withLock { $0 }.components
        return (stoppedAt ?? Date().timeIntervalSince1970) + Double(whole) + Double(attoseconds) / 1e18
    }

    /// Moves the clock forward by `duration` (never back).
    public func advance(by duration: Duration) {
        precondition(duration >= .zero, "a server clock only moves forward")
        offset.withLock { $0 += duration }
    }
}
