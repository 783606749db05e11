import Hummingbird
import StratusCore

/// Sheds load instead of queueing without bound: while `maxInFlight` requests are being handled,
/// a new one is answered `THROTTLED` with `retryAfter` at once. Long-polls of a courier wait by
/// design and are bounded per user elsewhere, so they are not counted.
struct LoadSheddingMiddleware: RouterMiddleware {
    typealias Context = StratusRequestContext
    private let inFlight: Occupancy

    init(maxInFlight: Int) {
        inFlight = Occupancy(limit: maxInFlight)
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if request.uri.path.hasPrefix(PushRoutes.courierPath) { return try await next(request, context) }
        return try await inFlight.run(shedding: "the server is at capacity") { try await next(request, context) }
    }
}
