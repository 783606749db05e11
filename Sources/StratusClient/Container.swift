import Foundation
import StratusCore

/// A Stratus container as an app sees it (CloudKit's `CKContainer`): where the server is, which
/// container and environment, the app's API token, and the signed-in user's session.
///
/// Its three databases are values that send through the container, so they all see the current
/// session. Sign-in, sign-up and sign-out are Stratus extensions; a web auth token kept from an
/// earlier run can be handed back with ``restoreSession(webAuthToken:)``.
public actor Container {
    /// The server's base URL, such as `http://127.0.0.1:8080`.
    public nonisolated let baseURL: String
    /// The container's identifier, such as `iCloud.com.example.notes`.
    public nonisolated let containerIdentifier: String
    /// The environment: development or production.
    public nonisolated let environment: ContainerEnvironment
    /// The app's API token, sent with every request. It ships inside the app, so it is not a secret.
    public nonisolated let apiToken: String
    /// What carries the requests (``defaultTransport`` unless given one).
    public nonisolated let transport: any Transport
    /// Recorded by the server as the `deviceID` of this client's writes.
    public nonisolated let deviceID: String?
    /// Where fetched assets are downloaded (one file per checksum); nil leaves them on the server
    /// until ``CloudDatabase/downloadAsset(_:to:)`` is called.
    public nonisolated let assetCacheDirectory: URL?

    /// The signed-in user's `ckWebAuthToken`, if any.
    public private(set) var webAuthToken: String?
    /// The signed-in user's record name, once known.
    public private(set) var userRecordName: String?
    /// The username the session was signed in with, when known.
    public internal(set) var signedInUsername: String?

    /// A container on a server, optionally with a session kept from an earlier run (`webAuthToken`, `username`).
    ///
    /// The databases' requests go through `transport`; `deviceID` names this client in the server's
    /// records of its writes; fetched assets are downloaded to `assetCacheDirectory` when given.
    public init(baseURL: String, containerIdentifier: String, environment: ContainerEnvironment = .development, apiToken: String,
                transport: any Transport = Container.defaultTransport, deviceID: String? = nil, assetCacheDirectory: URL? = nil,
                webAuthToken: String? = nil, username: String? = nil) {
        self.webAuthToken = webAuthToken
        self.signedInUsername = username
        self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        self.containerIdentifier = containerIdentifier
        self.environment = environment
        self.apiToken = apiToken
        self.transport = transport
        self.deviceID = deviceID
        self.assetCacheDirectory = assetCacheDirectory
    }

    /// The transport a container uses unless given one: ``URLSessionTransport`` on Apple
    /// platforms, ``HTTPTransport`` (AsyncHTTPClient) elsewhere.
    public static var defaultTransport: any Transport {
        #if canImport(Darwin)
        URLSessionTransport()
        #else
        HTTPTransport()
        #endif
    }

    /// The signed-in user's private database.
    public nonisolated var privateCloudDatabase: CloudDatabase { CloudDatabase(container: self, scope: .private) }
    /// The container's public database, shared by every user.
    public nonisolated var publicCloudDatabase: CloudDatabase { CloudDatabase(container: self, scope: .public) }
    /// The records other users shared with the signed-in user, once accepted.
    public nonisolated var sharedCloudDatabase: CloudDatabase { CloudDatabase(container: self, scope: .shared) }
    /// The database with this scope.
    public nonisolated func database(with scope: DatabaseScope) -> CloudDatabase { CloudDatabase(container: self, scope: scope) }

    // MARK: Session

    /// Creates an account and signs in as it; returns the user's record name.
    @discardableResult
    public func signUp(username: String, password: String) async throws -> String {
        try await authenticate("signup", username: username, password: password)
    }

    /// Signs in; returns the user's record name.
    @discardableResult
    public func signIn(username: String, password: String) async throws -> String {
        try await authenticate("signin", username: username, password: password)
    }

    /// Signs in with Sign in with Apple: `appleIdentityToken` is the `identityToken` of the
    /// `ASAuthorizationAppleIDCredential` Apple gave the app, as text. When the app set the
    /// request's `nonce` to the SHA-256 of a nonce it generated, pass that nonce: the server checks
    /// the token carries its hash, so a token taken from elsewhere cannot be replayed. The first
    /// sign-in of an Apple ID creates its account. Pass the credential's `authorizationCode` too
    /// (as text): the server exchanges it for a refresh token, which it revokes at Apple when the
    /// account is deleted, as the App Store requires. Returns the user's record name.
    @discardableResult
    public func signIn(appleIdentityToken: String, nonce: String? = nil, authorizationCode: String? = nil) async throws -> String {
        let request = AppleSignInRequest(identityToken: appleIdentityToken, nonce: nonce, authorizationCode: authorizationCode)
        let body = try await send(path: authPath("apple"), body: .bytes(Array(try JSONEncoder().encode(request))))
        return adopt(try Self.decode(SignInResponse.self, from: body), username: nil)
    }

    /// Links an Apple ID (its identity token, and the nonce and authorization code as in
    /// ``signIn(appleIdentityToken:nonce:authorizationCode:)``) to the signed-in account, so that
    /// Sign in with Apple reaches it too.
    public func linkAppleID(identityToken: String, nonce: String? = nil, authorizationCode: String? = nil) async throws {
        let request = AppleSignInRequest(identityToken: identityToken, nonce: nonce, authorizationCode: authorizationCode)
        _ = try await send(path: authPath("apple/link"), body: .bytes(Array(try JSONEncoder().encode(request))))
    }

    /// Unlinks the signed-in account's Apple ID; refused while the account has no password to
    /// sign in with instead.
    public func unlinkAppleID() async throws {
        _ = try await send(path: authPath("apple/unlink"), body: .bytes(Array(try JSONEncoder().encode([String: String]()))))
    }

    /// Revokes the session on the server and forgets it.
    public func signOut() async throws {
        if webAuthToken != nil { _ = try await send(path: authPath("signout"), body: .bytes([])) }
        forgetSession()
    }

    /// "Forgot password": asks the server to mail a reset code to the account that verified
    /// `email`. It answers the same whether or not an account has the address; the code arrives by
    /// mail, valid 30 minutes and once (``resetPassword(code:newPassword:)``).
    public func requestPasswordReset(email: String) async throws {
        _ = try await send(path: authPath("password/forgot"), body: .bytes(Array(try JSONEncoder().encode(["email": email]))))
    }

    /// Asks the server to mail a sign-in code to `email` (a Stratus extension): it goes to the
    /// account that verified the address (or, where the server allows sign-up by code, to an
    /// address no account has). It answers the same whether or not a code is sent; the code is
    /// valid 10 minutes and once (``signIn(email:code:)``).
    public func requestSignInCode(email: String) async throws {
        _ = try await send(path: authPath("email/code"), body: .bytes(Array(try JSONEncoder().encode(["email": email]))))
    }

    /// Signs in with the code ``requestSignInCode(email:)`` mailed (a new account, for an address
    /// no account had, where the server allows it); returns the user's record name.
    @discardableResult
    public func signIn(email: String, code: String) async throws -> String {
        let body = try await send(path: authPath("email/signin"), body: .bytes(Array(try JSONEncoder().encode(["email": email, "code": code]))))
        return adopt(try Self.decode(SignInResponse.self, from: body), username: nil)
    }

    /// Sets a new password with a mailed reset code. Every session of the user ends, this
    /// container's too: sign in again with the new password.
    public func resetPassword(code: String, newPassword: String) async throws {
        _ = try await send(path: authPath("password/reset"), body: .bytes(Array(try JSONEncoder().encode(["code": code, "password": newPassword]))))
        forgetSession()
    }

    /// Forgets the session here (the server ended it, or is asked to).
    func forgetSession() {
        webAuthToken = nil
        userRecordName = nil
        signedInUsername = nil
    }

    /// Uses a web auth token kept from an earlier sign-in.
    public func restoreSession(webAuthToken: String) {
        self.webAuthToken = webAuthToken
        userRecordName = nil
    }

    /// The signed-in user's record name (CloudKit's `userRecordID`), asked of the server once.
    public func currentUserRecordName() async throws -> String {
        if let userRecordName { return userRecordName }
        let body = try await send(path: "/database/1/\(containerIdentifier)/\(environment.rawValue)/private/users/current", body: .none)
        let name = try Self.decode(CurrentUserResponse.self, from: body).userRecordName
        userRecordName = name
        return name
    }

    /// CloudKit's `tokens/create`: a token and the `webcourierURL` to long-poll for the signed-in
    /// user's notifications (each GET answers with one notification, or empty after a while).
    /// ``PushConnection`` is the persistent alternative.
    public func createPushToken(apnsEnvironment: String? = nil) async throws -> PushToken {
        let body = try await send(path: "/device/1/\(containerIdentifier)/\(environment.rawValue)/tokens/create",
                                  body: .bytes(Array(try JSONEncoder().encode(TokenCreateRequest(apnsEnvironment: apnsEnvironment)))))
        let token = try Self.decode(TokenCreateResponse.self, from: body)
        return PushToken(apnsEnvironment: token.apnsEnvironment, apnsToken: token.apnsToken, webcourierURL: token.webcourierURL)
    }

    private func authenticate(_ action: String, username: String, password: String) async throws -> String {
        let body = try await send(path: authPath(action), body: .bytes(Array(try JSONEncoder().encode(Credentials(username: username, password: password)))))
        return adopt(try Self.decode(SignInResponse.self, from: body), username: username)
    }

    /// Keeps the session a sign-in answered with; returns the user's record name.
    func adopt(_ response: SignInResponse, username: String?) -> String {
        webAuthToken = response.ckWebAuthToken
        userRecordName = response.userRecordName
        signedInUsername = username
        return response.userRecordName
    }

    func authPath(_ action: String) -> String {
        "/auth/1/\(containerIdentifier)/\(environment.rawValue)/\(action)"
    }

    // MARK: Sending

    /// Sends a request to a server path with the API token, the session and the device ID; returns
    /// the body of a 200 answer and throws any other as a ``CloudError``.
    func send(path: String, body: TransportRequest.Body) async throws -> [UInt8] {
        let response = try await transport.send(TransportRequest(
            method: body.isNone ? .get : .post, url: "\(baseURL)\(path)?ckAPIToken=\(apiToken)", headers: headers, body: body))
        guard response.status == 200 else { throw CloudError(status: response.status, body: response.body) }
        return response.body
    }

    /// The headers every request carries: the session and the device.
    var headers: [(String, String)] {
        var headers: [(String, String)] = [("Content-Type", "application/json")]
        if let webAuthToken { headers.append(("Authorization", "Bearer \(webAuthToken)")) }
        if let deviceID { headers.append(("X-Stratus-Device-ID", deviceID)) }
        return headers
    }

    static func decode<T: Decodable>(_ type: T.Type, from body: [UInt8]) throws -> T {
        do {
            if let readable = T.self as? any WireReadable.Type, let value = try readable.init(json: JSONParser.parse(body)) as? T {
                return value
            }
            return try JSONDecoder().decode(T.self, from: Data(body))
        } catch {
            throw CloudError(.internalError, "unexpected response from the server: \(error)")
        }
    }
}

extension TransportRequest.Body {
    var isNone: Bool { if case .none = self { true } else { false } }
}
