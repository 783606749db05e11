/// Measures wall-clock time with the continuous clock.
enum Stopwatch {
    /// Runs `body` and returns the seconds it took.
    static func seconds(_ body: () async throws -> Void) async rethrows -> Double {
        let clock = ContinuousClock()
        let elapsed = try await clock.measure { try await body() }
        let components = elapsed.components
        return Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}

/// Prints a figure for humans and for scripts (`figure NAME VALUE`).
enum Report {
    static func figure(_ name: String, _ value: Double, decimals: Int = 2) {
        print("figure \(name) \(String(format: "%.\(decimals)f", value))")
    }
}
