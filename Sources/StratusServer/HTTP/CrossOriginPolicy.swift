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
    /// What a page may read of an answer: the request's UUID, `Retry-After`, and a rotated session
    /// under both names CloudKit JS and Apple's documentation use.
    static let exposedHeaders = "X-Apple-Request-UUID, Retry-After, X-Apple-CloudKit-Session, X-Apple-CloudKit-Web-Auth-Token"

    /// Whether a browser page of `origin` may call the server.
    static func allows(_ origin: String, in allowed: Set<String>) -> Bool {
        allowed.contains("*") || allowed.contains(origin)
    }

    /// Whether a WebSocket upgrade's `Origin` header is allowed. Apps are not browsers: they send
    /// none, or (as swift-websocket's client does) the `ws:`/`wss:` URL they connect to, which no
    /// browser page has as its origin. A page's origin must be one of `allowed` or the server's
    /// public URL (`--public-url`), compared by scheme, host and port (a scheme's default port
    /// spelled or not). The request's `Host` is never trusted: any page can reach the server under
    /// a name of its choosing.
    static func admitsUpgrade(origin header: String?, allowed: Set<String>, publicURL: String?) -> Bool {
        guard let header else { return true }
        if allowed.contains("*") { return true }
        let admitted = Set(allowed.compactMap(normalized) + [publicURL.flatMap(normalized)].compactMap { $0 })
        return header.split(separator: ",").allSatisfy { part in
            guard let origin = normalized(part.trimmingCharacters(in: .whitespaces)) else { return false }
            return origin.hasPrefix("ws://") || origin.hasPrefix("wss://") || admitted.contains(origin)
        }
    }

    /// `scheme://host[:port]` in lowercase, without a default port; nil for anything that names
    /// no host (`null`, a path).
    static func normalized(_ origin: String) -> String? {
        guard let url = URLComponents(string: origin), let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased(),
              !host.isEmpty else { return nil }
        let defaultPort = ["http": 80, "ws": 80, "https": 443, "wss": 443][scheme]
        let port = url.port.flatMap { $0 == defaultPort ? nil : $0 }
        return "\(scheme)://\(host)" + (port.map { ":\($0)" } ?? "")
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
