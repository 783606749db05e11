import Hummingbird
import NIOCore
import StratusCore

/// Reads each request's whole body before its handler runs, within ``RequestBodyDeadline`` and
/// `maxBytes`, so that no handler (nor the work permit it may take) waits on a client that sends
/// slowly: a body still arriving at the deadline fails the request with `BAD_REQUEST`, one over the
/// limit with `LIMIT_EXCEEDED`. Asset uploads, which may be large and stream to disk, are left to
/// their route.
struct WholeRequestBody: RouterMiddleware {
    typealias Context = StratusRequestContext
    let maxBytes: Int

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard RequestBodyDeadline.bounds(request.head) else { return try await next(request, context) }
        let collected: ByteBuffer
        do {
            collected = try await request.body.collect(upTo: maxBytes)
        } catch is NIOTooManyBytesError {
            throw CloudKitError.limitExceeded("request body is larger than \(maxBytes) bytes")
        } catch let expired as RequestBodyDeadline.Expired {
            throw CloudKitError.badRequest("the request body did not arrive within \(expired.deadline.nanoseconds / 1_000_000_000) s; send it at once")
        }
        var request = request
        request.body = RequestBody(buffer: collected)
        return try await next(request, context)
    }
}
