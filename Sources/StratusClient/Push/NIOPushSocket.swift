#if !canImport(Darwin)
import HummingbirdWSClient
import Logging

/// The push WebSocket on SwiftNIO (Hummingbird's WebSocket client): the default where there is no
/// URLSession WebSocket to use (Linux's FoundationNetworking has none that works on every libcurl).
struct NIOPushSocket: PushSocket {
    func run(url: String, pingInterval: Duration, receive: @escaping @Sendable (String) async -> Bool) async throws {
        var logger = Logger(label: "stratus-push")
        logger.logLevel = .critical
        try await WebSocketClient.connect(url: url, configuration: .init(autoPing: .enabled(timePeriod: pingInterval)), logger: logger) { inbound, outbound, _ in
            for try await message in inbound.messages(maxSize: PushConnection.maximumMessageBytes) {
                guard case .text(let text) = message else { continue }
                if await !receive(text) {
                    try await outbound.close(.normalClosure, reason: nil)
                    return
                }
            }
        }
    }
}
#endif
