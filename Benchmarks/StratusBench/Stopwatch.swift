import Foundation

/// Measures wall-clock time with the continuous clock.
enum Stopwatch {
    /// Runs `body` and returns the seconds it took.
    static func seconds(_ body: () async throws -> Void) async rethrows -> Double {
        let start = ContinuousClock.now
        try await body()
        return elapsed(since: start)
    }

    /// The seconds since `start`.
    static func elapsed(since start: ContinuousClock.Instant) -> Double {
        seconds(from: start, to: .now)
    }

    /// The seconds from one instant to another.
    static func seconds(from start: ContinuousClock.Instant, to end: ContinuousClock.Instant) -> Double {
        let elapsed = (end - start).components
        return Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
    }
}

/// Prints figures for humans and for scripts (`figure NAME VALUE`).
enum Report {
    static func figure(_ name: String, _ value: Double, decimals: Int = 2) {
        print("figure \(name) \(String(format: "%.\(decimals)f", value))")
    }

    /// A ratio and the two absolute figures it divides (each printed with ``figure(_:_:decimals:)``
    /// elsewhere): `figure NAME VALUE`, then `ratio NAME NUMERATOR DENOMINATOR`, which
    /// `scripts/bench.sh` uses to show both sides beside the ratio. The ratio is the median of the
    /// repetitions' own ratios, so it need not equal the quotient of the two medians.
    static func ratio(_ name: String, _ value: Double, of numerator: String, to denominator: String) {
        figure(name, value)
        print("ratio \(name) \(numerator) \(denominator)")
    }
}

/// The middle value (the upper one of an even count).
func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
