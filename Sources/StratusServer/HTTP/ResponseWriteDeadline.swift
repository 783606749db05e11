import NIOCore

/// The write deadline of an answer: a connection whose answer waits unsent (the socket's buffers
/// full, because the client reads slowly or not at all) for longer than `deadline` is closed, so no
/// client keeps answers in the server's memory. Answers are handed to the connection whole, so a
/// handler never waits on its client; this is where the wait shows: the channel stays unwritable.
final class ResponseWriteDeadline: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = Any

    private let deadline: TimeAmount
    private var timer: Scheduled<Void>?

    init(deadline: TimeAmount) {
        self.deadline = deadline
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable {
            timer?.cancel()
            timer = nil
        } else if timer == nil {
            let channel = context.channel
            timer = context.eventLoop.scheduleTask(in: deadline) { channel.close(promise: nil) }
        }
        context.fireChannelWritabilityChanged()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
    }
}
