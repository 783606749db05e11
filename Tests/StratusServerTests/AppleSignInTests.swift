import Crypto
import Foundation
import Testing
import StratusCore
import StratusTesting
@testable import StratusServer

/// Sign in with Apple over real HTTP, against a local keys endpoint with test keys
/// (``AppleTestIssuer``): every token a server must refuse, one Apple ID being one user, and
/// linking, unlinking and deleting.
@Suite struct AppleSignInTests {
    static let auth = "/auth/1/\(TestServer.containerID)/development"

    /// A server that accepts the issuer's tokens, and the issuer.
    static func withServer(_ body: @escaping @Sendable (TestServer, AppleTestIssuer) async throws -> Void) async throws {
        try await AppleTestIssuer.with { apple in
            try await TestServer.with(configure: apple.configure) { server in try await body(server, apple) }
        }
    }

    static func signIn(_ server: TestServer, _ token: String, nonce: String? = nil) async throws -> HTTPResult {
        try await server.anonymous.post("\(auth)/apple", AppleSignInRequest(identityToken: token, nonce: nonce))
    }

    /// The account an Apple sign-in answered with, as a caller.
    static func caller(_ server: TestServer, _ answer: HTTPResult) throws -> Caller {
        let signedIn = try answer.decode(SignInResponse.self)
        return Caller(server: server.endpoint, webAuthToken: signedIn.ckWebAuthToken, userRecordName: signedIn.userRecordName)
    }

    /// Expects `AUTHENTICATION_FAILED` whose reason mentions `reason`.
    static func expectRefused(_ answer: HTTPResult, _ reason: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(answer.status == 401 && answer.errorCode == .authenticationFailed, "\(answer.text)", sourceLocation: sourceLocation)
        #expect(answer.error?.reason.contains(reason) == true, "\(answer.text)", sourceLocation: sourceLocation)
    }

    @Test func theSameAppleIDIsOneUserFoundBySubjectNeverByEmail() async throws {
        try await Self.withServer { server, apple in
            let first = try await Self.signIn(server, try await apple.token(subject: "001.alice", email: "x1@privaterelay.appleid.com"))
            #expect(first.status == 200, "\(first.text)")
            let alice = try Self.caller(server, first)
            #expect(try await alice.get(alice.path(.private, "zones/list")).status == 200, "the session works")
            let again = try Self.caller(server, try await Self.signIn(server, try await apple.token(subject: "001.alice")))
            #expect(again.userRecordName == alice.userRecordName && again.webAuthToken != alice.webAuthToken)

            // Another Apple ID with the same email is another user.
            let other = try Self.caller(server, try await Self.signIn(server, try await apple.token(subject: "002.bob", email: "x1@privaterelay.appleid.com")))
            #expect(other.userRecordName != alice.userRecordName)

            // The email is kept as Apple gave it, a later token without one keeps it.
            let stored = try await server.server.services.storage.read { try await $0.user(recordName: alice.userRecordName!) }
            #expect(stored?.apple == StoredAppleIdentity(subject: "001.alice", email: "x1@privaterelay.appleid.com", emailVerified: true))
            #expect(stored?.hasPassword == false && stored?.username.hasPrefix("apple-") == true)
        }
    }

    @Test func tokensAServerMustRefuse() async throws {
        try await Self.withServer { server, apple in
            var expired = apple.claims(subject: "s")
            expired.expires = Date() - 120
            expired.issuedAt = Date() - 720
            Self.expectRefused(try await Self.signIn(server, try await apple.sign(expired)), "not valid")

            var future = apple.claims(subject: "s")
            future.issuedAt = Date() + 600
            Self.expectRefused(try await Self.signIn(server, try await apple.sign(future)), "issued in the future")

            var audience = apple.claims(subject: "s")
            audience.audience = "com.example.other-app"
            Self.expectRefused(try await Self.signIn(server, try await apple.sign(audience)), "for another app")

            var issuer = apple.claims(subject: "s")
            issuer.issuer = "https://appleid.example.com"
            Self.expectRefused(try await Self.signIn(server, try await apple.sign(issuer)), "not issued by Apple")

            // A payload changed after signing: the signature no longer matches.
            let genuine = try await apple.token(subject: "s")
            let parts = genuine.split(separator: ".").map(String.init)
            let forged = try Self.base64URL(JSONSerialization.data(withJSONObject: [
                "iss": "https://appleid.apple.com", "aud": apple.clientID, "sub": "someone-else",
                "iat": Int(Date().timeIntervalSince1970), "exp": Int(Date().timeIntervalSince1970) + 600,
            ]))
            Self.expectRefused(try await Self.signIn(server, [parts[0], forged, parts[2]].joined(separator: ".")), "not valid")

            // Signed by a key Apple does not publish, under the published key's kid.
            try await apple.addKey("forger", publishing: false)
            let header = try Self.base64URL(JSONSerialization.data(withJSONObject: ["alg": "RS256", "kid": "key-1", "typ": "JWT"]))
            let byForger = try await apple.sign(apple.claims(subject: "s"), kid: "forger").split(separator: ".").map(String.init)
            Self.expectRefused(try await Self.signIn(server, [header, byForger[1], byForger[2]].joined(separator: ".")), "not valid")

            // alg none, and HS256 keyed with the public key's published text.
            let payload = parts[1]
            for alg in ["none", "HS256"] {
                let header = try Self.base64URL(JSONSerialization.data(withJSONObject: ["alg": alg, "kid": "key-1", "typ": "JWT"]))
                let signature = alg == "none" ? "" : Self.base64URL(Data(HMAC<SHA256>.authenticationCode(
                    for: Data("\(header).\(payload)".utf8), using: SymmetricKey(data: Data("key-1".utf8)))))
                Self.expectRefused(try await Self.signIn(server, "\(header).\(payload).\(signature)"), "RS256")
            }
            Self.expectRefused(try await Self.signIn(server, "not.a.token"), "not a token from Apple")
            let long = try await Self.signIn(server, String(repeating: "a", count: 10_000))
            #expect(long.errorCode == .badRequest && long.text.contains("8 KB"), "\(long.text)")
            let users = try await server.server.services.storage.read { try await $0.users(containerID: TestServer.containerID, matching: "apple-", limit: 10) }
            #expect(users.isEmpty, "no refused token made an account")
        }
    }

    /// The app hashes a nonce into Apple's request and sends the nonce itself: they must agree,
    /// and a token that carries a nonce is refused without it (it would otherwise replay).
    @Test func theNonceIsTheOneWhoseHashTheTokenCarries() async throws {
        try await Self.withServer { server, apple in
            let token = try await apple.token(subject: "n", nonce: "a-nonce-from-the-app")
            Self.expectRefused(try await Self.signIn(server, token, nonce: "another-nonce"), "nonce")
            Self.expectRefused(try await Self.signIn(server, try await apple.token(subject: "n"), nonce: "a-nonce-from-the-app"), "nonce")
            Self.expectRefused(try await Self.signIn(server, token), "carries a nonce: send the nonce")
            #expect(try await Self.signIn(server, token, nonce: "a-nonce-from-the-app").status == 200)
            #expect(try await Self.signIn(server, try await apple.token(subject: "n")).status == 200,
                    "a token without a nonce is accepted unless the server requires one")
        }
        try await AppleTestIssuer.with { apple in
            try await TestServer.with(configure: { apple.configure(&$0); $0.appleSignIn.requiresNonce = true }) { server in
                Self.expectRefused(try await Self.signIn(server, try await apple.token(subject: "n")), "only identity tokens that carry a nonce")
                #expect(try await Self.signIn(server, try await apple.token(subject: "n", nonce: "x"), nonce: "x").status == 200)
            }
        }
    }

    /// An identity token signs in once: sent again (by whoever lifted it), even after a restart,
    /// it is refused.
    @Test func anIdentityTokenIsAcceptedOnceEvenAcrossARestart() async throws {
        try await AppleTestIssuer.with { apple in
            let directory = TestServer.temporaryDirectory()
            let token = try await apple.token(subject: "once")
            try await TestServer.with(dataDirectory: directory, configure: apple.configure) { server in
                #expect(try await Self.signIn(server, token).status == 200)
                Self.expectRefused(try await Self.signIn(server, token), "used already")
            }
            try await TestServer.with(dataDirectory: directory, configure: apple.configure) { server in
                Self.expectRefused(try await Self.signIn(server, token), "used already")
                #expect(try await Self.signIn(server, try await apple.token(subject: "once")).status == 200, "a new token signs in")
            }
        }
    }

    /// Apple rotates its keys: a token with an unknown kid fetches them again, and the rotated-in
    /// key signs users in at once.
    @Test func aKeyRotatedInIsFetchedWhenATokenNamesIt() async throws {
        try await Self.withServer { server, apple in
            #expect(try await Self.signIn(server, try await apple.token(subject: "r")).status == 200)
            #expect(apple.keyRequests == 1)
            try await apple.addKey("key-2")
            let rotated = try await Self.signIn(server, try await apple.sign(apple.claims(subject: "r"), kid: "key-2"))
            #expect(rotated.status == 200, "the rotated-in key is fetched: \(rotated.text)")
            #expect(apple.keyRequests == 2)
            #expect(try await Self.signIn(server, try await apple.token(subject: "r")).status == 200 && apple.keyRequests == 2, "known keys are cached")
            try await apple.withdrawKey("key-1")
            Self.expectRefused(try await Self.signIn(server, try await apple.sign(apple.claims(subject: "r"), kid: "key-2").replacingKid(with: "key-3")),
                               "a key Apple does not publish")
            #expect(apple.keyRequests == 3)
            Self.expectRefused(try await Self.signIn(server, try await apple.token(subject: "r")), "a key Apple does not publish")
        }
    }

    /// Tokens naming made-up keys cost at most one fetch per interval: the server cannot be made
    /// to hammer Apple. Within the interval such a token answers `TRY_AGAIN_LATER` with the wait
    /// until the next fetch (Apple may have published the key a moment ago), not a refusal.
    @Test func unknownKeysFetchAtMostOncePerInterval() async throws {
        try await AppleTestIssuer.with { apple in
            try await TestServer.with(configure: { apple.configure(&$0); $0.appleSignIn.refetchInterval = .seconds(3600) }) { server in
                #expect(try await Self.signIn(server, try await apple.token(subject: "r")).status == 200)
                try await apple.addKey("just-published")
                for _ in 0..<5 {
                    let answer = try await Self.signIn(server, try await apple.sign(apple.claims(subject: "r"), kid: "just-published"))
                    #expect(answer.errorCode == .tryAgainLater, "\(answer.text)")
                    #expect((3500...3600).contains(answer.error?.retryAfter ?? 0), "the wait until the next fetch: \(answer.text)")
                }
                #expect(apple.keyRequests == 1, "no unknown kid fetched the keys within the interval")
            }
        }
    }

    @Test func aPasswordUserLinksAndUnlinksTheirAppleID() async throws {
        try await Self.withServer { server, apple in
            let alice = try await server.signUp("alice")
            let token = try await apple.token(subject: "003.alice", email: "alice@example.com")
            let linked = try await alice.post("\(Self.auth)/apple/link", AppleSignInRequest(identityToken: token))
            #expect(linked.status == 200, "\(linked.text)")
            let viaApple = try Self.caller(server, try await Self.signIn(server, try await apple.token(subject: "003.alice")))
            #expect(viaApple.userRecordName == alice.userRecordName, "Sign in with Apple reaches the linked account")

            // Someone else's Apple ID, or a second one, cannot be linked.
            let bob = try await server.signUp("bob")
            let taken = try await bob.post("\(Self.auth)/apple/link", AppleSignInRequest(identityToken: try await apple.token(subject: "003.alice")))
            #expect(taken.errorCode == .badRequest && taken.text.contains("another account"), "\(taken.text)")
            let second = try await alice.post("\(Self.auth)/apple/link", AppleSignInRequest(identityToken: try await apple.token(subject: "004.other")))
            #expect(second.errorCode == .badRequest && second.text.contains("unlink it first"), "\(second.text)")
            #expect(try await server.anonymous.post("\(Self.auth)/apple/link", AppleSignInRequest(identityToken: try await apple.token(subject: "003.alice"))).errorCode == .authenticationRequired,
                    "linking needs a session")

            #expect(try await alice.post("\(Self.auth)/apple/unlink", [String: String]()).status == 200)
            let afterUnlink = try Self.caller(server, try await Self.signIn(server, try await apple.token(subject: "003.alice")))
            #expect(afterUnlink.userRecordName != alice.userRecordName, "the Apple ID now makes an account of its own")
        }
    }

    /// An account Sign in with Apple made has no password: it cannot unlink until it sets one, and
    /// confirms its deletion with a fresh token, which forgets the link.
    @Test func anAppleOnlyAccountSetsAPasswordBeforeUnlinkingAndDeletesWithAToken() async throws {
        try await Self.withServer { server, apple in
            let user = try Self.caller(server, try await Self.signIn(server, try await apple.token(subject: "005.carol")))
            let refused = try await user.post("\(Self.auth)/apple/unlink", [String: String]())
            #expect(refused.errorCode == .badRequest && refused.text.contains("set a password"), "\(refused.text)")
            let wrongPassword = try await user.post("\(Self.auth)/account/delete", ["password": ""])
            #expect(wrongPassword.status == 401, "no password confirms a deletion")
            let otherToken = try await user.post("\(Self.auth)/account/delete", ["identityToken": try await apple.token(subject: "006.mallory")])
            #expect(otherToken.status == 401, "another Apple ID's token does not confirm it: \(otherToken.text)")

            #expect(try await user.post("\(Self.auth)/password", ["newPassword": "a new password"]).status == 200,
                    "the first password needs no current one while the sign-in is fresh proof")
            let stored = try #require(try await server.server.services.storage.read { try await $0.user(recordName: user.userRecordName!) })
            #expect(try await AdministrationTests.signIn(server, stored.username, "a new password").status == 200)
            #expect(try await user.post("\(Self.auth)/password", ["password": "wrong", "newPassword": "another password"]).status == 401,
                    "a current password given must be right")

            let deleted = try await user.post("\(Self.auth)/account/delete", ["identityToken": try await apple.token(subject: "005.carol")])
            #expect(deleted.status == 200, "\(deleted.text)")
            let fresh = try Self.caller(server, try await Self.signIn(server, try await apple.token(subject: "005.carol")))
            #expect(fresh.userRecordName != user.userRecordName, "deleting the account forgot the link")
        }
    }

    /// Every sign-in attempt costs exactly one password hash, whatever its name: unknown, an
    /// account Sign in with Apple made (no password), or a password account (wrong or right).
    @Test func everySignInAttemptCostsOneHash() async throws {
        try await Self.withServer { server, apple in
            let appleUser = try Self.caller(server, try await Self.signIn(server, try await apple.token(subject: "hash.apple")))
            let appleName = try #require(try await server.server.services.storage.read { try await $0.user(recordName: appleUser.userRecordName!) }).username
            let passwordUser = try await server.signUp("hashed")
            let hashes = server.server.services.auth.hasher.derivations
            for (username, password) in [("nobody-\(UUID().uuidString.prefix(6))", "whatever-1"), (appleName, "whatever-2"),
                                         (passwordUser.username!, "wrong-password"), (passwordUser.username!, "password-hashed")] {
                let before = hashes.value
                _ = try await server.anonymous.post("\(Self.auth)/signin", Credentials(username: username, password: password))
                #expect(hashes.value - before == 1, "\(username): \(hashes.value - before) hashes")
            }
        }
    }

    @Test func theConsoleShowsAUsersSignInMethods() async throws {
        try await AppleTestIssuer.with { apple in
            let directory = TestServer.temporaryDirectory()
            try await TestServer.with(dataDirectory: directory, configure: apple.configure) { server in
                let (cookie, _) = try await ConsoleTests.administrator(server, directory: directory)
                let alice = try await server.signUp("alice")
                let token = try await apple.token(subject: "007.alice", email: "a1@privaterelay.appleid.com")
                #expect(try await alice.post("\(Self.auth)/apple/link", AppleSignInRequest(identityToken: token)).status == 200)
                let page = try await ConsoleTests.request(server, .GET, "/console/containers/\(TestServer.containerID)/users/\(alice.username!)", cookie: cookie)
                #expect(page.text.contains(#"<span class="method">password</span> <span class="method">Sign in with Apple (a1@privaterelay.appleid.com)</span>"#),
                        "\(page.text)")
            }
        }
    }

    /// Client IDs belong to containers: a token issued to app A signs its Apple ID in to A's
    /// container, never to app B's on the same server.
    @Test func aTokenForOneAppDoesNotSignInToAnotherAppsContainer() async throws {
        let other = "iCloud.test.other-app"
        try await AppleTestIssuer.with { apple in
            try await TestServer.with(configure: { configuration in
                apple.configure(&configuration)
                configuration.appleSignIn.clientIDsByContainer = [TestServer.containerID: ["com.example.a"], other: ["com.example.b"]]
            }) { server in
                let otherToken = try await server.server.ensureContainer(other)
                var forA = apple.claims(subject: "per-app")
                forA.audience = "com.example.a"
                let intoB = try await server.anonymous.send(.POST, "/auth/1/\(other)/development/apple",
                                                            body: try JSONEncoder().encode(AppleSignInRequest(identityToken: try await apple.sign(forA))),
                                                            apiToken: .some(otherToken))
                Self.expectRefused(intoB, "for another app")
                forA.codeHash = UUID().uuidString
                #expect(try await Self.signIn(server, try await apple.sign(forA)).status == 200, "app A's token signs in to A's container")
            }
        }
    }

    @Test func aServerWithoutClientIDsRefusesAppleSignIn() async throws {
        try await AppleTestIssuer.with { apple in
            try await TestServer.with { server in
                let answer = try await Self.signIn(server, try await apple.token(subject: "s"))
                #expect(answer.errorCode == .badRequest && answer.text.contains("--apple-client-id"), "\(answer.text)")
            }
        }
        #expect(!AppleSignInConfiguration.isAcceptableURL("http://appleid.example.com/auth/keys"))
        #expect(AppleSignInConfiguration.isAcceptableURL("https://appleid.apple.com/auth/keys"))
        #expect(AppleSignInConfiguration.isAcceptableURL("http://127.0.0.1:9/auth/keys"))
    }

    static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }
}

extension String {
    /// The token with its header's kid changed (its signature then matches nothing, which the
    /// server never gets to check: it looks the kid up first).
    func replacingKid(with kid: String) throws -> String {
        let parts = split(separator: ".").map(String.init)
        let header = try AppleSignInTests.base64URL(JSONSerialization.data(withJSONObject: ["alg": "RS256", "kid": kid, "typ": "JWT"]))
        return [header, parts[1], parts[2]].joined(separator: ".")
    }
}
