import Foundation
import Testing
import StratusCore
import StratusTesting
@testable import StratusServer

/// Changing how an account signs in takes fresh proof, recorded on the session that made it, and
/// the account centre lists and ends sessions, over real HTTP. Sessions are made stale by moving
/// the server's clock past the window, so no test waits for it to pass.
@Suite struct FreshProofTests {
    static let auth = "/auth/1/\(TestServer.containerID)/development"

    /// Makes every session's proof stale: the server's clock moves past the fresh-proof window.
    static func makeStale(_ server: TestServer) async {
        await server.advanceClock(by: server.server.configuration.freshProofWindow + .seconds(1))
    }

    static func expectFreshProofRequired(_ answer: HTTPResult, methods: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(answer.status == 421 && answer.errorCode == .authenticationRequired, "\(answer.text)", sourceLocation: sourceLocation)
        #expect(answer.error?.reason.hasPrefix("fresh proof required") == true, "\(answer.text)", sourceLocation: sourceLocation)
        #expect(answer.error?.methods == methods, "\(answer.text)", sourceLocation: sourceLocation)
    }

    static func caller(_ server: TestServer, _ answer: HTTPResult) throws -> Caller {
        let signedIn = try answer.decode(SignInResponse.self)
        return Caller(server: server.endpoint, webAuthToken: signedIn.ckWebAuthToken, userRecordName: signedIn.userRecordName)
    }

    /// A session whose proof went stale changes no sign-in method; re-authenticating renews the
    /// proof for that session alone.
    @Test func aStaleSessionChangesNoSignInMethodUntilItProvesItselfAgain() async throws {
        try await AppleTestIssuer.with { apple in
            try await TestServer.with(configure: apple.configure) { server in
                let alice = try await server.signUp("alice")
                let name = try #require(alice.username)
                let other = try Self.caller(server, try await server.anonymous.post("\(Self.auth)/signin", Credentials(username: name, password: "password-alice")))
                await Self.makeStale(server)

                Self.expectFreshProofRequired(try await alice.post("\(Self.auth)/apple/link", AppleSignInRequest(identityToken: try await apple.token(subject: "fp.alice"))),
                                              methods: ["password"])
                Self.expectFreshProofRequired(try await alice.post("\(Self.auth)/password", ["newPassword": "a stolen session's password"]), methods: ["password"])
                Self.expectFreshProofRequired(try await alice.post("\(Self.auth)/account/delete", [String: String]()), methods: ["password"])

                let wrong = try await alice.post("\(Self.auth)/account/reauthenticate", ReauthenticationRequest(password: "not-her-password"))
                #expect(wrong.status == 401 && wrong.errorCode == .authenticationFailed, "\(wrong.text)")
                #expect(try await alice.post("\(Self.auth)/account/reauthenticate", ReauthenticationRequest(password: "password-alice")).status == 200)
                Self.expectFreshProofRequired(try await other.post("\(Self.auth)/apple/link", AppleSignInRequest(identityToken: try await apple.token(subject: "fp.alice"))),
                                              methods: ["password"])
                let linked = try await alice.post("\(Self.auth)/apple/link", AppleSignInRequest(identityToken: try await apple.token(subject: "fp.alice")))
                #expect(linked.status == 200, "the session that proved itself links: \(linked.text)")

                // Unlinking, with fresh proof, ends the account's other sessions.
                #expect(try await alice.post("\(Self.auth)/apple/unlink", [String: String]()).status == 200)
                #expect(try await other.get(other.path(.private, "zones/list")).status == 401, "a removed method ends the other sessions")
                #expect(try await alice.get(alice.path(.private, "zones/list")).status == 200)

                // The current password given with the change is proof too.
                await Self.makeStale(server)
                #expect(try await alice.post("\(Self.auth)/password", ["password": "password-alice", "newPassword": "a new password"]).status == 200)
            }
        }
    }

    /// The takeover the audit found: an account Sign in with Apple made, its session stolen. Past
    /// the window the thief can neither set a password nor link another Apple ID nor delete the
    /// account; the owner, with a fresh token of their Apple ID, can.
    @Test func aStolenSessionOfAnAppleAccountCannotTakeItOver() async throws {
        try await AppleTestIssuer.with { apple in
            try await TestServer.with(configure: apple.configure) { server in
                let owner = try Self.caller(server, try await server.anonymous.post("\(Self.auth)/apple", AppleSignInRequest(identityToken: try await apple.token(subject: "fp.owner"))))
                await Self.makeStale(server)
                Self.expectFreshProofRequired(try await owner.post("\(Self.auth)/password", ["newPassword": "the thief's password"]), methods: ["apple"])
                Self.expectFreshProofRequired(try await owner.post("\(Self.auth)/account/delete", [String: String]()), methods: ["apple"])
                let unlink = try await owner.post("\(Self.auth)/apple/unlink", [String: String]())
                #expect(unlink.errorCode == .authenticationRequired, "\(unlink.text)")

                let someoneElse = try await owner.post("\(Self.auth)/account/reauthenticate",
                                                       ReauthenticationRequest(identityToken: try await apple.token(subject: "fp.thief")))
                #expect(someoneElse.status == 401, "another Apple ID proves nothing: \(someoneElse.text)")
                let proved = try await owner.post("\(Self.auth)/account/reauthenticate", ReauthenticationRequest(identityToken: try await apple.token(subject: "fp.owner")))
                #expect(proved.status == 200, "\(proved.text)")
                #expect(try await owner.post("\(Self.auth)/password", ["newPassword": "the owner's password"]).status == 200)
                // The last method cannot go: with a password set, unlinking leaves one.
                #expect(try await owner.post("\(Self.auth)/apple/unlink", [String: String]()).status == 200)
            }
        }
        try await AppleTestIssuer.with { apple in
            try await TestServer.with(configure: apple.configure) { server in
                let owner = try Self.caller(server, try await server.anonymous.post("\(Self.auth)/apple", AppleSignInRequest(identityToken: try await apple.token(subject: "fp.only"))))
                let last = try await owner.post("\(Self.auth)/apple/unlink", [String: String]())
                #expect(last.errorCode == .badRequest && last.text.contains("no way to sign in"), "the last sign-in method is not removed: \(last.text)")
            }
        }
    }

    /// The account centre lists the account's methods and sessions (device, client address,
    /// created, last use) and signs out one device.
    @Test func theAccountCentreListsSessionsAndSignsOutOneDevice() async throws {
        try await TestServer.with { server in
            let first = try await server.signUp("centre")
            let name = try #require(first.username)
            let signin = try JSONEncoder().encode(Credentials(username: name, password: "password-centre"))
            let phoneAnswer = try await server.anonymous.send(.POST, "\(Self.auth)/signin", body: signin, headers: [("User-Agent", "Notes/2.0 (iPhone; iOS 18.1)")])
            let phone = try Self.caller(server, phoneAnswer)

            let account = try await phone.get("\(Self.auth)/account").decode(AccountResponse.self)
            #expect(account.username == name && account.methods == ["password"] && account.userRecordName == first.userRecordName)
            #expect(account.sessions.count == 2)
            let current = try #require(account.sessions.first { $0.current })
            #expect(current.device == "Notes/2.0 (iPhone; iOS 18.1)" && current.clientAddress == "127.0.0.1" && current.created > 0 && current.lastUsed >= current.created)
            let laptop = try #require(account.sessions.first { !$0.current })

            let stranger = try await server.signUp("stranger")
            #expect(try await stranger.post("\(Self.auth)/account/sessions/\(laptop.id)/signout", [String: String]()).errorCode == .notFound,
                    "another account's session is not found")
            #expect(try await first.get(first.path(.private, "zones/list")).status == 200)
            #expect(try await phone.post("\(Self.auth)/account/sessions/\(laptop.id)/signout", [String: String]()).status == 200)
            #expect(try await first.get(first.path(.private, "zones/list")).status == 401, "that device is signed out")
            #expect(try await phone.get(phone.path(.private, "zones/list")).status == 200)
            #expect(try await phone.get("\(Self.auth)/account").decode(AccountResponse.self).sessions.map(\.id) == [current.id])
            #expect(try await server.anonymous.get("\(Self.auth)/account").errorCode == .authenticationRequired)
        }
    }
}
