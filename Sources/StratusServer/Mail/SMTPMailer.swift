import Foundation
import NIOPosix
import StratusCore
#if canImport(Glibc)
import Glibc
#endif

/// Sends mail through an SMTP server the operator runs or relays through (a local MTA, a
/// provider's submission port behind a relay): plain SMTP (RFC 5321) without authentication or
/// TLS, so point it at a trusted host, typically on the same machine or network.
///
/// Sending is blocking socket I/O with a deadline, run on NIO's thread pool.
public struct SMTPMailer: Sendable {
    public var host: String
    public var port: Int
    /// The envelope and `From:` address.
    public var from: String
    /// How long one conversation with the server may take.
    public var timeout: Duration = .seconds(10)

    public init(host: String, port: Int, from: String) {
        self.host = host
        self.port = port
        self.from = from
    }

    /// A message that failed to send, with the server's last reply.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Sends a plain-text message to one recipient.
    package func send(to recipient: String, subject: String, body: String) async throws {
        // Checked at the API too; a header value with a line break would add headers or commands.
        guard [recipient, subject, from].allSatisfy({ !$0.unicodeScalars.contains(where: CharacterSet.controlCharacters.contains) }) else {
            throw CloudKitError.badRequest("a mail header value holds a control character")
        }
        let message = Self.message(from: from, to: recipient, subject: subject, body: body)
        let (host, port, from, timeout) = (self.host, self.port, self.from, self.timeout)
        try await NIOThreadPool.singleton.runIfActive {
            var connection = try Connection(host: host, port: port, timeout: timeout)
            defer { connection.close() }
            try connection.expect(220)
            try connection.command("EHLO stratus", expect: 250)
            try connection.command("MAIL FROM:<\(from)>", expect: 250)
            try connection.command("RCPT TO:<\(recipient)>", expect: 250)
            try connection.command("DATA", expect: 354)
            try connection.command(message + "\r\n.", expect: 250)
            try? connection.command("QUIT", expect: 221)
        }
    }

    /// The message text: headers, a blank line, the body with dot-stuffed lines and CRLF endings.
    static func message(from: String, to recipient: String, subject: String, body: String) -> String {
        let lines = body.split(separator: "\n", omittingEmptySubsequences: false).map { $0.hasPrefix(".") ? "." + $0 : String($0) }
        return ["From: <\(from)>", "To: <\(recipient)>", "Subject: \(subject)", "MIME-Version: 1.0",
                "Content-Type: text/plain; charset=utf-8", "Content-Transfer-Encoding: 8bit", ""]
            .joined(separator: "\r\n") + "\r\n" + lines.joined(separator: "\r\n")
    }

    /// One TCP connection speaking SMTP's line protocol.
    private struct Connection {
        private let descriptor: Int32
        private var pending = [UInt8]()

        init(host: String, port: Int, timeout: Duration) throws {
            var hints = addrinfo()
            hints.ai_family = AF_UNSPEC
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
            var result: UnsafeMutablePointer<addrinfo>?
            guard getaddrinfo(host, String(port), &hints, &result) == 0, let info = result else {
                throw Failure(description: "cannot resolve SMTP host \(host)")
            }
            defer { freeaddrinfo(result) }
            descriptor = socket(info.pointee.ai_family, info.pointee.ai_socktype, info.pointee.ai_protocol)
            guard descriptor >= 0 else { throw Failure(description: "cannot open a socket (errno \(errno))") }
            var limit = timeval(tv_sec: Int(timeout.components.seconds), tv_usec: 0)
            setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
            setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
            guard connect(descriptor, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 else {
                Glibc.close(descriptor)
                throw Failure(description: "cannot connect to the SMTP server \(host):\(port) (errno \(errno))")
            }
        }

        func close() { Glibc.close(descriptor) }

        mutating func command(_ line: String, expect code: Int) throws {
            let bytes = Array((line + "\r\n").utf8)
            var sent = 0
            while sent < bytes.count {
                let written = bytes[sent...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                guard written > 0 else { throw Failure(description: "the SMTP server closed the connection") }
                sent += written
            }
            try expect(code)
        }

        /// Reads a reply (all its lines) and checks its code.
        mutating func expect(_ code: Int) throws {
            while true {
                let line = try readLine()
                guard line.count >= 3, let received = Int(line.prefix(3)) else { throw Failure(description: "bad SMTP reply: \(line)") }
                if line.count > 3 && line[line.index(line.startIndex, offsetBy: 3)] == "-" { continue }
                guard received == code else { throw Failure(description: "SMTP server answered: \(line)") }
                return
            }
        }

        private mutating func readLine() throws -> String {
            while true {
                if let end = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: pending[..<end], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
                    pending.removeSubrange(...end)
                    return line
                }
                var buffer = [UInt8](repeating: 0, count: 1024)
                let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
                guard count > 0 else { throw Failure(description: "the SMTP server closed the connection or timed out") }
                pending += buffer[..<count]
                guard pending.count < 64 * 1024 else { throw Failure(description: "SMTP reply too long") }
            }
        }
    }
}
