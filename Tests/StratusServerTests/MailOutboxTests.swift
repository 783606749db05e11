import Foundation
import Testing
import StratusCore
@testable import StratusServer

/// Mail goes through a durable outbox: no request waits for the SMTP server, and what it could not
/// take leaves when it comes back (aiosmtpd on loopback, ``MailSink``).
@Suite(.enabled(if: MailSink.isAvailable, "needs the aiosmtpd package (scripts/test.sh installs it)"))
struct MailOutboxTests {
    static let auth = EmailVerificationTests.auth

    /// With an SMTP server that accepts connections and never answers, sign-up, `email/send` and
    /// `password/forgot` (for an address with an account and one without) all answer; the mails
    /// wait in the outbox and leave once a working server listens on the same port. Were a request
    /// to wait for SMTP, it would hang here: the hung server never answers and the mailer's own
    /// deadline is an hour.
    @Test func noRequestWaitsForSMTPAndTheMailLeavesWhenTheServerComesBack() async throws {
        let hung = try MailSink(["--hang"])
        try await hung.ready()
        let port = hung.port
        var mailer = SMTPMailer(host: "127.0.0.1", port: port, from: "stratus@example.com")
        mailer.timeout = .seconds(2)
        let configuredMailer = mailer
        try await TestServer.with(configure: { $0.smtp = configuredMailer; $0.mailRetryInterval = .milliseconds(100) }) { server in
            let signedUp = try await server.anonymous.post("\(Self.auth)/signup",
                                                           Credentials(username: "outbox", password: "outbox password", email: "outbox@example.com"))
            #expect(signedUp.status == 200, "\(signedUp.text)")
            let caller = Caller(server: server.endpoint, webAuthToken: try signedUp.decode(SignInResponse.self).ckWebAuthToken, userRecordName: nil)
            #expect(try await caller.post("\(Self.auth)/email/send", [String: String]()).status == 200)
            for email in ["outbox@example.com", "nobody@example.com"] {
                let forgot = try await server.anonymous.post("\(Self.auth)/password/forgot", ["email": email])
                #expect(forgot.status == 200 && forgot.text == "{}", "\(email): \(forgot.text)")
            }
            hung.stop()
            let sink = try MailSink(port: port)
            defer { sink.stop() }
            try await sink.ready()
            let codes = try await sink.codes(to: "outbox@example.com", atLeast: 2)
            #expect(codes.count == 2, "the mails left once the server came back")
            #expect(sink.messages(to: "nobody@example.com").isEmpty, "no mail for an address no account has")
        }
    }

    /// A change to how the account signs in is mailed to its verified address.
    @Test func aPasswordChangeIsMailedToTheVerifiedAddress() async throws {
        try await PasswordResetTests.withVerifiedAccount("noticed") { _, sink, _, caller in
            let changed = try await caller.post("\(Self.auth)/password", ["password": "old password", "newPassword": "a new password"])
            #expect(changed.status == 200, "\(changed.text)")
            try await sink.wait { $0.messages(to: "noticed@example.com").contains { $0.contains("Subject: Your password was changed") } }
            #expect(sink.messages(to: "noticed@example.com").contains { $0.contains("Subject: Your password was changed") })
        }
    }

    /// A stale session proves itself with a code mailed to the verified address: the refusal names
    /// `emailCode` among the methods, a wrong code counts, the right one gives fresh proof once.
    @Test func aMailedCodeGivesFreshProof() async throws {
        try await PasswordResetTests.withVerifiedAccount("prover") { server, sink, _, caller in
            await FreshProofTests.makeStale(server)
            let refused = try await caller.post("\(Self.auth)/password", ["newPassword": "a new password"])
            #expect(refused.errorCode == .authenticationRequired && refused.error?.methods == ["password", "emailCode"], "\(refused.text)")
            #expect(try await caller.post("\(Self.auth)/account/reauthenticate/code", [String: String]()).status == 200)
            try await sink.wait { $0.messages(to: "prover@example.com").contains { $0.contains("Your confirmation code: ") } }
            let message = try #require(sink.messages(to: "prover@example.com").first { $0.contains("Your confirmation code: ") })
            let code = try #require(message.range(of: #"confirmation code: \d{6}"#, options: .regularExpression).map { String(message[$0].suffix(6)) })
            let wrong = try await caller.post("\(Self.auth)/account/reauthenticate", ReauthenticationRequest(emailCode: code == "000000" ? "111111" : "000000"))
            #expect(wrong.status == 401, "\(wrong.text)")
            #expect(try await caller.post("\(Self.auth)/account/reauthenticate", ReauthenticationRequest(emailCode: code)).status == 200)
            #expect(try await caller.post("\(Self.auth)/password", ["newPassword": "a new password"]).status == 200, "fresh proof now")
            #expect(try await caller.post("\(Self.auth)/account/reauthenticate", ReauthenticationRequest(emailCode: code)).status == 401, "a code works once")
        }
    }

    /// Changing the email takes fresh proof, tells the old address, mails the new one a code and
    /// ends the account's other sessions.
    @Test func anEmailChangeTakesFreshProofAndTellsTheOldAddress() async throws {
        try await PasswordResetTests.withVerifiedAccount("mover") { server, sink, _, caller in
            let other = try FreshProofTests.caller(server, try await server.anonymous.post("\(Self.auth)/signin",
                                                                                          Credentials(username: "mover", password: "old password")))
            await FreshProofTests.makeStale(server)
            let refused = try await caller.post("\(Self.auth)/email", ["email": "moved@example.com"])
            #expect(refused.errorCode == .authenticationRequired, "\(refused.text)")
            #expect(try await caller.post("\(Self.auth)/account/reauthenticate", ReauthenticationRequest(password: "old password")).status == 200)
            #expect(try await caller.post("\(Self.auth)/email", ["email": "moved@example.com"]).status == 200)
            try await sink.wait { $0.messages(to: "mover@example.com").contains { $0.contains("Subject: Your email address was changed") } }
            #expect(sink.messages(to: "mover@example.com").contains { $0.contains("Subject: Your email address was changed") }, "the old address is told")
            #expect(try await sink.codes(to: "moved@example.com").count == 1, "the new address gets a verification code")
            #expect(try await other.get(other.path(.private, "zones/list")).status == 401, "the other session ended")
            let account = try await caller.get("\(Self.auth)/account").decode(AccountResponse.self)
            #expect(account.email == "moved@example.com" && !account.emailVerified)
        }
    }
}
