import Testing

/// Polls until `condition` holds, recording an issue if it never does within five seconds.
func eventually(_ what: String, _ condition: () async throws -> Bool) async throws {
    for _ in 0..<500 {
        if try await condition() { return }
        try await Task.sleep(for: .milliseconds(10))
    }
    Issue.record("never happened: \(what)")
}
