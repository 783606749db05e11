import AsyncHTTPClient
import Foundation
import HTTPTypes
import HummingbirdWSClient
import Logging
import NIOCore
import NIOWebSocket
import Testing
import StratusCore
import StratusServer

/// Push connections are bounded per user, end with their session, and a refused WebSocket is
/// told why in CloudKit's error dictionary.
@Suite struct PushBoundsTests {
    /// What a WebSocket client saw: the text frames and the close code.
    struct Outcome: Sendable {
        var messages: [String] = []
        var closeCode: WebSocketErrorCode?
    }

    static func webSocketURL(_ caller: Caller, token: String? = nil) -> String {
        let base = caller.server.baseURL.replacingOccurrences(of: "http://", with: "ws://")
        return "\(base)/push/1/\(TestServer.containerID)/development/websocket?ckAPIToken=\(caller.server.apiToken)"
            + "&ckWebAuthToken=\(Caller.percentEncode(token ?? caller.webAuthToken ?? ""))"
    }

    /// Connects and reads until the server closes the socket, or the client stops after `limit`
    /// messages or one containing `marker`; `after` runs once the first message arrived.
    ///
    /// swift-websocket's client loses everything that arrives in the same read as the `101`
    /// response when the server's FIN is part of it: the frames and the end of input both vanish,
    /// and the client would wait forever with its socket in `CLOSE-WAIT` (reproduced with a
    /// server that writes the 101, a frame, a close frame and its FIN at once). A loaded machine
    /// makes that happen to a refusal despite the server's ``PushRoutes/refusalDelay``. The
    /// server always sends a first frame at once (a catch-up notification or a refusal), so a
    /// connection that received nothing within ten seconds is abandoned (cancelling the client
    /// closes its socket) and tried again, and one still open two minutes later fails the test;
    /// neither is waited for once abandoned, so a client that ignores cancellation cannot hang the run.
    static func connect(_ url: String, messages limit: Int = .max, until marker: String? = nil, headers: HTTPFields = [:],
                        after: @escaping @Sendable () async throws -> Void = {}) async throws -> Outcome {
        for attempt in 1...3 {
            let collected = Collected()
            let connection = Task { try await connectOnce(url, messages: limit, until: marker, headers: headers, collected: collected, after: after) }
            if let outcome = try await connection.value(within: .seconds(10)) { return outcome }
            if await collected.messages.isEmpty && attempt < 3 {
                connection.cancel()
                continue
            }
            guard let outcome = try await connection.value(within: .seconds(120)) else {
                connection.cancel()
                throw TestFailure("the push WebSocket was still open after two minutes; it received \(await collected.messages)")
            }
            return outcome
        }
        throw TestFailure("the push WebSocket received nothing in three attempts")
    }

    private static func connectOnce(_ url: String, messages limit: Int, until marker: String?, headers: HTTPFields, collected: Collected,
                                    after: @escaping @Sendable () async throws -> Void) async throws -> Outcome {
        var logger = Logger(label: "push-test")
        logger.logLevel = .critical
        let closeFrame = try await WebSocketClient.connect(url: url, configuration: .init(additionalHeaders: headers),
                                                           logger: logger) { inbound, outbound, _ in
            var count = 0
            for try await message in inbound.messages(maxSize: 1 << 20) {
                var heardMarker = false
                if case .text(let text) = message {
                    await collected.append(text)
                    heardMarker = marker.map(text.contains) ?? false
                    // A refusal: close from this side too, as a client does once it knows why.
                    if (try? JSONDecoder().decode(ErrorDictionary.self, from: Data(text.utf8))) != nil {
                        try await outbound.close(.normalClosure, reason: nil)
                    }
                }
                count += 1
                if count == 1 { try await after() }
                if count >= limit || heardMarker { try await outbound.close(.normalClosure, reason: nil) }
            }
        }
        return Outcome(messages: await collected.messages, closeCode: closeFrame?.closeCode)
    }

    actor Collected {
        var messages: [String] = []
        func append(_ message: String) { messages.append(message) }
    }

    @Test func aRefusedUpgradeAnswersTheErrorDictionary() async throws {
        try await TestServer.with { server in
            let alice = try await server.signUp()
            let outcome = try await Self.connect(Self.webSocketURL(alice, token: "not-a-token"))
            let error = try JSONDecoder().decode(ErrorDictionary.self, from: Data(try #require(outcome.messages.first).utf8))
            #expect(error.serverErrorCode == .authenticationFailed)
            #expect(outcome.closeCode == .unknown(4401))
        }
    }

    @Test func signingOutClosesThePushConnectionsOfThatSession() async throws {
        try await TestServer.with { server in
            let alice = try await server.signUp()
            let outcome = try await Self.connect(Self.webSocketURL(alice)) {
                // The first message (the catch-up notification) arrived: sign out now.
                let response = try await alice.post("/auth/1/\(TestServer.containerID)/development/signout", [String: String]())
                #expect(response.status == 200)
            }
            #expect(outcome.messages.count == 1, "the socket closed after sign-out, with only the catch-up notification")
            let again = try await Self.connect(Self.webSocketURL(alice))
            #expect(again.closeCode == .unknown(4401), "a signed-out token cannot reconnect")
        }
    }

    /// A push connection whose session expires is closed by the server: the sweep of expired
    /// sessions runs once the server's clock passes the expiry (moved here, so no test waits
    /// for it), and the expired session cannot connect again.
    @Test func anExpiredSessionsSocketIsClosed() async throws {
        try await TestServer.with { server in
            let alice = try await server.signUp()
            let lifetime = server.server.configuration.sessionLifetime
            let closed = try await Self.connect(Self.webSocketURL(alice), after: { await server.advanceClock(by: lifetime + .seconds(1)) })
            let only = try #require(closed.messages.count == 1 ? closed.messages.first : nil, "one message, then the close")
            #expect((try? JSONDecoder().decode(ErrorDictionary.self, from: Data(only.utf8))) == nil,
                    "the socket was accepted (a catch-up notification, not a refusal) and closed later")
            let again = try await Self.connect(Self.webSocketURL(alice))
            #expect(again.closeCode == .unknown(4401), "the expired session cannot reconnect")
        }
    }

    /// Push connections are bounded per user and server-wide: past either, the upgrade is refused
    /// with `THROTTLED` and a `retryAfter`.
    @Test func pushConnectionsPerUserAndInAllAreBounded() async throws {
        try await TestServer.with(configure: { $0.maxPushConnectionsPerUser = 2; $0.maxPushConnections = 3 }) { server in
            let alice = try await server.signUp()
            let bob = try await server.signUp("bob")
            let carol = try await server.signUp("carol")
            let url = Self.webSocketURL(alice)
            // Two connections held open (each waits in its first message's handler) while a third tries.
            _ = try await Self.connect(url, messages: 1) {
                _ = try await Self.connect(url, messages: 1) {
                    let refused = try await Self.connect(url)
                    let error = try JSONDecoder().decode(ErrorDictionary.self, from: Data(try #require(refused.messages.first).utf8))
                    #expect(error.serverErrorCode == .throttled && error.retryAfter != nil, "\(error)")
                    #expect(refused.closeCode == .unknown(4429))
                    // Bob's first is the server's third: Carol's is one too many.
                    _ = try await Self.connect(Self.webSocketURL(bob), messages: 1) {
                        let full = try await Self.connect(Self.webSocketURL(carol))
                        let error = try JSONDecoder().decode(ErrorDictionary.self, from: Data(try #require(full.messages.first).utf8))
                        #expect(error.serverErrorCode == .throttled && error.retryAfter != nil, "\(error)")
                    }
                }
            }
            let other = try await Self.connect(Self.webSocketURL(carol), messages: 1)
            #expect(other.messages.count == 1, "connections closed make room again")
        }
    }

    /// A user holds at most `maxCouriersPerUser` couriers on an instance: a new one closes the
    /// oldest. A closed courier's token still opens it again (as on another instance), which in
    /// turn closes the oldest then held; a token that was not sealed by the server opens nothing.
    @Test func couriersPerUserAreBoundedOldestFirst() async throws {
        try await TestServer.with(configure: { $0.maxCouriersPerUser = 2 }) { server in
            let alice = try await server.signUp()
            let listener = NotificationHub.Listener(containerID: TestServer.containerID, environment: .development, user: try #require(alice.userRecordName))
            var urls: [String] = []
            for _ in 0..<3 {
                let response = try await alice.post("/device/1/\(TestServer.containerID)/development/tokens/create", TokenCreateRequest())
                urls.append(try response.decode(TokenCreateResponse.self).webcourierURL)
            }
            #expect(await server.server.services.hub.connectionCount(listener) == 2, "the oldest courier made room for the third")
            for url in [urls[2], urls[0]] {
                let poll = try await HTTPClient.shared.execute(HTTPClientRequest(url: url), timeout: .seconds(10))
                _ = try await poll.body.collect(upTo: 1 << 20)
                #expect(poll.status.code == 200)
            }
            #expect(await server.server.services.hub.connectionCount(listener) == 2, "reopening the oldest closed another")
            var forged = urls[0]
            forged.removeLast(4)
            let refused = try await HTTPClient.shared.execute(HTTPClientRequest(url: forged + "AAAA"), timeout: .seconds(10))
            _ = try await refused.body.collect(upTo: 1 << 20)
            #expect(refused.status.code == 404)
        }
    }
}
