import AsyncHTTPClient
import Foundation
import NIOCore
import Testing
import StratusCore
import Synchronization
@testable import StratusServer

/// Nothing the console shows outlives its session or comes from a link: the activity stream ends
/// with the session that opened it, and notes after a change are kept with the session, not in
/// the URL.
@Suite struct ConsoleSessionTests {
    /// Opens the activity stream, runs `end` once the stream's first comment arrived, and reads
    /// the stream to its end; without the session check it would run for its hour, and the test
    /// fails after a minute.
    static func streamEnds(_ server: TestServer, cookie: String, after end: @escaping @Sendable () async throws -> Void) async throws {
        var request = HTTPClientRequest(url: server.endpoint.baseURL + "/console/activity/stream")
        request.headers.add(name: "Cookie", value: "\(ConsoleVisit.cookieName)=\(cookie)")
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(60))
        #expect(response.status == .ok)
        let reading = Task {
            var body = response.body.makeAsyncIterator()
            _ = try await body.next()
            try await end()
            while try await body.next() != nil {}
        }
        guard try await reading.value(within: .seconds(60)) != nil else {
            reading.cancel()
            throw TestFailure("the activity stream was still open a minute after its session ended")
        }
    }

    static func signedIn(_ server: TestServer, _ name: String) async throws -> String {
        try await server.server.services.admin.createAdministrator(username: name, password: "console password")
        return try await server.server.services.admin.signInToConsole(username: name, password: "console password", client: "127.0.0.1")
    }

    @Test func theActivityStreamEndsWithItsSession() async throws {
        try await TestServer.with { server in
            let admin = server.server.services.admin
            let token = try await Self.signedIn(server, "root")
            try await Self.streamEnds(server, cookie: token) { try await admin.signOutOfConsole(token: token) }
            let other = try await Self.signedIn(server, "other")
            try await Self.streamEnds(server, cookie: other) { try await admin.removeAdministrator(username: "other") }
        }
    }

    @Test func noticesComeFromTheSessionNotTheURL() async throws {
        try await TestServer.with { server in
            let token = try await Self.signedIn(server, "root")
            let forged = try await ConsoleTests.request(server, .GET, "/console/containers?message=Call+0800+now", cookie: token)
            #expect(forged.status == 200 && !forged.text.contains("Call 0800 now"), "a link cannot make the console show its text")

            let page = try await ConsoleTests.request(server, .GET, "/console/containers", cookie: token)
            let csrf = try #require(page.text.components(separatedBy: "name=\"csrf\" value=\"").dropFirst().first?.prefix(64))
            let container = "/console/containers/\(TestServer.containerID)"
            let refused = try await ConsoleTests.request(server, .POST, "\(container)/settings/add-key", form: "csrf=\(csrf)&publicKey=not+a+key",
                                                         cookie: token)
            let location = try #require(refused.headers["Location"].first)
            #expect(refused.status == 303 && !location.contains("message"), "\(location)")
            let shown = try await ConsoleTests.request(server, .GET, location, cookie: token)
            #expect(shown.text.contains("<p class=\"message\" role=\"status\">"), "the refusal is shown")
            let again = try await ConsoleTests.request(server, .GET, location, cookie: token)
            #expect(!again.text.contains("<p class=\"message\" role=\"status\">"), "once")
        }
    }

    /// Signing out ends the session's activity streams as it happens, not at the stream's next
    /// check of its session: by the time the sign-out is answered, they have ended.
    @Test func signingOutEndsTheStreamsAtOnce() async throws {
        let directory = TestServer.temporaryDirectory()
        try await TestServer.with(dataDirectory: directory) { server in
            let (cookie, csrf) = try await ConsoleTests.administrator(server, directory: directory)
            let ended = Mutex(false)
            _ = server.server.services.hub.sessionStreams.add(sessionHash: SecretGenerator.digest(cookie)) { ended.withLock { $0 = true } }
            let signedOut = try await ConsoleTests.request(server, .POST, "/console/signout", form: "csrf=\(csrf)", cookie: cookie)
            #expect(signedOut.status == 303)
            #expect(ended.withLock { $0 }, "the stream ended with the sign-out")
        }
    }
}
