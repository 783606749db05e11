import Hummingbird
import NIOCore
import StratusCore

/// Reads each request's whole body before its handler runs, within `deadline` and `maxBytes`, so
/// that no handler (nor the work permit it may take) waits on a client that sends slowly: a body
/// still arriving at the deadline fails the request with `BAD_REQUEST`, one over the limit with
/// `LIMIT_EXCEEDED`. Asset uploads, which may be large and stream to disk, are left to their route.
struct RequestBodyDeadline: RouterMiddleware {
    typealias Context = StratusRequestContext
    let deadline: Duration
    let maxBytes: Int

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        // Nothing to wait for: no body (most GETs), or an asset upload, which streams to disk.
        let declared = request.headers[.contentLength]
        if declared == "0" || (declared == nil && request.headers[.transferEncoding] == nil)
            || request.uri.path.hasPrefix(AssetRoutes.uploadPath) {
            return try await next(request, context)
        }
        let body = request.body
        let (deadline, limit) = (self.deadline, maxBytes)
        let collected: ByteBuffer? = try await withThrowingTaskGroup(of: ByteBuffer?.self) { group in
            group.addTask {
                do {
                    return try await body.collect(upTo: limit)
                } catch is NIOTooManyBytesError {
                    throw CloudKitError.limitExceeded("request body is larger than \(limit) bytes")
                }
            }
            group.addTask {
                try await Task.sleep(for: deadline)
                return nil
            }
            defer { group.cancelAll() }
            return try await group.next() ?? nil
        }
        guard let collected else {
            throw CloudKitError.badRequest("the request body did not arrive within \(deadline.components.seconds) s; send it at once")
        }
        var request = request
        request.body = RequestBody(buffer: collected)
        return try await next(request, context)
    }
}
