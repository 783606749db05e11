import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// The deadline of a request's body: from its head, a body must have arrived whole within
/// `deadline` of the time the server was waiting for it, or the request's body stream fails with
/// ``Expired`` (which ``WholeRequestBody`` answers with `BAD_REQUEST`).
///
/// The clock runs only while the server asks the socket for more (a `read` is outstanding): when the
/// request's handler is slow to take what arrived (a busy machine, a large body), the connection's
/// async channel stops asking, the client cannot send, and that time is the server's, not the
/// client's. A client that dribbles its body still meets the deadline, since the server keeps asking.
///
/// A timer on the connection's own event loop, armed by the head and cancelled by the end, costs a
/// small request nearly nothing; racing the body against a sleeping task cost a one-record lookup
/// about a tenth of its time (`stratus-bench requests`).
final class RequestBodyDeadline: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// The error a request's body stream fails with when its deadline passes.
    struct Expired: Error {
        let deadline: TimeAmount
    }

    /// A body on its way: how much of the deadline is left, and, while the clock runs, since when
    /// and the timer that ends it.
    private struct Body {
        var remaining: TimeAmount
        var running: (since: NIODeadline, timer: Scheduled<Void>)?
    }

    private let deadline: TimeAmount
    private var body: Body?

    init(deadline: TimeAmount) {
        self.deadline = deadline
    }

    /// Whether a request's body is bounded: it has one (a `Content-Length` other than 0, or
    /// chunked), and it is not an asset upload, which streams to disk at the client's pace.
    static func bounds(_ head: HTTPRequest) -> Bool {
        let declared = head.headerFields[.contentLength]
        guard declared != "0", declared != nil || head.headerFields[.transferEncoding] != nil else { return false }
        return !(head.path ?? "").hasPrefix(AssetRoutes.uploadPath)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head) where Self.bounds(head):
            stop()
            // The head arrived in answer to a read, so the clock starts running.
            body = Body(remaining: deadline)
            run(context: context)
        case .end:
            stop()
        default:
            break
        }
        context.fireChannelRead(data)
    }

    /// The end of what one read brought: the clock stops until the server asks for more.
    func channelReadComplete(context: ChannelHandlerContext) {
        if var body, let running = body.running {
            running.timer.cancel()
            body.remaining = body.remaining - (context.eventLoop.now - running.since)
            body.running = nil
            self.body = body
        }
        context.fireChannelReadComplete()
    }

    /// The server asks for more: the clock runs again.
    func read(context: ChannelHandlerContext) {
        run(context: context)
        context.read()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        stop()
    }

    /// Starts the clock of the body on its way, if it is not running already.
    private func run(context: ChannelHandlerContext) {
        guard var body, body.running == nil else { return }
        let deadline = self.deadline
        let timer = context.eventLoop.assumeIsolated().scheduleTask(in: max(body.remaining, .zero)) { [self, context] in
            self.body = nil
            context.fireErrorCaught(Expired(deadline: deadline))
        }
        body.running = (context.eventLoop.now, timer)
        self.body = body
    }

    private func stop() {
        body?.running?.timer.cancel()
        body = nil
    }
}
