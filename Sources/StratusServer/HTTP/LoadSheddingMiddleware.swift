import Hummingbird
import StratusCore

/// Sheds load instead of queueing without bound: while `maxInFlight` requests are being handled,
/// or `maxPerAddress` from the caller's address, a new one is answered `THROTTLED` with
/// `retryAfter` at once. Long-polls of a courier wait by design and are bounded per user
/// elsewhere, so they are not counted.
struct LoadSheddingMiddleware: RouterMiddleware {
    typealias Context = StratusRequestContext
    private let inFlight: Occupancy

    init(maxInFlight: Int, maxPerAddress: Int) {
        inFlight = Occupancy(limit: maxInFlight, limitPerKey: maxPerAddress)
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if request.uri.path.hasPrefix(PushRoutes.courierPath) { return try await next(request, context) }
        return try await inFlight.run(key: context.clientAddress, shedding: "the server is at capacity",
                                      sheddingKey: "too many requests at once from this address") { try await next(request, context) }
    }
}
