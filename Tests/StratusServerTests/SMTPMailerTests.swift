import Foundation
import NIOCore
import Testing
import StratusCore
import StratusTesting
@testable import StratusServer

/// The mailer against a real SMTP server (aiosmtpd, see ``MailSink``): in the clear on loopback,
/// STARTTLS verified against a test certificate authority, AUTH PLAIN and LOGIN, a server that
/// stops answering, and the password reset of `stratus serve` configured by its `--smtp-*` flags.
@Suite(.enabled(if: MailSink.isAvailable, "needs the aiosmtpd package (scripts/test.sh installs it)"))
struct SMTPMailerTests {
    /// Runs `body` with a started sink, stopped afterwards.
    static func withSink(_ options: [String] = [], _ body: (MailSink) async throws -> Void) async throws {
        let sink = try MailSink(options)
        defer { sink.stop() }
        try await sink.ready()
        try await body(sink)
    }

    /// Sends one message and returns how it arrived (its `X-Sink-*` lines and headers).
    static func deliver(_ mailer: SMTPMailer, to sink: MailSink, recipient: String = "bob@example.com") async throws -> String {
        let before = sink.messages(to: recipient).count
        try await mailer.send(to: recipient, subject: "Hello", body: "One line.\n.A line starting with a dot.\n")
        return try #require(try await sink.messages(to: recipient, atLeast: before + 1).dropFirst(before).first)
    }

    /// Why sending a message failed ("sent" if it did not).
    static func failure(_ mailer: SMTPMailer) async -> String {
        do {
            try await mailer.send(to: "bob@example.com", subject: "Hello", body: "secret")
            return "sent"
        } catch {
            return "\(error)"
        }
    }

    @Test func plainSMTPOnLoopback() async throws {
        try await Self.withSink { sink in
            let message = try await Self.deliver(sink.mailer(), to: sink)
            #expect(message.contains("X-Sink-TLS: no"))
            #expect(message.contains("Subject: Hello") && message.contains("From: <stratus@example.com>"))
            #expect(message.contains("\n.A line starting with a dot."), "dot-stuffing undone by the server: \(message)")
        }
    }

    /// Off loopback, a server without STARTTLS gets nothing unless the operator allows the clear.
    @Test func theClearIsForLoopbackUnlessAllowed() throws {
        var mailer = SMTPMailer(host: "mail.example.com", port: 25, from: "stratus@example.com")
        #expect(mailer.permitsCleartext(to: try SocketAddress(ipAddress: "127.0.0.1", port: 25)))
        #expect(mailer.permitsCleartext(to: try SocketAddress(ipAddress: "::1", port: 25)))
        #expect(!mailer.permitsCleartext(to: try SocketAddress(ipAddress: "192.0.2.7", port: 25)))
        #expect(!mailer.permitsCleartext(to: try SocketAddress(ipAddress: "2001:db8::1", port: 25)))
        #expect(!mailer.permitsCleartext(to: nil))
        mailer.allowsCleartext = true
        #expect(mailer.permitsCleartext(to: try SocketAddress(ipAddress: "192.0.2.7", port: 25)))
    }

    /// The server's certificate comes from a test authority given as `--smtp-ca-file` would give
    /// it; the name checked is the host's, a DNS name or an address.
    @Test func startTLSWithACertificateFromTheGivenAuthority() async throws {
        let certificate = try TestCertificate.makeIssuedByAuthority()
        defer { certificate.remove() }
        try await Self.withSink(["--cert", certificate.certificate.path, "--key", certificate.privateKey.path]) { sink in
            for host in ["127.0.0.1", "localhost"] {
                var mailer = sink.mailer(host: host)
                mailer.certificateAuthorities = certificate.authority
                let message = try await Self.deliver(mailer, to: sink, recipient: "bob@\(host == "localhost" ? "localhost.example" : "example.com")")
                #expect(message.contains("X-Sink-TLS: yes"), "\(host): \(message)")
            }
        }
    }

    /// Replies that arrive in the clear after the server's 220 to STARTTLS (a man in the middle's,
    /// here offering AUTH PLAIN) are discarded, not read as the TLS server's: the conversation goes
    /// on over TLS with the server's real replies and the mail is delivered.
    @Test func repliesSentBeforeTLSBeganAreDiscarded() async throws {
        let certificate = try TestCertificate.makeIssuedByAuthority()
        defer { certificate.remove() }
        try await Self.withSink(["--cert", certificate.certificate.path, "--key", certificate.privateKey.path, "--inject-before-tls"]) { sink in
            var mailer = sink.mailer()
            mailer.certificateAuthorities = certificate.authority
            let message = try await Self.deliver(mailer, to: sink)
            #expect(message.contains("X-Sink-TLS: yes") && message.contains("Subject: Hello"), "\(message)")
        }
    }

    /// A certificate the mailer cannot verify ends the conversation: nothing goes in the clear.
    @Test func anUntrustedCertificateIsRefused() async throws {
        let certificate = try TestCertificate.makeIssuedByAuthority()
        let stranger = try TestCertificate.makeIssuedByAuthority()
        defer { certificate.remove(); stranger.remove() }
        try await Self.withSink(["--cert", certificate.certificate.path, "--key", certificate.privateKey.path]) { sink in
            var mailer = sink.mailer()
            for authority in [nil, stranger.authority] {
                mailer.certificateAuthorities = authority
                let failure = await Self.failure(mailer)
                #expect(failure.contains("TLS with the SMTP server 127.0.0.1 failed") && failure.contains("CERTIFICATE_VERIFY_FAILED"),
                        "trusting \(authority?.lastPathComponent ?? "the system's roots"): \(failure)")
            }
            #expect(sink.messages(to: "bob@example.com").isEmpty)
        }
    }

    @Test func authPlainAndLoginSucceedAndAWrongPasswordFails() async throws {
        let certificate = try TestCertificate.makeIssuedByAuthority()
        defer { certificate.remove() }
        let tls = ["--cert", certificate.certificate.path, "--key", certificate.privateKey.path]
        for options in [tls, tls + ["--only-login-mechanism"], []] {
            try await Self.withSink(options + ["--login", "relay:s3cret pass"]) { sink in
                var mailer = sink.mailer()
                mailer.certificateAuthorities = certificate.authority
                let unauthenticated = await Self.failure(mailer)
                #expect(unauthenticated.contains("530"), "\(options): the server requires AUTH: \(unauthenticated)")
                mailer.credentials = SMTPMailer.Credentials(username: "relay", password: "wrong")
                let refused = await Self.failure(mailer)
                #expect(refused.contains("535"), "\(options): a wrong password: \(refused)")
                #expect(sink.messages(to: "bob@example.com").isEmpty)
                mailer.credentials = SMTPMailer.Credentials(username: "relay", password: "s3cret pass")
                let message = try await Self.deliver(mailer, to: sink)
                #expect(message.contains("X-Sink-Login: relay"), "\(options): \(message)")
                #expect(message.contains("X-Sink-TLS: \(options.isEmpty ? "no" : "yes")"))
            }
        }
    }

    /// A server that accepts the connection and never answers is given up at the timeout.
    @Test func aServerThatHangsTimesOut() async throws {
        try await Self.withSink(["--hang"]) { sink in
            var mailer = sink.mailer()
            mailer.timeout = .seconds(1)
            do {
                try await mailer.send(to: "bob@example.com", subject: "Hello", body: "wait")
                Issue.record("a server that never answered took the mail")
            } catch let error as SMTPMailer.Failure {
                #expect(error.description.contains("did not finish within"), "\(error)")
            }
        }
    }

    /// A header value with a control character is refused by the mailer itself, before it connects.
    @Test func controlCharactersInHeaderValuesAreRefused() async throws {
        var mailer = SMTPMailer(host: "127.0.0.1", port: 9, from: "stratus@example.com")
        for (recipient, subject) in [("a@b.example\r\nBcc: c@d.example", "Hello"), ("a@b.example", "Hello\r\nBcc: c@d.example"), ("a@b.example", "Hello\u{0}")] {
            await #expect(throws: CloudKitError.self) { try await mailer.send(to: recipient, subject: subject, body: "x") }
        }
        mailer.from = "stratus@example.com\nRCPT TO:<c@d.example>"
        await #expect(throws: CloudKitError.self) { try await mailer.send(to: "a@b.example", subject: "Hello", body: "x") }
    }

    /// The whole flow through `stratus serve` as an operator configures it: a provider's port
    /// with STARTTLS and AUTH, the password in a file, the provider's authority in a file.
    @Test func aPasswordResetMailedThroughStartTLSAndAuth() async throws {
        let certificate = try TestCertificate.makeIssuedByAuthority()
        defer { certificate.remove() }
        let passwordFile = certificate.directory.appendingPathComponent("smtp-password")
        try Data("s3cret pass\n".utf8).write(to: passwordFile)
        try await Self.withSink(["--cert", certificate.certificate.path, "--key", certificate.privateKey.path, "--login", "relay:s3cret pass"]) { sink in
            let data = FileManager.default.temporaryDirectory.appendingPathComponent("smtp-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: data) }
            let process = try await ServerProcess.started(dataDirectory: data, arguments: [
                "--smtp-host", "localhost", "--smtp-port", "\(sink.port)", "--smtp-from", "accounts@example.com",
                "--smtp-username", "relay", "--smtp-password-file", passwordFile.path, "--smtp-ca-file", certificate.authority.path,
            ])
            defer { _ = process.stop() }
            let auth = PasswordResetTests.auth
            let endpoint = process.endpoint
            let signedUp = try await endpoint.anonymous.post("\(auth)/signup", Credentials(username: "dana", password: "old password", email: "dana@example.com"))
                .decode(SignInResponse.self)
            let dana = Caller(server: endpoint, webAuthToken: signedUp.ckWebAuthToken, userRecordName: signedUp.userRecordName)
            #expect(try await dana.post("\(auth)/email/verify", ["code": try #require(try await sink.codes(to: "dana@example.com").first)]).status == 200)

            #expect(try await endpoint.anonymous.post("\(auth)/password/forgot", ["email": "dana@example.com"]).status == 200)
            let mail = try #require(try await sink.messages(to: "dana@example.com", atLeast: 2).last)
            #expect(mail.contains("X-Sink-TLS: yes") && mail.contains("X-Sink-Login: relay") && mail.contains("From: <accounts@example.com>"))
            let code = try #require(PasswordResetTests.resetCodes(sink, to: "dana@example.com").first)
            #expect(try await endpoint.anonymous.post("\(auth)/password/reset", ["code": code, "password": "new password"]).status == 200)
            let signedIn = try await endpoint.anonymous.post("\(auth)/signin", Credentials(username: "dana", password: "new password"))
            #expect(signedIn.status == 200, "\(signedIn.text)")
        }
    }
}
