import Foundation
import Testing
import StratusCore
@testable import StratusServer

/// Sign-in by a mailed code over real HTTP, with codes mailed through a real SMTP server (aiosmtpd):
/// the same answer for every address, codes to verified addresses only, wrong, reused and spent codes
/// refused, wrong tries throttled, sign-up where allowed, proof for the account centre, and the web
/// sign-in page.
@Suite(.enabled(if: MailSink.isAvailable, "needs the aiosmtpd package (scripts/test.sh installs it)"))
struct EmailCodeSignInTests {
    static let auth = EmailVerificationTests.auth

    static func request(_ server: TestServer, _ email: String) async throws -> HTTPResult {
        try await server.anonymous.post("\(auth)/email/code", ["email": email])
    }

    static func signIn(_ server: TestServer, _ email: String, _ code: String) async throws -> HTTPResult {
        try await server.anonymous.post("\(auth)/email/signin", ["email": email, "code": code])
    }

    @Test func aCodeToAVerifiedAddressSignsInOnce() async throws {
        try await PasswordResetTests.withVerifiedAccount("carla") { server, sink, signedUp, _ in
            _ = try await server.anonymous.post("\(Self.auth)/signup", Credentials(username: "dan", password: "dan password", email: "dan@example.com"))
            for email in ["Carla@Example.com", "nobody@example.com", "dan@example.com"] {
                let asked = try await Self.request(server, email)
                #expect(asked.status == 200 && asked.text == "{}", "\(email): \(asked.text)")
            }
            let codes = try await sink.codes(to: "carla@example.com", atLeast: 2)
            let code = try #require(codes.last)
            #expect(sink.messages(to: "nobody@example.com").isEmpty, "no account, no sign-up: no mail")
            #expect(!sink.messages(to: "dan@example.com").contains { $0.contains("sign-in code") }, "an address only claimed gets no sign-in code")

            let wrong = try await Self.signIn(server, "carla@example.com", code == "000000" ? "111111" : "000000")
            #expect(wrong.status == 401 && wrong.errorCode == .authenticationFailed, "\(wrong.text)")
            let right = try await Self.signIn(server, "CARLA@example.com", code)
            #expect(right.status == 200 && (try? right.decode(SignInResponse.self).userRecordName) == signedUp.userRecordName, "\(right.text)")
            let reused = try await Self.signIn(server, "carla@example.com", code)
            #expect(reused.status == 401, "a code works once: \(reused.text)")
            let unclaimed = try await Self.signIn(server, "dan@example.com", code)
            #expect(unclaimed.status == 401, "\(unclaimed.text)")

            // Five wrong tries spend a code, even for its right value.
            #expect(try await Self.request(server, "carla@example.com").status == 200)
            let fresh = try #require(try await sink.codes(to: "carla@example.com", atLeast: 3).last)
            for guess in 0..<MailedCode.maxAttempts {
                #expect(try await Self.signIn(server, "carla@example.com", String(format: "%06d", guess == Int(fresh) ? 999_999 - guess : guess)).status == 401)
            }
            #expect(try await Self.signIn(server, "carla@example.com", fresh).status == 401, "its tries are spent")
        }
    }

    @Test func wrongCodesAreThrottledPerClientAddress() async throws {
        try await PasswordResetTests.withVerifiedAccount("erin") { server, _, _, _ in
            var last = HTTPResult(status: 0, body: Data(), headers: [:])
            for _ in 0...Int(MailedCodeLimits.wrongCodesPerClient.burst) {
                last = try await Self.signIn(server, "erin@example.com", "123456")
            }
            #expect(last.status == 429 && last.errorCode == .throttled && (last.error?.retryAfter ?? 0) > 0, "\(last.text)")
        }
    }

    @Test func aCodeIsProofForTheAccountCentre() async throws {
        try await PasswordResetTests.withVerifiedAccount("fay") { server, sink, _, fay in
            await server.advanceClock(by: server.server.configuration.freshProofWindow + .seconds(1))
            #expect(try await fay.post("\(Self.auth)/account/reauthenticate/code", [String: String]()).status == 200)
            let proofCode = try #require(try await sink.codes(to: "fay@example.com", atLeast: 2).last)
            // A code the account centre mailed signs in too (one code a user: the newest).
            #expect(try await Self.signIn(server, "fay@example.com", proofCode).status == 200)
            #expect(try await Self.request(server, "fay@example.com").status == 200)
            let signInCode = try #require(try await sink.codes(to: "fay@example.com", atLeast: 3).last)
            let proved = try await fay.post("\(Self.auth)/account/reauthenticate", ReauthenticationRequest(emailCode: signInCode))
            #expect(proved.status == 200, "\(proved.text)")
        }
    }

    @Test func signUpByCodeWhereAllowed() async throws {
        let sink = try MailSink()
        defer { sink.stop() }
        try await sink.ready()
        try await TestServer.with(configure: { $0.smtp = sink.mailer(); $0.emailCodeSignUp = true }) { server in
            #expect(try await Self.request(server, "Gus@Example.com").status == 200)
            let code = try #require(try await sink.codes(to: "gus@example.com").first)
            let created = try await Self.signIn(server, "gus@example.com", code)
            #expect(created.status == 200, "\(created.text)")
            let gus = Caller(server: server.endpoint, webAuthToken: try created.decode(SignInResponse.self).ckWebAuthToken)
            let account = try await gus.get("\(Self.auth)/account").decode(AccountResponse.self)
            #expect(account.email == "gus@example.com" && account.emailVerified && account.methods.isEmpty, "\(account)")
            #expect(try await Self.signIn(server, "gus@example.com", code).status == 401, "the sign-up code works once")
            // Now the address has an account: its next code signs in to it.
            #expect(try await Self.request(server, "gus@example.com").status == 200)
            let next = try #require(try await sink.codes(to: "gus@example.com", atLeast: 2).last)
            let again = try await Self.signIn(server, "gus@example.com", next)
            #expect((try? again.decode(SignInResponse.self).userRecordName) == account.userRecordName, "\(again.text)")
        }
    }

    @Test func theSignInPageOffersIt() async throws {
        try await PasswordResetTests.withVerifiedAccount("hal") { server, sink, signedUp, _ in
            _ = try await server.server.services.admin.addWebOrigin(SignInPageTests.app, containerID: TestServer.containerID)
            let url = "\(server.endpoint.baseURL)\(Self.auth)/web/signin?ckAPIToken=\(server.apiToken)&callback=" + Caller.percentEncode(SignInPageTests.app + "/in")
            let page = try await SignInPageTests.browse(.GET, url)
            #expect(page.text.contains("Email me a code"), "\(page.text)")
            let csrf = try SignInPageTests.csrf(of: page)
            let sent = try await SignInPageTests.browse(.POST, url, form: SignInPageTests.form(["csrf": csrf, "action": "email-code", "email": "hal@example.com"]),
                                                        cookie: csrf)
            #expect(sent.status == 200 && sent.text.contains("id=\"code-sent\""), "\(sent.text)")
            let code = try #require(try await sink.codes(to: "hal@example.com", atLeast: 2).last)
            let wrong = try await SignInPageTests.browse(.POST, url, form: SignInPageTests.form(["csrf": csrf, "action": "email-signin", "email": "hal@example.com",
                                                                                                 "code": "000000"]), cookie: csrf)
            #expect(wrong.status == 401 && wrong.text.contains("id=\"code\""), "the code field again: \(wrong.text)")
            let done = try await SignInPageTests.browse(.POST, url, form: SignInPageTests.form(["csrf": csrf, "action": "email-signin", "email": "hal@example.com",
                                                                                                "code": code]), cookie: csrf)
            #expect(done.status == 303, "\(done.text)")
            let location = try #require(done.headers["Location"].first)
            #expect(location.hasPrefix(SignInPageTests.app + "/in?ckWebAuthToken="))
            let token = try #require(URLComponents(string: location)?.queryItems?.first { $0.name == "ckWebAuthToken" }?.value)
            let account = try await Caller(server: server.endpoint, webAuthToken: token).get("\(Self.auth)/account").decode(AccountResponse.self)
            #expect(account.userRecordName == signedUp.userRecordName)
        }
    }
}
