import ServiceLifecycle

/// A background service that passes what other instances broadcast to this one's notification
/// hub, until the server shuts down gracefully.
struct InstanceListener: Service, CustomStringConvertible {
    let bus: any InstanceBus
    let hub: NotificationHub
    var description: String { "InstanceListener" }

    func run() async throws {
        let hub = self.hub
        try? await cancelWhenGracefulShutdown {
            try await bus.listen { await hub.receive($0) }
        }
    }
}
