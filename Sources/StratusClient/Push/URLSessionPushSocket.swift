import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The push WebSocket on `URLSessionWebSocketTask`: the default on Apple platforms. It compiles
/// wherever Foundation has URLSession, but only Apple platforms run it: on Linux,
/// FoundationNetworking's WebSockets need a libcurl built with them, which Debian 12's is not, so
/// this project's tests exercise the connection's rules over ``NIOPushSocket`` instead.
struct URLSessionPushSocket: PushSocket {
    func run(url: String, pingInterval: Duration, receive: @escaping @Sendable (String) async -> Bool) async throws {
        guard let address = URL(string: url) else { throw CloudError(.invalidArguments, "not a URL: \(url)") }
        let session = URLSession(configuration: .ephemeral)
        defer { session.invalidateAndCancel() }
        let task = session.webSocketTask(with: address)
        task.maximumMessageSize = PushConnection.maximumMessageBytes
        task.resume()
        try await withTaskCancellationHandler {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await Self.keepAlive(task, every: pingInterval) }
                group.addTask {
                    while true {
                        guard case .string(let text) = try await task.receive() else { continue }
                        if await !receive(text) {
                            task.cancel(with: .normalClosure, reason: nil)
                            return
                        }
                    }
                }
                // The first to end (the socket closed, or a ping went unanswered) ends the other.
                defer { group.cancelAll() }
                try await group.next()
            }
        } onCancel: {
            task.cancel(with: .goingAway, reason: nil)
        }
    }

    /// Pings every `interval`; a pong that has not come two intervals later ends the socket.
    private static func keepAlive(_ task: URLSessionWebSocketTask, every interval: Duration) async throws {
        while true {
            try await Task.sleep(for: interval)
            let answered = try await withThrowingTaskGroup(of: Bool.self) { group in
                group.addTask {
                    try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                        task.sendPing { error in
                            if let error { continuation.resume(throwing: error) } else { continuation.resume() }
                        }
                    }
                    return true
                }
                group.addTask {
                    try await Task.sleep(for: interval * 2)
                    return false
                }
                defer { group.cancelAll() }
                return try await group.next() ?? false
            }
            guard answered else {
                task.cancel(with: .goingAway, reason: nil)
                throw CloudError(.networkFailure, "the server left a ping unanswered")
            }
        }
    }
}
