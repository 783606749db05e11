import HTTPTypes
import Hummingbird
import NIOCore
import StratusCore

/// Authenticates `/database/1/{container}/{environment}/{database}/…` requests as CloudKit does:
/// the container's `ckAPIToken` is required, and the user's session (the `ckWebAuthToken` or
/// `ckSession` query parameter, or `Authorization: Bearer`) is checked when present and demanded
/// by the services that need it —
/// unless the request is signed with a server-to-server key (``ServerKeyService``), which acts in
/// the public database alone.
struct DatabaseAuthenticator: RouterMiddleware {
    typealias Context = StratusRequestContext
    let auth: AuthService
    /// Server-to-server keys; nil where signed requests are not served (push registration).
    var serverKeys: ServerKeyService?
    /// The largest body read to check a signed request's signature.
    var maxRequestBytes = 0
    /// Where clients reach the server.
    let origin: ServerOrigin
    /// The database of routes whose path names none (`/device/1/…`); nil reads the path's.
    var scope: DatabaseScope?

    /// *Extension*: the header a client names its device in, recorded in `created`/`modified`.
    static let deviceIDHeader = HTTPField.Name("X-Stratus-Device-ID")!
    static let defaultDeviceID = "stratus"

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let (containerID, environment) = try Self.containerAndEnvironment(context)
        let databaseName = context.parameters.get("database") ?? ""
        guard let scope = self.scope ?? DatabaseScope(rawValue: databaseName) else {
            throw CloudKitError.badRequest("unknown database '\(databaseName)'; use public, private or shared")
        }
        var request = request
        let session: StoredSession?
        let user: String?
        if let serverKeys, let signed = Self.signature(request) {
            guard scope == .public else {
                throw CloudKitError.accessDenied("server-to-server keys act in the public database only")
            }
            let body: ByteBuffer
            do {
                body = try await request.collectBody(upTo: maxRequestBytes)
            } catch is NIOTooManyBytesError {
                throw CloudKitError.limitExceeded("request body is larger than \(maxRequestBytes) bytes")
            }
            try await serverKeys.authenticate(signed, body: body, subpath: request.uri.path, containerID: containerID)
            (session, user) = (nil, ServerKeyService.identity)
        } else {
            session = try await auth.authenticate(apiToken: Self.apiToken(request), webAuthToken: Self.webAuthToken(request),
                                                  containerID: containerID, environment: environment)
            user = session?.userRecordName
        }
        if let user { try auth.admitRequest(user: user, containerID: containerID) }
        var deviceID = request.headers[Self.deviceIDHeader] ?? Self.defaultDeviceID
        if deviceID.isEmpty || deviceID.utf8.count > 255 { deviceID = Self.defaultDeviceID }
        var context = context
        context.access = DatabaseAccess(containerID: containerID, environment: environment, scope: scope,
                                        userRecordName: user, deviceID: deviceID, origin: origin.of(request),
                                        session: session)
        return try await next(request, context)
    }

    static let keyIDHeader = HTTPField.Name("X-Apple-CloudKit-Request-KeyID")!
    static let dateHeader = HTTPField.Name("X-Apple-CloudKit-Request-ISO8601Date")!
    static let signatureHeader = HTTPField.Name("X-Apple-CloudKit-Request-SignatureV1")!

    /// The server-to-server signature headers, if the request names a key.
    static func signature(_ request: Request) -> ServerKeyService.Signature? {
        guard let keyID = request.headers[keyIDHeader] else { return nil }
        return ServerKeyService.Signature(keyID: keyID, date: request.headers[dateHeader] ?? "",
                                          signature: request.headers[signatureHeader] ?? "")
    }

    static func containerAndEnvironment(_ context: Context) throws(CloudKitError) -> (String, ContainerEnvironment) {
        let containerID = context.parameters.get("container") ?? ""
        let environmentName = context.parameters.get("environment") ?? ""
        guard let environment = ContainerEnvironment(rawValue: environmentName) else {
            throw .badRequest("unknown environment '\(environmentName)'; use development or production")
        }
        return (containerID, environment)
    }

    static func apiToken(_ request: Request) -> String? {
        request.uri.queryParameters["ckAPIToken"].map(String.init)
    }

    /// The request's API token percent-encoded for a link's query ("" without one), as the
    /// sign-in and account pages put it in the URLs they link to.
    static func escapedAPIToken(_ request: Request) -> String {
        (apiToken(request) ?? "").addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
    }

    /// The query parameters a session comes in: Apple's documented name, and the one CloudKit JS
    /// 1.x sends (reference, Part 8).
    static let sessionParameters = ["ckWebAuthToken", "ckSession"]

    /// The user token from a session parameter (``sessionParameters``) or an
    /// `Authorization: Bearer` header.
    static func webAuthToken(_ request: Request) -> String? {
        webAuthToken(query: { request.uri.queryParameters[Substring($0)].map(String.init) }, authorization: request.headers[.authorization])
    }

    /// The same, from a query read by `query` and an `Authorization` header.
    static func webAuthToken(query: (String) -> String?, authorization: String?) -> String? {
        for name in sessionParameters {
            if let token = query(name), !token.isEmpty { return token }
        }
        guard let authorization, authorization.lowercased().hasPrefix("bearer ") else { return nil }
        // Whitespace around a header's value is spaces and tabs (RFC 9110).
        var token = authorization.dropFirst(7)
        while let first = token.first, first == " " || first == "\t" { token = token.dropFirst() }
        while let last = token.last, last == " " || last == "\t" { token = token.dropLast() }
        return token.isEmpty ? nil : String(token)
    }
}
