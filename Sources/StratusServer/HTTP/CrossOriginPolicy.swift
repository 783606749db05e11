import Foundation
import HTTPTypes
import Hummingbird

/// CORS for the web apps of the configured origins (`serve --cors-origin`), as CloudKit JS apps
/// call CloudKit from their own site: a request from one of them is answered with
/// `Access-Control-Allow-Origin` naming it, and its pre-flight `OPTIONS` with the methods and
/// headers it asked for. Requests from other origins get no CORS headers, so browsers keep their
/// answers from the page. (The push WebSocket checks `Origin` against the same list.)
struct CrossOriginPolicy: RouterMiddleware {
    typealias Context = StratusRequestContext
    /// Exact origins (`https://app.example.com`), or `*` for any.
    let allowedOrigins: Set<String>

    static let maxAge = "600"
    static let exposedHeaders = "X-Apple-Request-UUID, Retry-After"

    /// Whether a browser page of `origin` may call the server.
    static func allows(_ origin: String, in allowed: Set<String>) -> Bool {
        allowed.contains("*") || allowed.contains(origin)
    }

    /// Whether a WebSocket upgrade's `Origin` header (absent for apps, which are not browsers) is
    /// allowed: each origin it names must be one of `allowed`, or the host the request reached
    /// (`Host`; ports are not compared, as WebSocket clients name the host alone).
    static func admitsUpgrade(origin header: String?, authority: String?, allowed: Set<String>) -> Bool {
        guard let header else { return true }
        let ownHost = authority.map { $0.split(separator: ":").first.map(String.init) ?? $0 }
        return header.split(separator: ",").allSatisfy { part in
            let origin = part.trimmingCharacters(in: .whitespaces)
            return allows(origin, in: allowed) || (ownHost != nil && URLComponents(string: origin)?.host == ownHost)
        }
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let origin = request.headers[.origin], Self.allows(origin, in: allowedOrigins) else {
            return try await next(request, context)
        }
        if request.method == .options, let method = request.headers[.accessControlRequestMethod] {
            var headers: HTTPFields = [.accessControlAllowOrigin: origin, .vary: "Origin",
                                       .accessControlAllowMethods: ["GET", "POST"].contains(method) ? method : "GET, POST",
                                       .accessControlMaxAge: Self.maxAge]
            if let asked = request.headers[.accessControlRequestHeaders] { headers[.accessControlAllowHeaders] = asked }
            return Response(status: .noContent, headers: headers)
        }
        // Runs outside CloudKitErrorMiddleware, so error dictionaries get the headers too: a page
        // must be able to read THROTTLED's retryAfter.
        var response = try await next(request, context)
        response.headers[.accessControlAllowOrigin] = origin
        response.headers[.accessControlExposeHeaders] = Self.exposedHeaders
        response.headers.append(HTTPField(name: .vary, value: "Origin"))
        return response
    }
}
