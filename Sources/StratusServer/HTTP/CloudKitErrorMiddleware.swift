import Foundation
import HTTPTypes
import Hummingbird
import Logging
import StratusCore

/// Turns every failure into CloudKit's error dictionary with CloudKit's HTTP status, so no request
/// ends in a bare status or an empty body, and tags every response with `X-Apple-Request-UUID`.
struct CloudKitErrorMiddleware: RouterMiddleware {
    typealias Context = StratusRequestContext
    /// Where clients reach the server, for the sign-in page's URL.
    let origin: ServerOrigin

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let uuid = SecretGenerator.uuid()
        var response: Response
        do {
            response = try await next(request, context)
        } catch {
            let cloudKitError = Self.cloudKitError(for: error)
            ServerMetrics.answered(cloudKitError.code)
            if cloudKitError.code == .internalError {
                context.logger.error("request failed: \(String(reflecting: error))", metadata: ["uuid": .string(uuid)])
            } else {
                context.logger.debug("request refused: \(cloudKitError)", metadata: ["uuid": .string(uuid)])
            }
            var dictionary = ErrorDictionary(cloudKitError, uuid: uuid)
            if cloudKitError.code == .authenticationRequired, let redirect = signInURL(request) {
                dictionary.redirectURL = redirect
            }
            response = try JSONBody.response(dictionary, status: .init(code: cloudKitError.code.httpStatus))
            if let retryAfter = cloudKitError.retryAfter {
                response.headers[.retryAfter] = String(retryAfter)
            }
        }
        response.headers[Self.requestUUID] = uuid
        return response
    }

    static let requestUUID = HTTPField.Name("X-Apple-Request-UUID")!

    /// Maps any error to a CloudKit one; anything unexpected is `INTERNAL_ERROR` (and logged).
    static func cloudKitError(for error: any Error) -> CloudKitError {
        switch error {
        case let error as CloudKitError:
            return error
        case let error as HTTPResponseError:
            switch error.status {
            case .notFound: return .notFound("no such endpoint")
            case .methodNotAllowed: return .badRequest("method not allowed for this endpoint")
            case .contentTooLarge: return .limitExceeded("request body is too large")
            case .badRequest: return .badRequest("bad request")
            case .unauthorized: return CloudKitError(.authenticationFailed, "authentication failed")
            default: return CloudKitError(.internalError, "internal error")
            }
        default:
            return CloudKitError(.internalError, "internal error")
        }
    }

    /// Where a user signs in: the sign-in page of the same container and environment
    /// (``SignInPageRoutes``), with the request's API token and, for a page's request, its origin,
    /// to which the page hands the session.
    private func signInURL(_ request: Request) -> String? {
        let parts = request.uri.path.split(separator: "/")
        guard parts.count >= 4, parts[0] == "database" || parts[0] == "device" else { return nil }
        var url = "\(origin.of(request))/auth/1/\(parts[2])/\(parts[3])/web/signin"
        var query: [String] = []
        if let token = DatabaseAuthenticator.apiToken(request) { query.append("ckAPIToken=\(Self.queryValue(token))") }
        if let page = request.headers[.origin].flatMap(WebOrigin.normalized) { query.append("origin=\(Self.queryValue(page))") }
        if !query.isEmpty { url += "?" + query.joined(separator: "&") }
        return url
    }

    private static func queryValue(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~"))) ?? text
    }
}
