import Foundation
import Testing
import StratusCore
import StratusTesting
@testable import StratusServer

/// Sign in with Apple's refresh tokens and revocation over real HTTP, against a local stand-in of
/// Apple's token and revocation endpoints (``AppleTestIssuer``) that checks the server's client
/// secret and records what it received: the code exchanged at sign-in, the right token revoked
/// after the account is deleted or the Apple ID unlinked (after a restart too, and again until
/// Apple answers), and codes Apple would refuse.
@Suite struct AppleRevocationTests {
    static let auth = AppleSignInTests.auth

    static func signIn(_ server: TestServer, _ apple: AppleTestIssuer, subject: String, code: String?) async throws -> HTTPResult {
        try await server.anonymous.post("\(auth)/apple", AppleSignInRequest(identityToken: try await apple.token(subject: subject), authorizationCode: code))
    }

    /// Waits (up to a minute) until `apple` has answered `count` revocations and the server has
    /// none left to send: the revoker runs on the server's own timer and when nudged.
    static func revocations(_ apple: AppleTestIssuer, answered count: Int, server: TestServer) async throws -> [AppleTestIssuer.Revocation] {
        for _ in 0..<600 {
            let answered = apple.revocations.filter(\.answered)
            if answered.count >= count, try await pendingRevocations(server) == 0 { return answered }
            await server.server.runDueMaintenance()
            try await Task.sleep(for: .milliseconds(100))
        }
        Issue.record("Apple received \(apple.revocations.count) revocations, \(apple.revocations.filter(\.answered).count) answered")
        return apple.revocations.filter(\.answered)
    }

    static func pendingRevocations(_ server: TestServer) async throws -> Int {
        try await server.server.services.storage.read { try await $0.pendingAppleRevocationCount() }
    }

    @Test func theCodeIsExchangedAndTheTokenRevokedWhenTheAccountIsDeleted() async throws {
        try await AppleSignInTests.withServer { server, apple in
            let code = apple.authorizationCode(for: "010.dana")
            let answer = try await Self.signIn(server, apple, subject: "010.dana", code: code)
            #expect(answer.status == 200, "\(answer.text)")
            let exchange = try #require(apple.exchanges.first)
            #expect(apple.exchanges.count == 1 && exchange.code == code && exchange.clientID == apple.clientID && exchange.secretIsValid)
            let refreshToken = try #require(exchange.refreshToken)

            // Kept sealed, never as Apple gave it.
            let user = try AppleSignInTests.caller(server, answer)
            let stored = try #require(try await server.server.services.storage.read { try await $0.user(recordName: user.userRecordName!) })
            let kept = try #require(stored.apple?.refreshToken)
            #expect(kept.clientID == apple.clientID && !kept.sealedToken.contains(refreshToken))

            // A later sign-in without a code keeps it.
            _ = try await AppleSignInTests.signIn(server, try await apple.token(subject: "010.dana"))
            #expect(try await server.server.services.storage.read { try await $0.user(recordName: user.userRecordName!) }?.apple?.refreshToken == kept)

            #expect(apple.revocations.isEmpty)
            let deleted = try await user.post("\(Self.auth)/account/delete", ["identityToken": try await apple.token(subject: "010.dana")])
            #expect(deleted.status == 200, "\(deleted.text)")
            let revoked = try await Self.revocations(apple, answered: 1, server: server)
            #expect(revoked.count == 1 && revoked.first?.token == refreshToken && revoked.first?.clientID == apple.clientID)
            #expect(revoked.first?.tokenTypeHint == "refresh_token" && revoked.first?.secretIsValid == true)
            #expect(try await Self.pendingRevocations(server) == 0)
        }
    }

    /// The revocation is written with the deletion: a server stopped before it reached Apple sends
    /// it after its restart, and one Apple does not answer is tried again until Apple does.
    @Test func aRevocationOutlivesARestartAndIsTriedAgainUntilAppleAnswers() async throws {
        try await AppleTestIssuer.with { apple in
            let directory = TestServer.temporaryDirectory()
            let user: Caller = try await TestServer.with(dataDirectory: directory, configure: apple.configure) { server in
                let answer = try await Self.signIn(server, apple, subject: "011.erin", code: apple.authorizationCode(for: "011.erin"))
                return try AppleSignInTests.caller(server, answer)
            }
            let refreshToken = try #require(apple.exchanges.first?.refreshToken)
            apple.failRevocations(2)
            try await TestServer.with(dataDirectory: directory, configure: apple.configure) { server in
                let session = Caller(server: server.endpoint, webAuthToken: user.webAuthToken, userRecordName: user.userRecordName)
                let deleted = try await session.post("\(Self.auth)/account/delete", ["identityToken": try await apple.token(subject: "011.erin")])
                #expect(deleted.status == 200, "the deletion does not wait for Apple: \(deleted.text)")
                // Tried, refused (503) and rescheduled; stop before it is tried a third time.
                let deadline = ContinuousClock.now + .seconds(30)
                while apple.revocations.isEmpty, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(50)) }
                #expect(try await Self.pendingRevocations(server) == 1)
            }
            try await TestServer.with(dataDirectory: directory, configure: apple.configure) { server in
                let revoked = try await Self.revocations(apple, answered: 1, server: server)
                #expect(revoked.map(\.token) == [refreshToken], "the right token, opened after two restarts")
                #expect(apple.revocations.count == 3, "two refused tries, then the one Apple answered")
                #expect(try await Self.pendingRevocations(server) == 0)
            }
        }
    }

    @Test func unlinkingTheAppleIDRevokesItsToken() async throws {
        try await AppleSignInTests.withServer { server, apple in
            let user = try await server.signUp("frank")
            #expect(try await user.post("\(Self.auth)/account/reauthenticate", ["password": "password-frank"]).status == 200)
            let code = apple.authorizationCode(for: "012.frank")
            let linked = try await user.post("\(Self.auth)/apple/link",
                                             AppleSignInRequest(identityToken: try await apple.token(subject: "012.frank"), authorizationCode: code))
            #expect(linked.status == 200, "\(linked.text)")
            let refreshToken = try #require(apple.exchanges.last?.refreshToken)
            #expect(try await user.post("\(Self.auth)/apple/unlink", [String: String]()).status == 200)
            #expect(try await Self.revocations(apple, answered: 1, server: server).map(\.token) == [refreshToken])
        }
    }

    @Test func codesAppleRefusesRefuseTheSignIn() async throws {
        try await AppleSignInTests.withServer { server, apple in
            let unknown = try await Self.signIn(server, apple, subject: "013.gail", code: "c-made-up.0.apple")
            AppleSignInTests.expectRefused(unknown, "invalid_grant")

            let bobsCode = apple.authorizationCode(for: "014.bob")
            AppleSignInTests.expectRefused(try await Self.signIn(server, apple, subject: "013.gail", code: bobsCode),
                                           "not for the Apple ID of the identity token")

            let code = apple.authorizationCode(for: "013.gail")
            #expect(try await Self.signIn(server, apple, subject: "013.gail", code: code).status == 200)
            AppleSignInTests.expectRefused(try await Self.signIn(server, apple, subject: "013.gail", code: code), "invalid_grant")

            let long = try await Self.signIn(server, apple, subject: "013.gail", code: String(repeating: "c", count: AppleTokenEndpoint.maxCodeBytes + 1))
            #expect(long.status == 400 && long.errorCode == .badRequest, "\(long.text)")
            let exchanges = apple.exchanges
            #expect(exchanges.count == 4 && exchanges.allSatisfy(\.secretIsValid))
        }
    }

    /// Without the operator's key, a code is not exchanged (there is nothing to sign the client
    /// secret with) and the sign-in goes on.
    @Test func withoutTheKeyCodesAreNotExchanged() async throws {
        try await AppleTestIssuer.with { apple in
            @Sendable func withoutKey(_ configuration: inout ServerConfiguration) {
                apple.configure(&configuration)
                configuration.appleSignIn.clientSecretKey = nil
            }
            try await TestServer.with(configure: withoutKey) { server in
                let code = apple.authorizationCode(for: "015.hal")
                let answer = try await Self.signIn(server, apple, subject: "015.hal", code: code)
                #expect(answer.status == 200, "\(answer.text)")
                #expect(apple.exchanges.isEmpty)
            }
        }
    }
}
