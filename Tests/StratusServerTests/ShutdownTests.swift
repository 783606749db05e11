import AsyncHTTPClient
import Foundation
import Testing
import StratusCore
import Synchronization
@testable import StratusServer

/// A server's graceful shutdown ends its long-lived answers (push WebSockets, the console's
/// activity stream) within a bound, whatever their clients do.
@Suite struct ShutdownTests {
    /// A client that upgrades to the push WebSocket and then never reads again: the server's
    /// close frame is never answered. Before the fix, the push handler kept waiting for the
    /// client's side to end, so the server never stopped (a test's `TestServer.with` then hung
    /// until the run's limit).
    @Test func theServerStopsThoughAPushClientNeverAnswersItsClose() async throws {
        let silent = SilentSocket()
        let serving = Task {
            try await TestServer.with { server in
                let alice = try await server.signUp()
                let url = URL(string: PushBoundsTests.webSocketURL(alice))!
                let request = "GET \(url.path)?\(url.query ?? "") HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                    + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
                try await silent.upgrade(port: url.port!, request: request)
            }
        }
        defer { silent.close() }
        // A hang guard, generous: the whole suite runs at once on two cores, and a server's start,
        // sign-up and upgrade have taken over a minute there before its shutdown even began.
        guard try await serving.value(within: .seconds(300)) != nil else {
            throw TestFailure("the server was still stopping five minutes after its work ended: a push client that never answers holds it")
        }
    }

    /// A console page watching the activity: before the fix, the stream ran on for its hour and
    /// held the shutdown.
    @Test func theServerStopsThoughAConsolePageWatchesTheActivity() async throws {
        let serving = Task {
            try await TestServer.with { server in
                let token = try await ConsoleSessionTests.signedIn(server, "root")
                var request = HTTPClientRequest(url: server.endpoint.baseURL + "/console/activity/stream")
                request.headers.add(name: "Cookie", value: "\(ConsoleVisit.cookieName)=\(token)")
                let response = try await HTTPClient.shared.execute(request, timeout: .seconds(60))
                #expect(response.status == .ok)
                var body = response.body.makeAsyncIterator()
                _ = try await body.next()
                // The page stays: the rest of the stream is read after the server is asked to stop.
                Task { while try await body.next() != nil {} }
            }
        }
        guard try await serving.value(within: .seconds(300)) != nil else {
            throw TestFailure("the server was still stopping five minutes after its work ended: the console's activity stream holds it")
        }
    }
}

/// A socket that sends an upgrade request, waits for the `101`, and reads nothing after it.
final class SilentSocket: Sendable {
    private let socket = Mutex<Int32?>(nil)

    func upgrade(port: Int, request: String) async throws {
        guard let socket = LoopbackSocket.connect(port: port) else { throw TestFailure("could not connect") }
        self.socket.withLock { $0 = socket }
        let bytes = Array(request.utf8)
        guard send(socket, bytes, bytes.count, 0) == bytes.count else { throw TestFailure("could not send") }
        _ = fcntl(socket, F_SETFL, fcntl(socket, F_GETFL) | O_NONBLOCK)
        var head = [UInt8](repeating: 0, count: 12)
        for _ in 0..<600 {
            if recv(socket, &head, head.count, Int32(MSG_PEEK)) == head.count {
                guard String(decoding: head, as: UTF8.self).hasPrefix("HTTP/1.1 101") else {
                    throw TestFailure("the upgrade was answered \(String(decoding: head, as: UTF8.self))")
                }
                return
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw TestFailure("the upgrade was not answered")
    }

    func close() {
        if let socket = socket.withLock({ $0.take() }) { Foundation.close(socket) }
    }
}
