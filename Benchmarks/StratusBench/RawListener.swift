import Foundation
import NIOCore
import NIOPosix
import Synchronization

/// A bare push WebSocket, for the devices a benchmark holds but does not measure: it writes the
/// upgrade request itself, then reads frames only to answer pings and a close, and drops
/// everything else.
///
/// The benchmark and the server share this machine's cores, so what a listener spends on each
/// notification is taken from the server: a WebSocket client library hands every frame to a
/// task of its own. A device on a phone pays that on its own processor.
final class RawListener: Sendable {
    private let state = Mutex<(connected: Bool, channel: (any Channel)?, stopped: Bool)>((false, nil, false))

    /// Whether the server answered the upgrade and the connection is open.
    var isConnected: Bool { state.withLock { $0.connected } }

    /// Connects to `url` (`ws://host:port/path?query`).
    func start(url: String) {
        guard let components = URLComponents(string: url), let host = components.host, let port = components.port else { return }
        let target = components.percentEncodedPath + (components.percentEncodedQuery.map { "?" + $0 } ?? "")
        let request = "GET \(target) HTTP/1.1\r\nHost: \(host):\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: \(Data((0..<16).map { _ in UInt8.random(in: 0...255) }).base64EncodedString())\r\n"
            + "Sec-WebSocket-Version: 13\r\n\r\n"
        let connecting = ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(Handler(request: request, listener: self))
                }
            }
            .connect(host: host, port: port)
        connecting.whenSuccess { channel in
            let stopped = self.state.withLock { state in
                state.channel = channel
                return state.stopped
            }
            if stopped { channel.close(promise: nil) }
            channel.closeFuture.whenComplete { _ in self.state.withLock { $0.connected = false } }
        }
    }

    /// Closes the connection.
    func stop() {
        let channel = state.withLock { state in
            state.stopped = true
            return state.channel
        }
        channel?.close(promise: nil)
    }

    fileprivate func upgraded() {
        state.withLock { $0.connected = true }
    }

    private final class Handler: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        typealias OutboundOut = ByteBuffer

        private let request: String
        private let listener: RawListener
        private var upgraded = false
        private var received = ByteBuffer()

        init(request: String, listener: RawListener) {
            self.request = request
            self.listener = listener
        }

        func channelActive(context: ChannelHandlerContext) {
            context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: request)), promise: nil)
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            var bytes = unwrapInboundIn(data)
            received.writeBuffer(&bytes)
            if !upgraded {
                guard let end = received.readableBytesView.firstRange(of: Array("\r\n\r\n".utf8)) else { return }
                let head = received.readString(length: end.upperBound - received.readerIndex) ?? ""
                guard head.hasPrefix("HTTP/1.1 101") else {
                    context.close(promise: nil)
                    return
                }
                upgraded = true
                listener.upgraded()
            }
            readFrames(context: context)
            received.discardReadBytes()
        }

        /// Skips whole frames; answers a ping with its pong, and a close by closing.
        private func readFrames(context: ChannelHandlerContext) {
            while let first = received.getInteger(at: received.readerIndex, as: UInt8.self),
                  let second = received.getInteger(at: received.readerIndex + 1, as: UInt8.self) {
                var header = 2
                var length = Int(second & 0x7F)
                if length == 126 {
                    guard let extended = received.getInteger(at: received.readerIndex + 2, as: UInt16.self) else { return }
                    (header, length) = (4, Int(extended))
                } else if length == 127 {
                    guard let extended = received.getInteger(at: received.readerIndex + 2, as: UInt64.self) else { return }
                    (header, length) = (10, Int(extended))
                }
                guard received.readableBytes >= header + length else { return }
                received.moveReaderIndex(forwardBy: header)
                let payload = received.readSlice(length: length) ?? ByteBuffer()
                switch first & 0x0F {
                case 0x9: context.writeAndFlush(wrapOutboundOut(Self.maskedFrame(opcode: 0xA, payload)), promise: nil)
                case 0x8: context.close(promise: nil)
                default: break
                }
            }
        }

        /// A client's frame (clients mask theirs; the key is all zeros, which leaves the payload
        /// as it is). Control frames' payloads are at most 125 bytes.
        private static func maskedFrame(opcode: UInt8, _ payload: ByteBuffer) -> ByteBuffer {
            var frame = ByteBuffer()
            frame.writeInteger(0x80 | opcode)
            frame.writeInteger(0x80 | UInt8(payload.readableBytes))
            frame.writeInteger(UInt32(0))
            frame.writeImmutableBuffer(payload)
            return frame
        }
    }
}
