import ServiceLifecycle

/// A background service that runs `work` at start and then every `interval`, until the server
/// shuts down gracefully.
struct Periodic: Service, CustomStringConvertible {
    let description: String
    let interval: Duration
    let work: @Sendable () async -> Void

    func run() async throws {
        try? await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                await work()
                try await Task.sleep(for: interval)
            }
        }
    }
}
