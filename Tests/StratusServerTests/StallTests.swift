import AsyncHTTPClient
import Foundation
import Testing
import StratusCore
import Synchronization
@testable import StratusServer

/// One client cannot stall or exhaust the server: slow bodies, oversized usernames and
/// subscriptions, concurrent polls of one courier (push sockets: ``PushBoundsTests``).
@Suite struct StallTests {
    /// A client that sends a request's head and the first bytes of its body, then nothing more.
    final class SlowSender: Sendable {
        private let socket: Int32
        /// What the server answered so far, and whether it closed the connection.
        private let reading = Mutex((answer: Data(), closed: false))

        init(_ server: TestServer, path: String, body: String, declaredLength: Int, receiveBuffer: Int32? = nil) throws {
            guard let socket = LoopbackSocket.connect(port: server.port, receiveBuffer: receiveBuffer) else { throw TestFailure("could not connect") }
            self.socket = socket
            let head = "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: \(declaredLength)\r\n\r\n"
            let bytes = Array((head + body).utf8)
            guard send(socket, bytes, bytes.count, 0) == bytes.count else { throw TestFailure("could not send") }
            _ = fcntl(socket, F_SETFL, fcntl(socket, F_GETFL) | O_NONBLOCK)
        }

        deinit { close(socket) }

        /// Sends more of the request, or another request on the same connection.
        func transmit(_ text: String) throws {
            let bytes = Array(text.utf8)
            guard send(socket, bytes, bytes.count, 0) == bytes.count else { throw TestFailure("could not send") }
        }

        /// Whether the server closed the connection (seen by ``received()``).
        var closed: Bool { reading.withLock { $0.closed } }

        /// What the server answered so far.
        func received() -> String {
            reading.withLock { reading in
                var buffer = [UInt8](repeating: 0, count: 65536)
                while true {
                    let count = recv(socket, &buffer, buffer.count, 0)
                    if count == 0 { reading.closed = true }
                    guard count > 0 else { break }
                    reading.answer.append(contentsOf: buffer[0..<count])
                }
                return String(decoding: reading.answer, as: UTF8.self)
            }
        }

        /// Waits (at most a minute) until the answer's first bytes are here, without reading them.
        func answerStarted() async throws {
            var byte: UInt8 = 0
            for _ in 0..<600 {
                if recv(socket, &byte, 1, Int32(MSG_PEEK)) == 1 { return }
                try await Task.sleep(for: .milliseconds(100))
            }
            throw TestFailure("no answer began")
        }

        /// Waits (at most a minute) for an answer.
        func answered() async throws -> String {
            for _ in 0..<600 {
                let text = received()
                if text.contains("\r\n\r\n") { return text }
                try await Task.sleep(for: .milliseconds(100))
            }
            throw TestFailure("no answer to a slow body")
        }
    }

    /// Clients that send a query's body a byte at a time hold no work permit: another client's
    /// query is answered while theirs still arrive, and theirs fail with `BAD_REQUEST` at the
    /// body deadline. (The deadline is long so that the query, slow on a machine busy with the
    /// rest of the suite, still comes back before it: the deadline counts from the head's arrival.)
    @Test(.timeLimit(.minutes(5)))
    func slowBodiesHoldNoWorkPermit() async throws {
        try await TestServer.with(configure: { $0.maxLargeRequests = 1; $0.requestBodyDeadline = .seconds(15) }) { server in
            let path = "/database/1/\(TestServer.containerID)/development/public/records/query?ckAPIToken=\(server.apiToken)"
            let slow = try (0..<3).map { _ in try SlowSender(server, path: path, body: "{", declaredLength: 200) }
            // Once the server has them, a well-behaved query.
            try await Task.sleep(for: .milliseconds(500))
            let query = try await server.anonymous.post(server.anonymous.path(.public, "records/query"), RecordsQueryRequest(query: CloudQuery(recordType: "Note")))
            #expect(query.status == 200, "\(query.text)")
            #expect(slow.allSatisfy { $0.received().isEmpty }, "the slow requests are still arriving when the other is answered")
            for sender in slow {
                let answer = try await sender.answered()
                #expect(answer.hasPrefix("HTTP/1.1 400") && answer.contains("BAD_REQUEST") && answer.contains("did not arrive"), "\(answer)")
            }
        }
    }

    /// The body deadline bounds a body still arriving, not the connection: a request whose body
    /// arrived whole leaves its keep-alive connection serving requests past the deadline.
    @Test(.timeLimit(.minutes(5)))
    func aBodyThatArrivedLeavesItsConnectionPastTheDeadline() async throws {
        try await TestServer.with(configure: { $0.requestBodyDeadline = .seconds(1) }) { server in
            let path = "/database/1/\(TestServer.containerID)/development/public/records/query?ckAPIToken=\(server.apiToken)"
            let body = String(decoding: try JSONEncoder().encode(RecordsQueryRequest(query: CloudQuery(recordType: "Note"))), as: UTF8.self)
            let client = try SlowSender(server, path: path, body: body, declaredLength: body.utf8.count)
            #expect(try await client.answered().hasPrefix("HTTP/1.1 200"))
            try await Task.sleep(for: .seconds(2))
            try client.transmit("POST \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
            for _ in 0..<600 where client.received().components(separatedBy: "HTTP/1.1 200").count < 3 && !client.closed {
                try await Task.sleep(for: .milliseconds(100))
            }
            #expect(client.received().components(separatedBy: "HTTP/1.1 200").count == 3, "\(client.received())")
            #expect(!client.closed)
        }
    }

    /// A client that does not read its answer keeps it in the server only until the write
    /// deadline: then the connection is closed, the answer unsent.
    @Test(.timeLimit(.minutes(5)))
    func anUnreadAnswerIsDroppedAtTheWriteDeadline() async throws {
        try await TestServer.with(configure: {
            $0.responseWriteDeadline = .seconds(2)
            $0.maxResponseBytes = 16 * 1024 * 1024
            $0.httpIdleTimeout = .seconds(120)
        }) { server in
            let alice = try await server.signUp("alice")
            let big = String(repeating: "x", count: 900_000)
            for index in 0..<14 { _ = try await alice.save([.create("big\(index)", ["text": .string(big)])]) }
            let lookup = String(decoding: try JSONEncoder().encode(RecordsLookupRequest(records: (0..<14).map { .init(recordName: "big\($0)") })),
                                as: UTF8.self)
            let path = alice.path(.private, "records/lookup") + "?ckAPIToken=\(server.apiToken)&ckWebAuthToken=\(Caller.percentEncode(alice.webAuthToken!))"
            // About 12.6 MB, more than the sockets' buffers hold, which the client leaves unread.
            let reader = try SlowSender(server, path: path, body: lookup, declaredLength: lookup.utf8.count, receiveBuffer: 4096)
            // Once the answer is being written (building it takes a while on a loaded machine),
            // twice the deadline without reading.
            try await reader.answerStarted()
            try await Task.sleep(for: .seconds(4))
            var read = 0
            for _ in 0..<100 where !reader.closed {
                read = reader.received().utf8.count
                try await Task.sleep(for: .milliseconds(50))
            }
            #expect(reader.closed, "the server closed the connection")
            #expect(read < 12_000_000, "the unread answer was dropped: \(read) bytes arrived")
        }
    }

    /// A connection that sends nothing, or never finishes its request head, is closed at the idle
    /// timeout, and does not hold a graceful shutdown (Hummingbird's HTTP handlers bound a
    /// connection only once a head has arrived: ``FirstRequestDeadline`` bounds it before).
    @Test(.timeLimit(.minutes(5)))
    func aSilentConnectionIsClosedAndHoldsNoShutdown() async throws {
        try await TestServer.with(configure: { $0.httpIdleTimeout = .seconds(2) }) { server in
            let silent = try #require(LoopbackSocket.connect(port: server.port))
            let halfHead = try #require(LoopbackSocket.connect(port: server.port))
            defer { close(silent); close(halfHead) }
            let head = Array("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n".utf8)
            #expect(send(halfHead, head, head.count, 0) == head.count)
            #expect(try await Self.closedByServer(silent), "a connection that sent nothing")
            #expect(try await Self.closedByServer(halfHead), "a connection that sent half a head")
            // A whole head gets its answer as before.
            #expect(try await server.anonymous.get("/healthz").status == 200)
        }

        // At the default idle timeout (a minute), stopping the server must not wait for it.
        let opened = Mutex<Int32?>(nil)
        let serving = Task {
            try await TestServer.with { server in
                opened.withLock { $0 = LoopbackSocket.connect(port: server.port) }
                // Long enough for the server to accept it.
                try await Task.sleep(for: .milliseconds(500))
            }
        }
        let stopped = try await serving.value(within: .seconds(30)) != nil
        opened.withLock { socket in socket.map { _ = close($0) } }
        #expect(stopped, "the graceful shutdown waited for a connection that sent nothing")
        try await serving.value
    }

    /// Whether the server closes `socket` within 30 seconds (reading nothing else from it).
    static func closedByServer(_ socket: Int32) async throws -> Bool {
        var byte: UInt8 = 0
        for _ in 0..<300 {
            let count = recv(socket, &byte, 1, Int32(MSG_DONTWAIT))
            if count == 0 || (count < 0 && errno != EAGAIN && errno != EWOULDBLOCK) { return true }
            try await Task.sleep(for: .milliseconds(100))
        }
        return false
    }

    /// The username rule comes first on sign-in (it is a rate limiter's key), and a sign-in body
    /// is small.
    @Test func signInChecksTheUsernameBeforeAnything() async throws {
        try await TestServer.with { server in
            let path = "/auth/1/\(TestServer.containerID)/development/signin"
            let long = try await server.anonymous.post(path, Credentials(username: String(repeating: "u", count: 65), password: "password"))
            #expect(long.errorCode == .badRequest, "\(long.text)")
            let huge = try await server.anonymous.post(path, Credentials(username: String(repeating: "u", count: 64 * 1024), password: "password"))
            #expect(huge.errorCode == .limitExceeded, "\(huge.text)")
            let console = try await server.anonymous.send(.POST, "/console/signin", body: Data("username=\(String(repeating: "u", count: 65))&password=p".utf8))
            #expect(console.text.contains("username must be"), "the console's sign-in too")
        }
    }

    /// Whatever keys arrive, the limiter keeps each in at most 71 bytes.
    @Test func theLimiterBoundsTheMemoryOfItsKeys() throws {
        let limiter = RateLimiter(maxKeys: 1000, clock: ServerClock(stoppedAt: Date(timeIntervalSince1970: 1_000)))
        for index in 0..<2000 {
            try? limiter.acquire(String(repeating: "k", count: 64 * 1024) + "\(index)", RateRule(burst: 1, perSecond: 1), what: "test")
        }
        #expect(limiter.keyCount <= 1000)
        #expect(limiter.keyBytes <= limiter.keyCount * 71, "\(limiter.keyBytes) bytes of keys")
    }

    /// A subscription is at most 16 KB, and a user's subscriptions in a database 1 MB together.
    @Test func subscriptionsAreBoundedInSize() async throws {
        try await TestServer.with { server in
            let alice = try await server.signUp("alice")
            func subscribe(_ id: String, bytes: Int) async throws -> ServerErrorCode? {
                let subscription = CloudSubscription(subscriptionID: id, subscriptionType: .database,
                                                notificationInfo: NotificationInfo(alertBody: String(repeating: "x", count: bytes)))
                let response = try await alice.post(alice.path(.private, "subscriptions/modify"),
                                                    SubscriptionsModifyRequest(operations: [.init(.create, subscription)]))
                return try response.decode(SubscriptionsResponse.self).subscriptions.first?.error?.serverErrorCode
            }
            #expect(try await subscribe("too-big", bytes: 17 * 1024) == .limitExceeded)
            var saved = 0
            while try await subscribe("s\(saved)", bytes: 15 * 1024) == nil { saved += 1 }
            #expect((60...70).contains(saved), "\(saved) subscriptions of 15 KB fit in 1 MB")
            let listed = try await alice.get(alice.path(.private, "subscriptions/list"))
            #expect(listed.body.count <= 1024 * 1024 + 16 * 1024)
        }
    }

    /// Two polls of one courier at once: the newer answers the older at once (empty) and waits in
    /// its place; a notification then goes to the newer.
    @Test(.timeLimit(.minutes(5)))
    func aNewerPollAnswersTheOlder() async throws {
        try await TestServer.with(configure: { $0.courierWait = .seconds(20) }) { server in
            let alice = try await server.signUp("alice")
            try await alice.createZone("Notes")
            _ = try await alice.post(alice.path(.private, "subscriptions/modify"), SubscriptionsModifyRequest(operations: [
                .init(.create, CloudSubscription(subscriptionID: "notes", subscriptionType: .zone, zoneID: ZoneID(zoneName: "Notes"))),
            ]))
            let url = try await alice.post("/database/1/\(TestServer.containerID)/development/tokens/create", TokenCreateRequest())
                .decode(TokenCreateResponse.self).webcourierURL
            _ = try await AuthorizationMatrixTests.drain(url, until: "\"met\"")
            let newerDone = Flag()
            async let older = Self.poll(url)
            try await Task.sleep(for: .milliseconds(300))
            async let newer = { let answer = try await Self.poll(url); await newerDone.set(); return answer }()
            let olderAnswer = try await older
            #expect(olderAnswer.status == 204, "the older poll is answered, empty")
            #expect(await !newerDone.value, "by the newer one, which still waits")
            _ = try await alice.save([.create("n1")], zone: "Notes")
            let newerAnswer = try await newer
            #expect(newerAnswer.status == 200 && newerAnswer.text.contains("\"fet\""), "\(newerAnswer.text)")
        }
    }

    static func poll(_ url: String) async throws -> HTTPResult {
        let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: url), timeout: .seconds(40))
        let body = try await response.body.collect(upTo: 1 << 20)
        return HTTPResult(status: Int(response.status.code), body: Data(buffer: body), headers: response.headers)
    }

    actor Flag {
        var value = false
        func set() { value = true }
    }
}
