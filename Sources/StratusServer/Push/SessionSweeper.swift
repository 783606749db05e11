import ServiceLifecycle

/// Closes the push connections whose session expired, every
/// ``ServerConfiguration/expiredSessionSweepInterval`` (a minute; signing out closes them at
/// once). One timer for the server, rather than one waiting task per connection.
struct SessionSweeper: Service, CustomStringConvertible {
    let hub: NotificationHub
    let interval: Duration

    var description: String { "SessionSweeper" }

    func run() async throws {
        try? await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                try await Task.sleep(for: interval)
                await hub.endSessions(expiredBefore: AuthService.now())
            }
        }
    }
}
