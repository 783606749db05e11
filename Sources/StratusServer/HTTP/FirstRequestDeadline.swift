import HummingbirdCore
import Logging
import NIOCore

/// Bounds a connection until its first request head has arrived.
///
/// Hummingbird's HTTP/1 + WebSocket-upgrade pipeline adds its idle timeout and its graceful-shutdown
/// handling only once the first request head is read, so a client that connects and sends nothing
/// (or never finishes the head) would hold its connection for ever, and with it every graceful
/// shutdown. This handler, first in the pipeline (after TLS), closes such a connection after
/// `deadline`, or at once when the server shuts down; it leaves the pipeline when the head's blank
/// line has gone by, and the HTTP handlers take over from there.
final class FirstRequestDeadline: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let deadline: TimeAmount
    private var timer: Scheduled<Void>?
    /// How much of `\r\n\r\n` the bytes read so far end with.
    private var matched = 0

    init(deadline: TimeAmount) {
        self.deadline = deadline
    }

    func handlerAdded(context: ChannelHandlerContext) {
        timer = context.eventLoop.assumeIsolated().scheduleTask(in: deadline) { [context] in
            context.close(promise: nil)
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let bytes = unwrapInboundIn(data)
        let headEnded = bytes.readableBytesView.contains { byte in
            let expected: UInt8 = matched % 2 == 0 ? UInt8(ascii: "\r") : UInt8(ascii: "\n")
            matched = byte == expected ? matched + 1 : (byte == UInt8(ascii: "\r") ? 1 : 0)
            return matched == 4
        }
        context.fireChannelRead(data)
        if headEnded {
            context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        // No request is in flight: nothing to finish before closing.
        if event is ChannelShouldQuiesceEvent {
            context.close(promise: nil)
        } else {
            context.fireUserInboundEventTriggered(event)
        }
    }
}

/// A child channel whose connections are bounded by ``FirstRequestDeadline`` before `Base` sets
/// them up.
struct FirstRequestDeadlineChannel<Base: ServerChildChannel>: ServerChildChannel {
    typealias Value = Base.Value
    let base: Base
    let deadline: TimeAmount

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.addHandler(FirstRequestDeadline(deadline: deadline))
        }.flatMap {
            base.setup(channel: channel, logger: logger)
        }
    }

    func handle(value: Value, logger: Logger) async {
        await base.handle(value: value, logger: logger)
    }
}
