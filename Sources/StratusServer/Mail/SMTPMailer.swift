import Foundation
import NIOCore
import NIOSSL
import StratusCore

/// Sends mail through an SMTP server: a provider's submission port (587) or a local relay.
///
/// The conversation (RFC 5321) runs on SwiftNIO. When the server offers STARTTLS (RFC 3207) the
/// mailer always upgrades and verifies the server's certificate against the system's roots, or
/// against ``certificateAuthorities`` when given; a certificate it cannot verify ends the
/// conversation, never a fall back to the clear. A server that offers no STARTTLS gets mail in
/// the clear only on loopback, unless ``allowsCleartext`` says otherwise. With ``credentials``
/// it authenticates with AUTH PLAIN, or LOGIN when the server offers only that (RFC 4954).
public struct SMTPMailer: Sendable {
    public var host: String
    public var port: Int
    /// The envelope and `From:` address.
    public var from: String
    /// The account to authenticate as; nil sends without authenticating.
    public var credentials: Credentials?
    /// A PEM file of the certificate authorities to trust instead of the system's.
    public var certificateAuthorities: URL?
    /// Whether mail may go in the clear to a server off loopback that offers no STARTTLS.
    public var allowsCleartext = false
    /// How long one conversation with the server may take, connecting included.
    public var timeout: Duration = .seconds(10)

    /// A username and the password that goes with it (read from a file, never stored in the database).
    public struct Credentials: Sendable {
        public var username: String
        public var password: String

        public init(username: String, password: String) {
            self.username = username
            self.password = password
        }
    }

    public init(host: String, port: Int, from: String) {
        self.host = host
        self.port = port
        self.from = from
    }

    /// A message that could not be sent, and why.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The TLS settings of the STARTTLS upgrade; throws if the certificate authorities cannot be read.
    package func tlsConfiguration() throws -> TLSConfiguration {
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.certificateVerification = .fullVerification
        if let certificateAuthorities {
            tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(certificateAuthorities.path))
        }
        return tls
    }

    /// Whether mail may go in the clear to a server at `address`: on loopback, where the clear is
    /// as private as the machine, or anywhere when ``allowsCleartext`` says so.
    package func permitsCleartext(to address: SocketAddress?) -> Bool {
        guard !allowsCleartext else { return true }
        guard let address = address?.ipAddress else { return false }
        return address.hasPrefix("127.") || address == "::1" || address.hasPrefix("::ffff:127.")
    }

    /// Sends a plain-text message to one recipient.
    package func send(to recipient: String, subject: String, body: String) async throws {
        // Checked at the API too; a header value with a line break would add headers or commands.
        let headerValues = [recipient, subject, from] + (credentials.map { [$0.username] } ?? [])
        guard headerValues.allSatisfy({ !$0.unicodeScalars.contains(where: CharacterSet.controlCharacters.contains) }) else {
            throw CloudKitError.badRequest("a mail header value holds a control character")
        }
        let message = Self.message(from: from, to: recipient, subject: subject, body: body)
        try await converse { session in
            try await session.command("MAIL FROM:<\(from)>", expecting: 250)
            try await session.command("RCPT TO:<\(recipient)>", expecting: 250)
            try await session.command("DATA", expecting: 354)
            try await session.command(message + "\r\n.", expecting: 250)
        }
    }

    /// Connects as a mail would be sent (TLS, authentication) and leaves without sending one;
    /// says how it went (`stratus doctor`).
    package func check() async throws -> String {
        var secured = false
        try await converse { session in secured = session.isEncrypted }
        return "\(host):\(port) answers, \(secured ? "over STARTTLS with a verified certificate" : "in the clear on loopback or as allowed")"
            + (credentials.map { ", authenticated as \($0.username)" } ?? "")
    }

    /// Connects and runs a conversation: greeting, EHLO, STARTTLS, AUTH, then `body`, then QUIT;
    /// within ``timeout`` altogether.
    private func converse(_ body: (inout SMTPSession) async throws -> Void) async throws {
        let started = ContinuousClock.now
        do {
            let connection = try await SMTPConnection.open(host: host, port: port, timeout: timeout)
            try await connection.converse(within: timeout) { session in
                try await begin(&session)
                try await body(&session)
                _ = try? await session.command("QUIT", expecting: 221)
            }
        } catch let error where ContinuousClock.now - started >= timeout {
            throw Failure(description: "the SMTP server \(host):\(port) did not finish within \(timeout) (\(error))")
        }
    }

    /// Greeting, EHLO, STARTTLS (or the clear where permitted), AUTH.
    private func begin(_ session: inout SMTPSession) async throws {
        try await session.reply(expecting: 220)
        var extensions = try await session.hello()
        if extensions.offers("STARTTLS") {
            try await session.command("STARTTLS", expecting: 220)
            try await session.startTLS(try tlsConfiguration(), serverHostname: host)
            extensions = try await session.hello()
        } else if !permitsCleartext(to: session.remoteAddress) {
            throw Failure(description: "the SMTP server \(host):\(port) offers no STARTTLS, and mail goes in the clear only to loopback (--smtp-allow-cleartext allows it)")
        }
        if let credentials {
            try await session.authenticate(credentials, offered: extensions.parameters("AUTH"))
        }
    }

    /// The message text: headers, a blank line, the body with dot-stuffed lines and CRLF endings.
    static func message(from: String, to recipient: String, subject: String, body: String) -> String {
        let lines = body.split(separator: "\n", omittingEmptySubsequences: false).map { $0.hasPrefix(".") ? "." + $0 : String($0) }
        return ["From: <\(from)>", "To: <\(recipient)>", "Subject: \(subject)", "MIME-Version: 1.0",
                "Content-Type: text/plain; charset=utf-8", "Content-Transfer-Encoding: 8bit", ""]
            .joined(separator: "\r\n") + "\r\n" + lines.joined(separator: "\r\n")
    }
}
