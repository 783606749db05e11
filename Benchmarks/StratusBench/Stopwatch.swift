import Foundation

/// Measures wall-clock time with the continuous clock.
enum Stopwatch {
    /// Runs `body` and returns the seconds it took.
    static func seconds(_ body: () async throws -> Void) async rethrows -> Double {
        let start = ContinuousClock.now
        try await body()
        let elapsed = (ContinuousClock.now - start).components
        return Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
    }
}

/// Prints a figure for humans and for scripts (`figure NAME VALUE`).
enum Report {
    static func figure(_ name: String, _ value: Double, decimals: Int = 2) {
        print("figure \(name) \(String(format: "%.\(decimals)f", value))")
    }
}

/// The middle value (the upper one of an even count).
func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
