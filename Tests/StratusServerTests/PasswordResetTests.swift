import Foundation
import Testing
import StratusCore
@testable import StratusServer

/// "Forgot password" over real HTTP, with codes mailed through a real SMTP server (aiosmtpd).
@Suite struct PasswordResetTests {
    static let auth = EmailVerificationTests.auth

    /// The reset codes mailed to an address so far, oldest first.
    static func resetCodes(_ sink: MailSink, to address: String) -> [String] {
        sink.messages(to: address).compactMap { message in
            message.range(of: #"reset code: [2-9A-Z]{5}-[2-9A-Z]{5}"#, options: .regularExpression).map { String(message[$0].suffix(11)) }
        }
    }

    static func waitForMail(_ sink: MailSink, to address: String, count: Int) async throws {
        try await sink.wait { resetCodes($0, to: address).count >= count }
    }

    /// A server mailing through a real SMTP server, and `username`'s account (password
    /// `old password`) with `username@example.com` verified.
    static func withVerifiedAccount(_ username: String,
                                    _ body: @escaping @Sendable (TestServer, MailSink, SignInResponse, Caller) async throws -> Void) async throws {
        let sink = try MailSink()
        defer { sink.stop() }
        try await sink.ready()
        try await TestServer.with(configure: { $0.smtp = sink.mailer() }) { server in
            let email = "\(username)@example.com"
            let signedUp = try await server.anonymous.post("\(Self.auth)/signup", Credentials(username: username, password: "old password", email: email))
                .decode(SignInResponse.self)
            let caller = Caller(server: server.endpoint, webAuthToken: signedUp.ckWebAuthToken, userRecordName: signedUp.userRecordName)
            #expect(try await caller.post("\(Self.auth)/email/verify", ["code": try #require(try await sink.codes(to: email).first)]).status == 200)
            try await body(server, sink, signedUp, caller)
        }
    }

    @Test(.enabled(if: MailSink.isAvailable, "needs the aiosmtpd package (scripts/test.sh installs it)"))
    func aMailedCodeSetsANewPasswordOnceAndEndsEverySession() async throws {
        try await Self.withVerifiedAccount("alice") { server, sink, signedUp, alice in
            let registered = try await alice.post("/device/1/\(TestServer.containerID)/development/tokens/register",
                                                  TokenRegisterRequest(apnsEnvironment: "development", apnsToken: String(repeating: "ab", count: 32)))
            #expect(registered.status == 200, "\(registered.text)")

            // The same answer whether or not an account has the address; only the account's gets mail.
            let bob = try await server.anonymous.post("\(Self.auth)/signup", Credentials(username: "bob", password: "bob password", email: "bob@example.com"))
            #expect(bob.status == 200)
            for email in ["Alice@Example.com", "nobody@example.com", "bob@example.com"] {
                let asked = try await server.anonymous.post("\(Self.auth)/password/forgot", ["email": email])
                #expect(asked.status == 200 && asked.text == "{}", "\(email): \(asked.text)")
            }
            try await Self.waitForMail(sink, to: "alice@example.com", count: 1)
            let codes = Self.resetCodes(sink, to: "alice@example.com")
            #expect(codes.count == 1)
            #expect(sink.messages(to: "nobody@example.com").isEmpty)
            #expect(Self.resetCodes(sink, to: "bob@example.com").isEmpty, "an address only claimed (not verified) gets no reset code")
            let code = try #require(codes.first)

            let wrong = try await server.anonymous.post("\(Self.auth)/password/reset", ["code": "AAAAA-AAAAA", "password": "new password"])
            #expect(wrong.status == 400 && wrong.errorCode == .badRequest)
            let short = try await server.anonymous.post("\(Self.auth)/password/reset", ["code": code, "password": "short"])
            #expect(short.errorCode == .badRequest, "a password too short leaves the code usable")
            let reset = try await server.anonymous.post("\(Self.auth)/password/reset", ["code": code.lowercased(), "password": "new password"])
            #expect(reset.status == 200, "\(reset.text)")

            #expect(try await alice.get(alice.path(.private, "zones/list")).status == 401, "every session ended")
            let tokens = try await server.server.services.storage.read {
                try await $0.apnsTokens(containerID: TestServer.containerID, environment: .development, user: signedUp.userRecordName, liveAt: nil)
            }
            #expect(tokens.isEmpty, "the user's APNs tokens are gone")
            #expect(try await AdministrationTests.signIn(server, "alice", "old password").status == 401)
            #expect(try await AdministrationTests.signIn(server, "alice", "new password").status == 200)
            let again = try await server.anonymous.post("\(Self.auth)/password/reset", ["code": code, "password": "another password"])
            #expect(again.errorCode == .badRequest, "a code works once")

            // A code past its 30 minutes is refused.
            _ = try await server.anonymous.post("\(Self.auth)/password/forgot", ["email": "alice@example.com"])
            try await Self.waitForMail(sink, to: "alice@example.com", count: 2)
            let later = try #require(Self.resetCodes(sink, to: "alice@example.com").last)
            await server.advanceClock(by: .seconds(31 * 60))
            let expired = try await server.anonymous.post("\(Self.auth)/password/reset", ["code": later, "password": "another password"])
            #expect(expired.errorCode == .badRequest)
        }
    }

    @Test func requestsAndGuessesAreThrottled() async throws {
        // A mailer that reaches nothing: the limits apply before any mail, and a failed mail is only logged.
        try await TestServer.with(configure: { $0.smtp = SMTPMailer(host: "127.0.0.1", port: 9, from: "stratus@example.com") }) { server in
            func ask(_ email: String) async throws -> HTTPResult {
                try await server.anonymous.post("\(Self.auth)/password/forgot", ["email": email])
            }
            for _ in 0..<3 { #expect(try await ask("one@example.com").status == 200) }
            let perEmail = try await ask("one@example.com")
            #expect(perEmail.status == 429 && perEmail.errorCode == .throttled && perEmail.error?.retryAfter != nil, "\(perEmail.text)")
            #expect(try await ask("two@example.com").status == 200)
            let perAddress = try await ask("three@example.com")
            #expect(perAddress.errorCode == .throttled, "five requests from one address, then one a minute")

            for _ in 0..<10 {
                #expect(try await server.anonymous.post("\(Self.auth)/password/reset", ["code": "AAAAA-AAAAA", "password": "new password"]).errorCode == .badRequest)
            }
            let guessing = try await server.anonymous.post("\(Self.auth)/password/reset", ["code": "AAAAA-AAAAA", "password": "new password"])
            #expect(guessing.errorCode == .throttled && guessing.error?.retryAfter != nil)
            let bad = try await ask("not an address")
            #expect(bad.errorCode == .badRequest, "an address is checked before any limit")
        }
    }

    /// The web sign-in page links to the same flow, for a listed web app: a form for the address,
    /// then one for the code and the new password.
    @Test(.enabled(if: MailSink.isAvailable, "needs the aiosmtpd package (scripts/test.sh installs it)"))
    func theSignInPageLinksToTheResetPages() async throws {
        try await Self.withVerifiedAccount("carol") { server, sink, _, _ in
            _ = try await server.server.services.admin.addWebOrigin(SignInPageTests.app, containerID: TestServer.containerID)

            let query = "ckAPIToken=\(server.apiToken)&origin=\(Caller.percentEncode(SignInPageTests.app))"
            let signIn = try await SignInPageTests.browse(.GET, "\(server.endpoint.baseURL)\(Self.auth)/web/signin?\(query)")
            let link = try #require(signIn.text.components(separatedBy: "<a href=\"").dropFirst().first?.components(separatedBy: "\"").first)
            let url = server.endpoint.baseURL + link.replacingOccurrences(of: "&amp;", with: "&")
            #expect(url == "\(server.endpoint.baseURL)\(Self.auth)/web/password?\(query)")

            let page = try await SignInPageTests.browse(.GET, url)
            #expect(page.status == 200 && page.text.contains("id=\"send-code\""), "\(page.text)")
            let csrf = try SignInPageTests.csrf(of: page)
            let forged = try await SignInPageTests.browse(.POST, url, form: SignInPageTests.form(["csrf": "x", "action": "forgot", "email": "carol@example.com"]), cookie: csrf)
            #expect(forged.status == 403)
            let mailed = try await SignInPageTests.browse(.POST, url, form: SignInPageTests.form(["csrf": csrf, "action": "forgot", "email": "carol@example.com"]), cookie: csrf)
            #expect(mailed.status == 200 && mailed.text.contains("id=\"mailed\"") && mailed.text.contains("id=\"reset\""), "\(mailed.text)")
            try await Self.waitForMail(sink, to: "carol@example.com", count: 1)
            let code = try #require(Self.resetCodes(sink, to: "carol@example.com").first)
            let wrong = try await SignInPageTests.browse(.POST, url, form: SignInPageTests.form(["csrf": csrf, "action": "reset", "code": "AAAAA-AAAAA", "password": "new password"]), cookie: csrf)
            #expect(wrong.status == 400 && wrong.text.contains("id=\"error\"") && wrong.text.contains("id=\"reset\""), "the code form again")
            let done = try await SignInPageTests.browse(.POST, url, form: SignInPageTests.form(["csrf": csrf, "action": "reset", "code": code, "password": "new password"]), cookie: csrf)
            #expect(done.status == 200 && done.text.contains("id=\"done\""), "\(done.text)")
            #expect(try await AdministrationTests.signIn(server, "carol", "new password").status == 200)
        }
    }
}
