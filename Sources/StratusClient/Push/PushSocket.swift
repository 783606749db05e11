/// One WebSocket to the server's push endpoint, as ``PushConnection`` uses it: the transport under
/// the connection's own rules (what a message means, when to reconnect and how long to wait),
/// which are the same whatever carries them. `URLSessionWebSocketTask` carries them on Apple
/// platforms, SwiftNIO's WebSocket client elsewhere (``PushConnection/defaultSocket``).
package protocol PushSocket: Sendable {
    /// Opens a WebSocket to `url` and hands each text message to `receive`, in order, until the
    /// socket closes, the server leaves two `pingInterval`s of pings unanswered, or `receive`
    /// answers false (then the socket is closed normally). Throws when it cannot connect or the
    /// connection fails; returns when the socket closed.
    func run(url: String, pingInterval: Duration, receive: @escaping @Sendable (String) async -> Bool) async throws
}
