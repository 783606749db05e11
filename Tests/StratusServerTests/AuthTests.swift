import Foundation
import Testing
import StratusCore
@testable import StratusServer

@Suite struct AuthTests {
    @Test func signUpSignInAndCurrentUser() async throws {
        try await TestServer.with { server in
            let credentials = Credentials(username: "alice", password: "correct horse")
            let signUp = try await server.anonymous.post("/auth/1/\(TestServer.containerID)/development/signup", credentials)
                .decode(SignInResponse.self)
            #expect(signUp.userRecordName.hasPrefix("_") && signUp.userRecordName.count == 33)
            #expect(Data(base64Encoded: signUp.ckWebAuthToken)?.count == 32)

            let signIn = try await server.anonymous.post("/auth/1/\(TestServer.containerID)/development/signin", credentials)
                .decode(SignInResponse.self)
            #expect(signIn.userRecordName == signUp.userRecordName)
            #expect(signIn.ckWebAuthToken != signUp.ckWebAuthToken)

            for database in [DatabaseScope.public, .private] {
                let caller = Caller(server: server.endpoint, webAuthToken: signIn.ckWebAuthToken, userRecordName: nil)
                let current = try await caller.get(caller.path(database, "users/current")).decode(CurrentUserResponse.self)
                #expect(current.userRecordName == signUp.userRecordName)
            }
        }
    }

    @Test func bearerHeaderIsAcceptedToo() async throws {
        try await TestServer.with { server in
            let alice = try await server.signUp("alice")
            let response = try await server.anonymous.send(.GET, alice.path(.private, "users/current"), body: nil,
                                                           headers: [("Authorization", "Bearer \(alice.webAuthToken!)")])
            #expect(try response.decode(CurrentUserResponse.self).userRecordName == alice.userRecordName)
        }
    }

    @Test func wrongPasswordAndTakenUsernameAreRefused() async throws {
        try await TestServer.with { server in
            let path = "/auth/1/\(TestServer.containerID)/development"
            _ = try await server.anonymous.post("\(path)/signup", Credentials(username: "bob", password: "12345678")).decode(SignInResponse.self)
            let again = try await server.anonymous.post("\(path)/signup", Credentials(username: "bob", password: "abcdefgh"))
            #expect(again.status == 409 && again.errorCode == .exists)
            let wrong = try await server.anonymous.post("\(path)/signin", Credentials(username: "bob", password: "wrong-password"))
            #expect(wrong.status == 401 && wrong.errorCode == .authenticationFailed)
            let unknown = try await server.anonymous.post("\(path)/signin", Credentials(username: "nobody", password: "12345678"))
            #expect(unknown.errorCode == .authenticationFailed)
            let short = try await server.anonymous.post("\(path)/signup", Credentials(username: "carol", password: "short"))
            #expect(short.status == 400 && short.errorCode == .badRequest)
        }
    }

    @Test func passwordsAndTokensAreStoredHashed() async throws {
        try await TestServer.with(configure: { $0.passwordHashLog2Cost = 14 }) { server in
            let credentials = Credentials(username: "dave", password: "plain-text-password")
            let signUp = try await server.anonymous.post("/auth/1/\(TestServer.containerID)/development/signup", credentials)
                .decode(SignInResponse.self)
            let storage = server.server.services.storage
            let user = try #require(try await storage.read { try await $0.user(containerID: TestServer.containerID, username: "dave") })
            #expect(user.passwordHash.hasPrefix("scrypt$14$8$1$"))
            #expect(!user.passwordHash.contains(credentials.password))
            let session = try await storage.read { try await $0.session(tokenHash: SecretGenerator.digest(signUp.ckWebAuthToken)) }
            #expect(session?.userRecordName == signUp.userRecordName)
            let raw = try await storage.read { try await $0.session(tokenHash: signUp.ckWebAuthToken) }
            #expect(raw == nil, "the raw token must not be a key of the sessions table")

            let directory = server.server.configuration.dataDirectory
            for file in ["stratus.sqlite", "stratus.sqlite-wal"] {
                let bytes = (try? Data(contentsOf: directory.appendingPathComponent(file))) ?? Data()
                #expect(bytes.range(of: Data(credentials.password.utf8)) == nil, "\(file) holds the password")
                #expect(bytes.range(of: Data(signUp.ckWebAuthToken.utf8)) == nil, "\(file) holds the token")
            }
        }
    }

    @Test func missingBadAndForeignTokens() async throws {
        try await TestServer.with { server in
            let alice = try await server.signUp("alice")
            let path = alice.path(.private, "zones/list")

            let noAPIToken = try await alice.send(.GET, path, body: nil, apiToken: .some(nil))
            #expect(noAPIToken.status == 401 && noAPIToken.errorCode == .authenticationFailed)
            let badAPIToken = try await alice.send(.GET, path, body: nil, apiToken: String(repeating: "0", count: 64))
            #expect(badAPIToken.status == 401 && badAPIToken.errorCode == .authenticationFailed)

            let noUser = try await server.anonymous.get(path)
            #expect(noUser.status == 421 && noUser.errorCode == .authenticationRequired)
            #expect(noUser.error?.redirectURL?.hasPrefix("\(server.endpoint.baseURL)/auth/1/\(TestServer.containerID)/development/web/signin?ckAPIToken=") == true,
                    "\(String(describing: noUser.error?.redirectURL))")

            let badUser = Caller(server: server.endpoint, webAuthToken: "not-a-token", userRecordName: nil)
            let bad = try await badUser.get(path)
            #expect(bad.status == 401 && bad.errorCode == .authenticationFailed)

            var production = alice
            production.environment = "production"
            let otherEnvironment = try await production.get(production.path(.private, "zones/list"))
            #expect(otherEnvironment.errorCode == .authenticationFailed, "a development token is no good in production")
        }
    }

    @Test func expiredTokenIsRefused() async throws {
        try await TestServer.with(configure: { $0.sessionLifetime = .seconds(60) }) { server in
            let alice = try await server.signUp("alice")
            #expect(try await alice.get(alice.path(.private, "zones/list")).status == 200)
            await server.advanceClock(by: .seconds(61))
            let response = try await alice.get(alice.path(.private, "zones/list"))
            #expect(response.status == 401 && response.errorCode == .authenticationFailed)
            #expect(response.error?.reason.contains("expired") == true)
        }
    }

    @Test func signOutRevokesTheToken() async throws {
        try await TestServer.with { server in
            let alice = try await server.signUp("alice")
            let signOut = try await alice.post("/auth/1/\(TestServer.containerID)/development/signout", json: "{}")
            #expect(signOut.status == 200)
            let after = try await alice.get(alice.path(.private, "zones/list"))
            #expect(after.errorCode == .authenticationFailed)
        }
    }
}
