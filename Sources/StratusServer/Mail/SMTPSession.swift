import Foundation
import NIOCore
import NIOPosix
import NIOSSL
import NIOTLS

/// One TCP connection to an SMTP server, on SwiftNIO.
struct SMTPConnection {
    private let channel: NIOAsyncChannel<ByteBuffer, ByteBuffer>

    static func open(host: String, port: Int, timeout: Duration) async throws -> SMTPConnection {
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connectTimeout(.milliseconds(timeout.milliseconds))
            .connect(host: host, port: port) { channel in
                channel.eventLoop.makeCompletedFuture { try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel) }
            }
        return SMTPConnection(channel: channel)
    }

    /// Runs a conversation and closes the connection; the connection closes at the deadline,
    /// which ends a conversation with a server that stopped answering.
    func converse(within timeout: Duration, _ body: (inout SMTPSession) async throws -> Void) async throws {
        let channel = self.channel.channel
        let deadline = channel.eventLoop.scheduleTask(in: .milliseconds(timeout.milliseconds)) { channel.close(promise: nil) }
        defer { deadline.cancel() }
        try await self.channel.executeThenClose { inbound, outbound in
            var session = SMTPSession(channel: channel, inbound: inbound.makeAsyncIterator(), outbound: outbound)
            try await body(&session)
        }
    }
}

/// An SMTP reply: its three-digit code and its lines' text (after the code).
struct SMTPReply {
    var code: Int
    var lines: [String]
}

/// What a server's EHLO reply offers: one keyword per line, with parameters (`AUTH PLAIN LOGIN`).
struct SMTPExtensions {
    private var keywords: [String: [String]] = [:]

    init(_ reply: SMTPReply) {
        for line in reply.lines.dropFirst() {
            let words = line.split(separator: " ").map { $0.uppercased() }
            if let keyword = words.first { keywords[keyword] = Array(words.dropFirst()) }
        }
    }

    func offers(_ keyword: String) -> Bool { keywords[keyword] != nil }
    func parameters(_ keyword: String) -> [String] { keywords[keyword] ?? [] }
}

/// The client's side of one SMTP conversation: commands, replies, the TLS upgrade, authentication.
struct SMTPSession {
    private let channel: any Channel
    private var inbound: NIOAsyncChannelInboundStream<ByteBuffer>.AsyncIterator
    private let outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>
    /// Bytes received and not yet read as a reply line.
    private var pending = ByteBuffer()
    /// Whether TLS runs under the conversation (after STARTTLS).
    private(set) var isEncrypted = false

    /// The longest reply accepted (RFC 5321 allows 512 bytes a line; servers list extensions).
    static let maxReplyBytes = 64 * 1024

    init(channel: any Channel, inbound: NIOAsyncChannelInboundStream<ByteBuffer>.AsyncIterator, outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>) {
        self.channel = channel
        self.inbound = inbound
        self.outbound = outbound
    }

    /// The server's address.
    var remoteAddress: SocketAddress? { channel.remoteAddress }

    /// Reads one reply, all its lines, and checks its code.
    @discardableResult
    mutating func reply(expecting code: Int) async throws -> SMTPReply {
        var lines: [String] = []
        var received = 0
        var bytes = 0
        while true {
            let line = try await readLine()
            bytes += line.utf8.count
            guard line.count >= 3, let number = Int(line.prefix(3)), bytes <= Self.maxReplyBytes else {
                throw SMTPMailer.Failure(description: "bad SMTP reply: \(line.prefix(200))")
            }
            received = number
            lines.append(String(line.dropFirst(4)))
            if line.count > 3 && line[line.index(line.startIndex, offsetBy: 3)] == "-" { continue }
            guard received == code else { throw SMTPMailer.Failure(description: "the SMTP server answered: \(line.prefix(200))") }
            return SMTPReply(code: received, lines: lines)
        }
    }

    /// Sends one command line and reads its reply.
    @discardableResult
    mutating func command(_ line: String, expecting code: Int) async throws -> SMTPReply {
        try await outbound.write(ByteBuffer(string: line + "\r\n"))
        return try await reply(expecting: code)
    }

    /// EHLO, and what the server offers.
    mutating func hello() async throws -> SMTPExtensions {
        SMTPExtensions(try await command("EHLO stratus", expecting: 250))
    }

    /// Puts TLS under the conversation after the server's 220 to STARTTLS; the server's
    /// certificate is verified against the configuration's roots and the host's name (or address).
    mutating func startTLS(_ configuration: TLSConfiguration, serverHostname host: String) async throws {
        // Anything the server sent after its 220 came before TLS, in the clear, where anyone on the
        // path could have written it: discarded, whether read already or still on its way.
        pending.clear()
        let context = try NIOSSLContext(configuration: configuration)
        let hostname = (try? SocketAddress(ipAddress: host, port: 0)) == nil ? host : nil
        let handshake = channel.eventLoop.makePromise(of: Void.self)
        try await channel.eventLoop.submit { [channel] in
            let tls = try NIOSSLClientHandler(context: context, serverHostname: hostname)
            try channel.pipeline.syncOperations.addHandlers([tls, TLSHandshakeWatcher(handshake)], position: .first)
        }.get()
        do {
            try await handshake.futureResult.get()
            isEncrypted = true
        } catch {
            throw SMTPMailer.Failure(description: "TLS with the SMTP server \(host) failed: \(error)")
        }
        // Cleartext received before the TLS handler was in place waits in the stream ahead of the
        // watcher's mark (an empty read, which TLS never delivers): dropped up to it.
        while let bytes = try await inbound.next(), bytes.readableBytes > 0 {}
    }

    /// AUTH PLAIN (RFC 4616), or LOGIN when the server offers only that.
    mutating func authenticate(_ credentials: SMTPMailer.Credentials, offered mechanisms: [String]) async throws {
        if mechanisms.contains("PLAIN") {
            let token = Data("\u{0}\(credentials.username)\u{0}\(credentials.password)".utf8).base64EncodedString()
            try await command("AUTH PLAIN \(token)", expecting: 235)
        } else if mechanisms.contains("LOGIN") {
            try await command("AUTH LOGIN", expecting: 334)
            try await command(Data(credentials.username.utf8).base64EncodedString(), expecting: 334)
            try await command(Data(credentials.password.utf8).base64EncodedString(), expecting: 235)
        } else {
            throw SMTPMailer.Failure(description: "the SMTP server offers neither AUTH PLAIN nor AUTH LOGIN (it offers: \(mechanisms.joined(separator: " ")))")
        }
    }

    private mutating func readLine() async throws -> String {
        while true {
            if let end = pending.readableBytesView.firstIndex(of: UInt8(ascii: "\n")) {
                let length = end - pending.readerIndex
                let line = pending.readString(length: length) ?? ""
                pending.moveReaderIndex(forwardBy: 1)
                pending.discardReadBytes()
                return line.hasSuffix("\r") ? String(line.dropLast()) : line
            }
            guard pending.readableBytes < Self.maxReplyBytes else { throw SMTPMailer.Failure(description: "the SMTP server's reply is too long") }
            guard var bytes = try await inbound.next() else {
                throw SMTPMailer.Failure(description: "the SMTP server closed the connection")
            }
            pending.writeBuffer(&bytes)
        }
    }
}

/// Behind the TLS handler: tells when its handshake ends, well or not (an error, or the server
/// closing), so the conversation reports a certificate it refused rather than a closed channel,
/// and marks with an empty read where the bytes that came through TLS begin.
private final class TLSHandshakeWatcher: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    private let handshake: EventLoopPromise<Void>
    private var ended = false

    init(_ handshake: EventLoopPromise<Void>) {
        self.handshake = handshake
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case .handshakeCompleted? = event as? TLSUserEvent {
            // The mark between what came in the clear and what comes through TLS.
            context.fireChannelRead(wrapInboundOut(ByteBuffer()))
            context.fireChannelReadComplete()
            end(.success(()))
        }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        end(.failure(error))
        context.fireErrorCaught(error)
    }

    func channelInactive(context: ChannelHandlerContext) {
        end(.failure(SMTPMailer.Failure(description: "the connection closed during the handshake")))
        context.fireChannelInactive()
    }

    private func end(_ result: Result<Void, any Error>) {
        guard !ended else { return }
        ended = true
        handshake.completeWith(result)
    }
}
