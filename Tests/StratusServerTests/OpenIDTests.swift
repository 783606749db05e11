import AsyncHTTPClient
import Crypto
import Foundation
import NIOHTTP1
import Testing
import StratusCore
import StratusTesting
@testable import StratusServer

/// OpenID Connect and GitHub sign-in over real HTTP, against a provider on a loopback port
/// (``OpenIDTestProvider``; `scripts/check-oidc.sh` runs the flows against PyPI's `nanoidp` and in
/// Chromium): native ID tokens and every check of them, the web flow's state, PKCE and nonce,
/// GitHub's API, accounts found by issuer and subject and never by email, linking with fresh proof.
@Suite struct OpenIDTests {
    static let auth = "/auth/1/\(TestServer.containerID)/development"
    static let app = "https://app.example"

    static func signIn(_ server: TestServer, _ token: String, nonce: String, provider: String = "corp") async throws -> HTTPResult {
        try await server.anonymous.post("\(auth)/oidc/\(provider)", OpenIDSignInRequest(idToken: token, nonce: nonce))
    }

    static func caller(_ server: TestServer, _ answer: HTTPResult) throws -> Caller {
        let signedIn = try answer.decode(SignInResponse.self)
        return Caller(server: server.endpoint, webAuthToken: signedIn.ckWebAuthToken, userRecordName: signedIn.userRecordName)
    }

    /// A browser's GET: its cookies sent, no redirect followed.
    static func browse(_ url: String, cookie: String? = nil) async throws -> HTTPResult {
        var request = HTTPClientRequest(url: url)
        if let cookie { request.headers.add(name: "Cookie", value: cookie) }
        let response = try await ConsoleTests.client.execute(request, timeout: .seconds(30))
        let body = try await response.body.collect(upTo: 1 << 20)
        return HTTPResult(status: Int(response.status.code), body: Data(buffer: body), headers: response.headers)
    }

    /// The `name=value` of the `stratus_oidc` cookie an answer sets.
    static func browserCookie(_ answer: HTTPResult) throws -> String {
        let header = try #require(answer.headers["Set-Cookie"].first { $0.hasPrefix(OpenIDPageRoutes.browserCookie + "=") })
        #expect(header.contains("HttpOnly") && header.contains("SameSite=Lax"), "\(header)")
        return String(header.prefix { $0 != ";" })
    }

    static func query(_ url: String) -> [String: String] {
        Dictionary(URLComponents(string: url)?.queryItems?.map { ($0.name, $0.value ?? "") } ?? [], uniquingKeysWith: { $1 })
    }

    /// A web sign-in from the sign-in page's provider link up to the provider's redirect back:
    /// the callback URL and the browser's cookie.
    static func startWebSignIn(_ server: TestServer, provider: String = "corp") async throws -> (callback: String, cookie: String, authorize: String) {
        let start = try await browse("\(server.endpoint.baseURL)\(auth)/oidc/\(provider)/start?ckAPIToken=\(server.apiToken)&callback="
                                     + Caller.percentEncode(app + "/signed-in"))
        #expect(start.status == 302, "\(start.text)")
        let authorize = try #require(start.headers["Location"].first)
        let cookie = try browserCookie(start)
        let approved = try await browse(authorize)
        #expect(approved.status == 302, "\(approved.text)")
        return (try #require(approved.headers["Location"].first), cookie, authorize)
    }

    @Test func nativeSignInFindsAccountsByIssuerAndSubjectAndSignsUpOnlyWhereAllowed() async throws {
        try await OpenIDTestProvider.with { provider in
            try await TestServer.with(configure: { provider.configure(&$0) }) { server in
                let nonce = UUID().uuidString
                let refused = try await Self.signIn(server, try await provider.idToken(provider.claims(subject: "alice", nonce: nonce)), nonce: nonce)
                #expect(refused.status == 401 && refused.text.contains("no account signs in with this Corp identity"), "\(refused.text)")
            }
            try await TestServer.with(configure: { provider.configure(&$0, signUp: true) }) { server in
                let nonce = UUID().uuidString
                let first = try await Self.signIn(server, try await provider.idToken(provider.claims(subject: "alice", email: "Alice@Example.com", nonce: nonce)),
                                                  nonce: nonce)
                #expect(first.status == 200, "\(first.text)")
                let alice = try Self.caller(server, first)
                let again = try await Self.signIn(server, try await provider.idToken(provider.claims(subject: "alice", nonce: nonce)), nonce: nonce)
                #expect(try again.decode(SignInResponse.self).userRecordName == alice.userRecordName)
                let account = try await alice.get("\(Self.auth)/account").decode(AccountResponse.self)
                #expect(account.methods == ["oidc:corp"] && account.providers.map(\.provider) == ["corp"], "\(account)")
                #expect(account.email == "alice@example.com" && account.emailVerified, "a verified address nobody else has is the account's")
                #expect(try await alice.get(alice.path(.private, "zones/list")).status == 200)
            }
        }
    }

    @Test func everyBadIDTokenIsRefused() async throws {
        try await OpenIDTestProvider.with { provider in
            try await TestServer.with(configure: { provider.configure(&$0, signUp: true) }) { server in
                let nonce = UUID().uuidString
                let now = server.server.configuration.clock.date
                func claims(_ change: (inout OpenIDTestProvider.Claims) -> Void) -> OpenIDTestProvider.Claims {
                    var claims = provider.claims(subject: "mallory", nonce: nonce, now: now)
                    change(&claims)
                    return claims
                }
                let cases: [(String, String, String, String)] = [
                    ("another nonce", try await provider.idToken(claims { _ in }), "not the nonce", "does not carry this nonce"),
                    ("no nonce in the token", try await provider.idToken(claims { $0.nonce = nil }), nonce, "does not carry this nonce"),
                    ("another app's audience", try await provider.idToken(claims { $0.audience = ["someone-else"]; $0.authorizedParty = nil }), nonce,
                     "for another app"),
                    ("an untrusted extra audience", try await provider.idToken(claims { $0.audience = [provider.nativeClientID, "someone-else"] }), nonce,
                     "for another app"),
                    ("another authorized party", try await provider.idToken(claims { $0.authorizedParty = "someone-else" }), nonce, "requested by another app"),
                    ("another issuer", try await provider.idToken(claims { $0.issuer = "https://evil.example" }), nonce, "issued by 'https://evil.example'"),
                    ("expired", try await provider.idToken(claims { $0.expires = now - 600; $0.issuedAt = now - 1200 }), nonce, "has expired"),
                    ("issued in the future", try await provider.idToken(claims { $0.issuedAt = now + 3600 }), nonce, "issued in the future"),
                    ("issued two days ago", try await provider.idToken(claims { $0.issuedAt = now - 2 * 86400; $0.expires = now + 600 }), nonce,
                     "more than a day ago"),
                    ("signed by a key the provider does not publish", try await provider.idToken(claims { _ in }, kid: "key-2"), nonce, "does not publish"),
                    ("HS256 under the client secret", try await provider.macToken(claims { _ in }), nonce, "RS256 or ES256"),
                    ("alg none", try provider.unsignedToken(claims { _ in }), nonce, "RS256 or ES256"),
                    ("not a JWT", "not.a.jwt", nonce, "not a JWT"),
                ]
                for (label, token, sent, reason) in cases {
                    let answer = try await Self.signIn(server, token, nonce: sent)
                    #expect(answer.status == 401 && answer.errorCode == .authenticationFailed && answer.text.contains(reason), "\(label): \(answer.text)")
                }
                // A good token works once.
                let good = try await provider.idToken(claims { _ in })
                #expect(try await Self.signIn(server, good, nonce: nonce).status == 200)
                let replayed = try await Self.signIn(server, good, nonce: nonce)
                #expect(replayed.status == 401 && replayed.text.contains("used already"), "\(replayed.text)")
                // Bounds, and GitHub has no ID token.
                let huge = try await Self.signIn(server, String(repeating: "a", count: 17 * 1024), nonce: nonce)
                #expect(huge.status == 400, "\(huge.text)")
                let noNonce = try await server.anonymous.post("\(Self.auth)/oidc/corp", json: #"{"idToken":"x"}"#)
                #expect(noNonce.status == 400, "\(noNonce.text)")
                let gitHub = try await Self.signIn(server, good, nonce: nonce, provider: "github")
                #expect(gitHub.status == 400 && gitHub.text.contains("gives no ID token"), "\(gitHub.text)")
                let unknown = try await Self.signIn(server, good, nonce: nonce, provider: "nobody")
                #expect(unknown.status == 400, "\(unknown.text)")
            }
        }
    }

    @Test func noAccountIsMergedByEmail() async throws {
        try await OpenIDTestProvider.with { provider in
            try await TestServer.with(configure: { provider.configure(&$0, signUp: true) }) { server in
                let credentials = Credentials(username: "victim-\(UUID().uuidString.prefix(6))", password: "password-victim", email: "victim@example.com")
                let victim = try Self.caller(server, try await server.anonymous.post("\(Self.auth)/signup", credentials))
                let victimName = try #require(victim.userRecordName)
                try await server.server.services.storage.write { try await $0.markEmailVerified(user: victimName) }

                let nonce = UUID().uuidString
                let token = try await provider.idToken(provider.claims(subject: "attacker", email: "victim@example.com", emailVerified: true, nonce: nonce))
                let answer = try await Self.signIn(server, token, nonce: nonce)
                #expect(answer.status == 200, "\(answer.text)")
                let attacker = try Self.caller(server, answer)
                #expect(attacker.userRecordName != victim.userRecordName, "a verified email never signs in to the account that has it")
                let account = try await attacker.get("\(Self.auth)/account").decode(AccountResponse.self)
                #expect(account.email == nil, "an address another account has is not given to the new one: \(account)")

                let unverified = try await provider.idToken(provider.claims(subject: "carol", email: "carol@example.com", emailVerified: false, nonce: nonce))
                let carol = try Self.caller(server, try await Self.signIn(server, unverified, nonce: nonce))
                let carolAccount = try await carol.get("\(Self.auth)/account").decode(AccountResponse.self)
                #expect(carolAccount.email == nil && carolAccount.providers.first?.emailVerified == false, "\(carolAccount)")
            }
        }
    }

    @Test func linkingTakesFreshProofAndAProviderIsProof() async throws {
        try await OpenIDTestProvider.with { provider in
            try await TestServer.with(configure: { provider.configure(&$0) }) { server in
                let alice = try await server.signUp("alice")
                let nonce = UUID().uuidString
                func token(_ subject: String = "alice-at-corp") async throws -> OpenIDSignInRequest {
                    OpenIDSignInRequest(idToken: try await provider.idToken(provider.claims(subject: subject, nonce: nonce)), nonce: nonce)
                }
                await server.advanceClock(by: server.server.configuration.freshProofWindow + .seconds(1))
                let stale = try await alice.post("\(Self.auth)/oidc/corp/link", try await token())
                #expect(stale.status == 421 && stale.error?.methods == ["password"], "\(stale.text)")
                // A provider name the container has not (or none can have) is refused before proof is asked for.
                let unknown = try await alice.post("\(Self.auth)/oidc/nobody/link", try await token())
                #expect(unknown.status == 400, "\(unknown.text)")
                let badName = try await alice.post("\(Self.auth)/account/providers/\(String(repeating: "p", count: 33))/delete", [String: String]())
                #expect(badName.status == 400, "\(badName.text)")
                #expect(try await alice.post("\(Self.auth)/account/reauthenticate", ReauthenticationRequest(password: "password-alice")).status == 200)
                let linked = try await alice.post("\(Self.auth)/oidc/corp/link", try await token())
                #expect(linked.status == 200, "\(linked.text)")
                let account = try await alice.get("\(Self.auth)/account").decode(AccountResponse.self)
                #expect(account.methods == ["password", "oidc:corp"], "\(account)")
                let overview = try await server.server.services.admin.overview(username: try #require(alice.username), containerID: TestServer.containerID,
                                                                               environment: .development)
                #expect(overview.signInMethods == ["password", "corp"], "the console lists it: \(overview.signInMethods)")

                // The identity now signs in to Alice's account, and to no other.
                let signedIn = try await Self.signIn(server, try await token().idToken, nonce: nonce)
                #expect(try signedIn.decode(SignInResponse.self).userRecordName == alice.userRecordName, "\(signedIn.text)")
                let bob = try await server.signUp("bob")
                let taken = try await bob.post("\(Self.auth)/oidc/corp/link", try await token())
                #expect(taken.status == 400 && taken.text.contains("another account"), "\(taken.text)")

                // A fresh ID token of the linked identity is proof; another identity's is not.
                await server.advanceClock(by: server.server.configuration.freshProofWindow + .seconds(1))
                let other = try await token("someone-else")
                let wrong = try await alice.post("\(Self.auth)/account/reauthenticate",
                                                 ReauthenticationRequest(identityToken: other.idToken, nonce: nonce, provider: "corp"))
                #expect(wrong.status == 401, "\(wrong.text)")
                let proof = try await token()
                let proved = try await alice.post("\(Self.auth)/account/reauthenticate",
                                                  ReauthenticationRequest(identityToken: proof.idToken, nonce: nonce, provider: "corp"))
                #expect(proved.status == 200, "\(proved.text)")
                let removed = try await alice.post("\(Self.auth)/account/providers/corp/delete", [String: String]())
                #expect(removed.status == 200, "\(removed.text)")
                #expect(try await alice.get("\(Self.auth)/account").decode(AccountResponse.self).providers.isEmpty)
                let gone = try await Self.signIn(server, try await token().idToken, nonce: nonce)
                #expect(gone.status == 401, "an unlinked identity signs in to nothing: \(gone.text)")
            }
            try await TestServer.with(configure: { provider.configure(&$0, signUp: true) }) { server in
                let nonce = UUID().uuidString
                let only = try Self.caller(server, try await Self.signIn(server, try await provider.idToken(provider.claims(subject: "dora", nonce: nonce)),
                                                                         nonce: nonce))
                let last = try await only.post("\(Self.auth)/account/providers/corp/delete", [String: String]())
                #expect(last.status == 400 && last.text.contains("last way to sign in"), "\(last.text)")
                // Deleting the account forgets the identity: signing in again makes a new account.
                #expect(try await only.post("\(Self.auth)/account/delete", [String: String]()).status == 200)
                let again = try await Self.signIn(server, try await provider.idToken(provider.claims(subject: "dora", nonce: nonce)), nonce: nonce)
                #expect(try again.decode(SignInResponse.self).userRecordName != only.userRecordName)
            }
        }
    }

    @Test func theWebFlowUsesStatePKCEAndNonceOnceInOneBrowser() async throws {
        try await OpenIDTestProvider.with { provider in
            provider.signIn(as: .init(subject: "web-alice", email: "web-alice@example.com"))
            try await TestServer.with(configure: { provider.configure(&$0, signUp: true) }) { server in
                _ = try await server.server.services.admin.addWebOrigin(Self.app, containerID: TestServer.containerID)
                let page = try await Self.browse("\(server.endpoint.baseURL)\(Self.auth)/web/signin?ckAPIToken=\(server.apiToken)&callback="
                                                 + Caller.percentEncode(Self.app + "/signed-in"))
                #expect(page.status == 200 && page.text.contains("Sign in with Corp") && page.text.contains("Sign in with GitHub"), "\(page.text)")

                let (callback, cookie, authorize) = try await Self.startWebSignIn(server)
                let asked = Self.query(authorize)
                #expect(asked["code_challenge_method"] == "S256" && asked["nonce"]?.isEmpty == false && asked["scope"] == "openid email profile")
                #expect(asked["redirect_uri"] == "\(server.endpoint.baseURL)\(Self.auth)/oidc/corp/callback")
                let done = try await Self.browse(callback, cookie: cookie)
                #expect(done.status == 303, "\(done.text)")
                let location = try #require(done.headers["Location"].first)
                #expect(location.hasPrefix(Self.app + "/signed-in?ckWebAuthToken="), "\(location)")
                let token = try #require(Self.query(location)["ckWebAuthToken"])
                let session = Caller(server: server.endpoint, webAuthToken: token)
                let account = try await session.get("\(Self.auth)/account").decode(AccountResponse.self)
                #expect(account.providers.first?.email == "web-alice@example.com", "the userinfo's address: \(account)")

                // The exchange carried the verifier of the challenge, and the client's secret as HTTP Basic.
                let exchange = try #require(provider.exchanges.last)
                let verifier = try #require(exchange["code_verifier"])
                #expect(Base64URL.encode(Data(SHA256.hash(data: Data(verifier.utf8)))) == asked["code_challenge"])
                #expect(exchange["authorization"]?.hasPrefix("Basic ") == true && exchange["redirect_uri"] == asked["redirect_uri"])

                let replayed = try await Self.browse(callback, cookie: cookie)
                #expect(replayed.status == 401 && replayed.text.contains("finished already"), "\(replayed.text)")

                let (elsewhere, _, _) = try await Self.startWebSignIn(server)
                let otherBrowser = try await Self.browse(elsewhere, cookie: "\(OpenIDPageRoutes.browserCookie)=another-browser")
                #expect(otherBrowser.status == 401 && otherBrowser.text.contains("another browser"), "\(otherBrowser.text)")

                let (forged, forgedCookie, _) = try await Self.startWebSignIn(server)
                var parts = URLComponents(string: forged)!
                parts.queryItems = parts.queryItems?.map { $0.name == "state" ? URLQueryItem(name: "state", value: "made-up") : $0 }
                let wrongState = try await Self.browse(parts.string!, cookie: forgedCookie)
                #expect(wrongState.status == 401, "\(wrongState.text)")

                /// A whole sign-in while the provider bends one thing.
                func finished(bending fault: WritableKeyPath<OpenIDTestProvider.Faults, Bool>) async throws -> HTTPResult {
                    var faults = OpenIDTestProvider.Faults()
                    faults[keyPath: fault] = true
                    provider.setFaults(faults)
                    defer { provider.setFaults(.init()) }
                    let (callback, cookie, _) = try await Self.startWebSignIn(server)
                    return try await Self.browse(callback, cookie: cookie)
                }
                let wrongVerifier = try await finished(bending: \.wrongChallenge)
                #expect(wrongVerifier.status == 401 && wrongVerifier.text.contains("refused the code"), "\(wrongVerifier.text)")
                let wrongNonce = try await finished(bending: \.wrongNonce)
                #expect(wrongNonce.status == 401 && wrongNonce.text.contains("nonce"), "\(wrongNonce.text)")
                let refused = try await finished(bending: \.denies)
                #expect(refused.status == 401 && refused.text.contains("access_denied"), "\(refused.text)")

                let (late, lateCookie, _) = try await Self.startWebSignIn(server)
                await server.advanceClock(by: .seconds(11 * 60))
                let expired = try await Self.browse(late, cookie: lateCookie)
                #expect(expired.status == 401 && expired.text.contains("10 minutes"), "\(expired.text)")
            }
        }
    }

    @Test func gitHubSignsInThroughItsAPIsByNumericID() async throws {
        try await OpenIDTestProvider.with { provider in
            provider.signIn(as: .init(subject: "octocat", email: "octo@example.com", emailVerified: true, gitHubID: 583231))
            try await TestServer.with(configure: { provider.configure(&$0, signUp: true) }) { server in
                _ = try await server.server.services.admin.addWebOrigin(Self.app, containerID: TestServer.containerID)
                let (callback, cookie, authorize) = try await Self.startWebSignIn(server, provider: "github")
                #expect(Self.query(authorize)["scope"] == "read:user user:email" && Self.query(authorize)["code_challenge"] != nil)
                let done = try await Self.browse(callback, cookie: cookie)
                #expect(done.status == 303, "\(done.text)")
                let location = try #require(done.headers["Location"].first)
                let token = try #require(Self.query(location)["ckWebAuthToken"])
                let session = Caller(server: server.endpoint, webAuthToken: token)
                let account = try await session.get("\(Self.auth)/account").decode(AccountResponse.self)
                #expect(account.methods == ["oidc:github"] && account.email == "octo@example.com" && account.emailVerified, "\(account)")
                let exchange = try #require(provider.exchanges.last)
                #expect(exchange["client_secret"] == provider.clientSecret && exchange["code_verifier"] != nil && exchange["client_id"] == provider.clientID)

                let identity = try await server.server.services.storage.read { try await $0.openIDIdentities(user: account.userRecordName) }
                #expect(identity.map(\.subject) == ["583231"] && identity.map(\.issuer) == [provider.issuer], "keyed by GitHub's numeric id")

                // The same GitHub account (renamed, another address, unverified) signs in to the same account.
                provider.signIn(as: .init(subject: "octocat-renamed", email: "new@example.com", emailVerified: false, gitHubID: 583231))
                let (again, againCookie, _) = try await Self.startWebSignIn(server, provider: "github")
                let second = try await Self.browse(again, cookie: againCookie)
                let secondLocation = try #require(second.headers["Location"].first)
                let secondToken = try #require(Self.query(secondLocation)["ckWebAuthToken"])
                let same = try await Caller(server: server.endpoint, webAuthToken: secondToken).get("\(Self.auth)/account").decode(AccountResponse.self)
                #expect(same.userRecordName == account.userRecordName)
                #expect(same.providers.first?.email == "octocat-renamed@users.noreply.github.com", "only verified addresses count: \(same)")
            }
        }
    }

    @Test func theAccountPageLinksAProviderWithFreshProof() async throws {
        try await OpenIDTestProvider.with { provider in
            provider.signIn(as: .init(subject: "page-alice"))
            try await TestServer.with(configure: { provider.configure(&$0) }) { server in
                let alice = try await server.signUp("alice")
                let base = "\(server.endpoint.baseURL)\(Self.auth)/web/account"
                let signInPage = try await ConsoleTests.client.execute({
                    var request = HTTPClientRequest(url: base + "?ckAPIToken=\(server.apiToken)")
                    request.method = .GET
                    return request
                }(), timeout: .seconds(30))
                let csrf = try #require(signInPage.headers["Set-Cookie"].first { $0.hasPrefix(SignInPageRoutes.cookieName + "=") }).prefix { $0 != ";" }
                let signedIn = try await SignInPageTests.browse(.POST, base + "?ckAPIToken=\(server.apiToken)",
                                                                form: SignInPageTests.form(["csrf": String(csrf.dropFirst(SignInPageRoutes.cookieName.count + 1)),
                                                                                            "action": "signin", "username": alice.username!,
                                                                                            "password": "password-alice"]),
                                                                cookie: String(csrf.dropFirst(SignInPageRoutes.cookieName.count + 1)))
                #expect(signedIn.status == 303, "\(signedIn.text)")
                let session = try #require(signedIn.headers["Set-Cookie"].first { $0.hasPrefix(AccountPageRoutes.sessionCookie + "=") }).prefix { $0 != ";" }
                let page = try await Self.browse(base + "?ckAPIToken=\(server.apiToken)", cookie: String(session))
                #expect(page.text.contains("Link Corp"), "\(page.text)")

                let start = try await Self.browse(base + "/oidc/corp?purpose=link&ckAPIToken=\(server.apiToken)", cookie: String(session))
                #expect(start.status == 302, "the sign-in on the page is fresh proof: \(start.text)")
                let browser = try Self.browserCookie(start)
                let approved = try await Self.browse(try #require(start.headers["Location"].first))
                let back = try await Self.browse(try #require(approved.headers["Location"].first), cookie: browser)
                #expect(back.status == 303 && back.headers["Location"].first?.contains("/web/account?ckAPIToken=") == true, "\(back.text)")
                let account = try await alice.get("\(Self.auth)/account").decode(AccountResponse.self)
                #expect(account.methods == ["password", "oidc:corp"], "\(account)")

                // Later, linking again takes fresh proof first.
                await server.advanceClock(by: server.server.configuration.freshProofWindow + .seconds(1))
                let stale = try await Self.browse(base + "/oidc/github?purpose=link&ckAPIToken=\(server.apiToken)", cookie: String(session))
                #expect(stale.status == 421, "\(stale.text)")
            }
        }
    }

    @Test func webSignInsAreBoundedAndThrottled() async throws {
        try await OpenIDTestProvider.with { provider in
            try await TestServer.with(configure: {
                provider.configure(&$0)
                $0.signInsPerAddress = RateRule(burst: 2, perSecond: 0.001)
            }) { server in
                _ = try await server.server.services.admin.addWebOrigin(Self.app, containerID: TestServer.containerID)
                let callback = "\(server.endpoint.baseURL)\(Self.auth)/oidc/corp/callback?code=c&state="
                let long = try await Self.browse(callback + String(repeating: "s", count: 300))
                #expect(long.status == 401, "a state over 256 bytes is none: \(long.text)")
                let start = "\(server.endpoint.baseURL)\(Self.auth)/oidc/corp/start?ckAPIToken=\(server.apiToken)&callback=" + Caller.percentEncode(Self.app)
                #expect(try await Self.browse(start).status == 302)
                #expect(try await Self.browse(start).status == 302)
                let third = try await Self.browse(start)
                #expect(third.status == 429 && third.text.contains("sign-ins from this address"), "each start is a sign-in: \(third.text)")
            }
        }
    }

    @Test func unknownKeysAreFetchedAtMostOnceAMinute() async throws {
        try await OpenIDTestProvider.with { provider in
            try await TestServer.with(configure: {
                provider.configure(&$0, signUp: true)
                $0.openID.refetchInterval = .seconds(60)
            }) { server in
                let nonce = UUID().uuidString
                let good = try await Self.signIn(server, try await provider.idToken(provider.claims(subject: "k", nonce: nonce)), nonce: nonce)
                #expect(good.status == 200, "\(good.text)")
                #expect(provider.keyRequests == 1)
                for _ in 0..<3 {
                    let unknown = try await Self.signIn(server, try await provider.idToken(provider.claims(subject: "k", nonce: nonce), kid: "key-9"), nonce: nonce)
                    #expect(unknown.status == 503 && unknown.errorCode == .tryAgainLater && (unknown.error?.retryAfter ?? 0) > 0, "\(unknown.text)")
                }
                #expect(provider.keyRequests == 1, "made-up key IDs cost no fetch within the minute")
            }
        }
    }

    @Test func anUnreachableProviderIsTryAgainLater() async throws {
        try await TestServer.with(configure: {
            $0.openID = OpenIDConfiguration(providersByContainer: [AppleSignInConfiguration.everyContainer: [
                .init(name: "down", kind: .openID(issuer: "http://127.0.0.1:9"), clientIDs: ["x"]),
            ]])
        }) { server in
            let answer = try await Self.signIn(server, "a.b.c", nonce: "n", provider: "down")
            #expect(answer.status == 401, "not a JWT is refused before the provider is asked: \(answer.text)")
            let header = Base64URL.encode(Data(#"{"alg":"RS256","kid":"k"}"#.utf8))
            let token = header + "." + Base64URL.encode(Data(#"{"sub":"x"}"#.utf8)) + ".c2ln"
            let down = try await Self.signIn(server, token, nonce: "n", provider: "down")
            #expect(down.status == 503 && down.errorCode == .tryAgainLater && (down.error?.retryAfter ?? 0) > 0, "\(down.text)")
        }
    }

    @Test func identitiesTravelInArchives() async throws {
        try await OpenIDTestProvider.with { provider in
            let archive = TestServer.temporaryDirectory()
            let nonce = UUID().uuidString
            let userRecordName = try await TestServer.with(configure: { provider.configure(&$0, signUp: true) }) { server in
                let answer = try await Self.signIn(server, try await provider.idToken(provider.claims(subject: "traveller", nonce: nonce)), nonce: nonce)
                _ = try await server.server.services.admin.exportContainer(id: TestServer.containerID, to: archive, includingSecrets: false, includingHistory: false) { _ in }
                return try answer.decode(SignInResponse.self).userRecordName
            }
            #expect(try ArchiveTests.lines(archive).contains(#""kind":"openIDIdentity""#))
            let target = TestServer.temporaryDirectory().appendingPathComponent("new")
            let imported = try await ServerProcess.run(["import", "--data", target.path, "--from", archive.path])
            #expect(imported.status == 0, "\(imported.output)")
            try await TestServer.with(dataDirectory: target, configure: { provider.configure(&$0) }) { server in
                let answer = try await Self.signIn(server, try await provider.idToken(provider.claims(subject: "traveller", nonce: nonce)), nonce: nonce)
                #expect(answer.status == 200 && (try? answer.decode(SignInResponse.self).userRecordName) == userRecordName, "\(answer.text)")
            }
        }
    }
}
