import HTTPTypes
import Hummingbird
import StratusCore

/// Authenticates `/database/1/{container}/{environment}/{database}/…` requests as CloudKit does:
/// the container's `ckAPIToken` is always required; the user's `ckWebAuthToken` (query parameter
/// or `Authorization: Bearer`) is checked when present and demanded by the services that need it.
struct DatabaseAuthenticator: RouterMiddleware {
    typealias Context = StratusRequestContext
    let auth: AuthService
    /// The configured public URL of the server; nil derives it from the request's `Host`.
    let publicURL: String?
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
        let session = try await auth.authenticate(apiToken: Self.apiToken(request), webAuthToken: Self.webAuthToken(request),
                                                  containerID: containerID, environment: environment)
        if let session { try auth.admitRequest(user: session.userRecordName, containerID: containerID) }
        var deviceID = request.headers[Self.deviceIDHeader] ?? Self.defaultDeviceID
        if deviceID.isEmpty || deviceID.utf8.count > 255 { deviceID = Self.defaultDeviceID }
        var context = context
        context.access = DatabaseAccess(containerID: containerID, environment: environment, scope: scope,
                                        userRecordName: session?.userRecordName, deviceID: deviceID, origin: origin(of: request),
                                        session: session)
        return try await next(request, context)
    }

    /// Where the caller reached the server: the scheme and authority asset URLs start with.
    private func origin(of request: Request) -> String {
        if let publicURL { return publicURL.hasSuffix("/") ? String(publicURL.dropLast()) : publicURL }
        return "http://" + (request.head.authority ?? "127.0.0.1")
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

    /// The user token from `ckWebAuthToken` or an `Authorization: Bearer` header.
    static func webAuthToken(_ request: Request) -> String? {
        if let token = request.uri.queryParameters["ckWebAuthToken"], !token.isEmpty { return String(token) }
        guard let authorization = request.headers[.authorization], authorization.lowercased().hasPrefix("bearer ") else { return nil }
        let token = authorization.dropFirst(7).trimmingCharacters(in: .whitespaces)
        return token.isEmpty ? nil : token
    }
}
