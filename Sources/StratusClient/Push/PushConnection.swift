import Foundation
import StratusCore

/// A device's persistent connection for notifications: a WebSocket to the server's push endpoint
/// that reconnects by itself with backoff. Each notification arrives on ``notifications``; right
/// after every (re)connection the server sends one telling the device to fetch, since it may have
/// missed some while away.
///
/// Notifications are hints: react by fetching changes (StratusSync's `SyncEngine` does), never by trusting
/// their content alone.
///
/// What a message means, when to reconnect and how long to wait are this type's, whatever carries
/// the WebSocket: `URLSessionWebSocketTask` on Apple platforms, SwiftNIO elsewhere.
public actor PushConnection {
    /// The signed-in container whose notifications the connection receives.
    public let container: Container
    /// Every notification, in the order received.
    public nonisolated let notifications: AsyncStream<PushNotification>
    private let sink: AsyncStream<PushNotification>.Continuation
    private let minimumBackoff: Duration
    private let maximumBackoff: Duration
    private let pingInterval: Duration
    private let socket: any PushSocket
    private var runner: Task<Void, Never>?
    /// Whether the WebSocket is open now.
    public private(set) var isConnected = false
    /// How many times a connection was opened.
    public private(set) var connectionCount = 0
    /// Why the server last refused the connection (an expired session, too many connections,
    /// throttling); nil once a connection is accepted.
    public private(set) var lastRefusal: CloudError?

    /// A connection for a signed-in container's notifications; it opens on ``start()``.
    ///
    /// - Parameters:
    ///   - container: the signed-in container whose notifications to receive.
    ///   - minimumBackoff: the first wait before reconnecting; each failed attempt doubles it.
    ///   - maximumBackoff: the longest wait before reconnecting, and the wait after a refusal that
    ///     retrying cannot fix.
    ///   - pingInterval: how often the client pings the server. A connection that stops
    ///     answering (a NAT that dropped it, or a close the WebSocket client failed to notice) ends
    ///     after two intervals without a pong, and the connection is opened again.
    public init(container: Container, minimumBackoff: Duration = .milliseconds(250), maximumBackoff: Duration = .seconds(30),
                pingInterval: Duration = .seconds(20)) {
        self.init(container: container, socket: Self.defaultSocket, minimumBackoff: minimumBackoff, maximumBackoff: maximumBackoff,
                  pingInterval: pingInterval)
    }

    /// A connection over another WebSocket transport.
    package init(container: Container, socket: any PushSocket, minimumBackoff: Duration = .milliseconds(250),
                 maximumBackoff: Duration = .seconds(30), pingInterval: Duration = .seconds(20)) {
        self.container = container
        self.socket = socket
        self.pingInterval = pingInterval
        self.minimumBackoff = minimumBackoff
        self.maximumBackoff = maximumBackoff
        (notifications, sink) = AsyncStream.makeStream(of: PushNotification.self)
    }

    /// The WebSocket transport of this platform: `URLSessionWebSocketTask` on Apple platforms,
    /// SwiftNIO's WebSocket client elsewhere.
    package static var defaultSocket: any PushSocket {
        #if canImport(Darwin)
        URLSessionPushSocket()
        #else
        NIOPushSocket()
        #endif
    }

    /// The largest message the connection takes: 1 MiB.
    static let maximumMessageBytes = 1 << 20

    /// Connects, and keeps reconnecting until ``stop()``.
    public func start() {
        guard runner == nil else { return }
        runner = Task { [weak self] in await self?.run() }
    }

    /// Closes the connection for good and ends ``notifications``.
    public func stop() {
        runner?.cancel()
        runner = nil
        sink.finish()
    }

    private func run() async {
        var backoff = minimumBackoff
        while !Task.isCancelled {
            var wait: Duration?
            do {
                let url = try await Self.webSocketURL(for: container)
                try await socket.run(url: url, pingInterval: pingInterval) { [weak self] text in
                    await self?.received(text) ?? false
                }
                if let refusal = lastRefusal {
                    // Honour the server's delay; a refusal that retrying cannot fix waits the longest.
                    wait = refusal.retryAfter.map { .seconds($0) } ?? (refusal.isTransient ? backoff : maximumBackoff)
                    backoff = min(backoff * 2, maximumBackoff)
                } else {
                    backoff = minimumBackoff
                }
            } catch {
                backoff = min(backoff * 2, maximumBackoff)
            }
            isConnected = false
            try? await Task.sleep(for: wait ?? backoff * Double.random(in: 0.75...1.25))
        }
    }

    /// Takes one message; false closes the socket. The server refuses a connection in CloudKit's
    /// error dictionary; anything else accepts it (it starts with a "fetch to catch up"
    /// notification), and a notification is passed on.
    private func received(_ text: String) -> Bool {
        if let refusal = try? JSONDecoder().decode(ErrorDictionary.self, from: Data(text.utf8)) {
            lastRefusal = CloudError(server: refusal.serverErrorCode, reason: refusal.reason, retryAfter: refusal.retryAfter)
            return false
        }
        if !isConnected { connected() }
        if let notification = try? JSONDecoder().decode(PushNotification.self, from: Data(text.utf8)) { sink.yield(notification) }
        return true
    }

    private func connected() {
        isConnected = true
        lastRefusal = nil
        connectionCount += 1
    }

    /// The push WebSocket's URL for a signed-in container (a Stratus extension endpoint).
    public static func webSocketURL(for container: Container) async throws -> String {
        guard let token = await container.webAuthToken else { throw CloudError(.notAuthenticated, "sign in before connecting for push") }
        let base = container.baseURL.replacingOccurrences(of: "https://", with: "wss://").replacingOccurrences(of: "http://", with: "ws://")
        let encoded = token.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? token
        return "\(base)/push/1/\(container.containerIdentifier)/\(container.environment.rawValue)/websocket"
            + "?ckAPIToken=\(container.apiToken)&ckWebAuthToken=\(encoded)"
    }
}
