import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// The deadline of a request's body: from its head, a body must have arrived whole within
/// `deadline`, or the request's body stream fails with ``Expired`` (which ``WholeRequestBody``
/// answers with `BAD_REQUEST`).
///
/// A timer on the connection's own event loop, armed by the head and cancelled by the end, costs a
/// small request nearly nothing; racing the body against a sleeping task cost a one-record lookup
/// about a tenth of its time (`stratus-bench requests`).
final class RequestBodyDeadline: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart

    /// The error a request's body stream fails with when its deadline passes.
    struct Expired: Error {
        let deadline: TimeAmount
    }

    private let deadline: TimeAmount
    private var timer: Scheduled<Void>?

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
            timer?.cancel()
            let deadline = self.deadline
            timer = context.eventLoop.assumeIsolated().scheduleTask(in: deadline) { [context] in
                context.fireErrorCaught(Expired(deadline: deadline))
            }
        case .end:
            timer?.cancel()
            timer = nil
        default:
            break
        }
        context.fireChannelRead(data)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
    }
}
