import Hummingbird
import NIOConcurrencyHelpers
import StratusCore

/// Sheds load instead of queueing without bound: while `maxInFlight` requests are being handled,
/// a new one is answered `THROTTLED` with `retryAfter` at once. Long-polls of a courier wait by
/// design and are bounded per user elsewhere, so they are not counted.
struct LoadSheddingMiddleware: RouterMiddleware {
    typealias Context = StratusRequestContext
    let maxInFlight: Int
    private let inFlight = NIOLockedValueBox(0)

    init(maxInFlight: Int) {
        self.maxInFlight = maxInFlight
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if request.uri.path.hasPrefix(PushRoutes.courierPath) { return try await next(request, context) }
        let admitted = inFlight.withLockedValue { count in
            guard count < maxInFlight else { return false }
            count += 1
            return true
        }
        guard admitted else {
            throw CloudKitError(.throttled, "the server is at capacity; retry after the delay", retryAfter: 1)
        }
        defer { inFlight.withLockedValue { $0 -= 1 } }
        return try await next(request, context)
    }
}
