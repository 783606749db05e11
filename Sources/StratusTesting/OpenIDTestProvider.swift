import Crypto
import Foundation
import Hummingbird
import JWTKit
import NIOCore
import StratusServer
import Synchronization

/// A stand-in for an OpenID provider and for GitHub's OAuth and API, on a loopback port, for
/// tests of OpenID Connect and GitHub sign-in: discovery, a JWKS (an ES256 key), an authorization
/// endpoint that approves the user a test chose, a token endpoint that checks the client, the
/// code's `redirect_uri` and its PKCE verifier (S256) as a real provider does, and GitHub's
/// `/login/oauth/*`, `/user` and `/user/emails`. It records every code exchange, so a test sees
/// what the server sent.
///
/// ```swift
/// try await OpenIDTestProvider.with { provider in
///     try await TestCloud.with(configure: { provider.configure(&$0, signUp: true) }) { cloud in
///         let nonce = UUID().uuidString
///         let token = try await provider.idToken(provider.claims(subject: "alice", nonce: nonce))
///         try await cloud.container().signIn(provider: "corp", idToken: token, nonce: nonce)
///     }
/// }
/// ```
///
/// `scripts/check-oidc.sh` runs the same flows against a real provider from PyPI.
public final class OpenIDTestProvider: Sendable {
    /// The issuer, `http://127.0.0.1:PORT`.
    public let issuer: String
    /// The client ID of the web flow, which ``configure(_:signUp:)`` registers with the server.
    public let clientID = "stratus-web"
    /// A native app's client ID, also accepted in ID tokens.
    public let nativeClientID = "stratus-ios"
    /// The client secret of both providers.
    public let clientSecret = "test-secret-of-the-stratus-web-client"
    private let key = ES256PrivateKey()
    private let state = Mutex(State())
    private let application: LoopbackApplication

    /// A user the provider vouches for.
    public struct User: Sendable {
        /// The `sub` of its ID tokens (its `login` at GitHub).
        public var subject: String
        /// Its address (GitHub's primary one), if any.
        public var email: String?
        /// Whether the provider says ``email`` is verified.
        public var emailVerified: Bool
        /// GitHub's numeric `id`.
        public var gitHubID: Int64

        /// A user of that subject, address and GitHub `id`.
        public init(subject: String, email: String? = nil, emailVerified: Bool = true, gitHubID: Int64 = 0) {
            self.subject = subject
            self.email = email
            self.emailVerified = emailVerified
            self.gitHubID = gitHubID
        }
    }

    /// What tests can bend.
    public struct Faults: Sendable {
        /// The token endpoint checks the verifier against another challenge (a wrong verifier).
        public var wrongChallenge = false
        /// The authorization answers `error=access_denied`.
        public var denies = false
        /// The ID token carries another nonce than the one asked for.
        public var wrongNonce = false
        /// Bends nothing.
        public init() {}
    }

    private struct Grant {
        var clientID: String
        var redirectURI: String
        var challenge: String
        var nonce: String?
        var user: User
    }

    private struct State {
        var user = User(subject: "alice", email: "alice@example.com")
        var faults = Faults()
        var grants: [String: Grant] = [:]
        var accessTokens: [String: User] = [:]
        var exchanges: [[String: String]] = []
        var keyRequests = 0
    }

    /// The claims of the ID tokens it signs; every one may be set, to make tokens a server must refuse.
    public struct Claims: JWTPayload {
        enum CodingKeys: String, CodingKey {
            case issuer = "iss", audience = "aud", authorizedParty = "azp", expires = "exp", issuedAt = "iat", subject = "sub"
            case nonce, email, emailVerified = "email_verified", tokenID = "jti"
        }

        /// `iss`.
        public var issuer: String
        /// `aud`: one client ID is written as a string, several as an array.
        public var audience: [String]
        /// `azp`.
        public var authorizedParty: String?
        /// `exp`.
        public var expires: Date
        /// `iat`.
        public var issuedAt: Date
        /// `sub`.
        public var subject: String
        /// `nonce`, as the request carried it.
        public var nonce: String?
        /// `email`.
        public var email: String?
        /// `email_verified`.
        public var emailVerified: Bool?
        /// Different for every token, so that no two are alike (a server accepts each once).
        public var tokenID = UUID().uuidString

        /// Signing checks nothing: the server under test does.
        public func verify(using _: some JWTAlgorithm) throws {}

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(issuer, forKey: .issuer)
            if audience.count == 1 { try container.encode(audience[0], forKey: .audience) } else { try container.encode(audience, forKey: .audience) }
            try container.encodeIfPresent(authorizedParty, forKey: .authorizedParty)
            try container.encode(Int(expires.timeIntervalSince1970), forKey: .expires)
            try container.encode(Int(issuedAt.timeIntervalSince1970), forKey: .issuedAt)
            try container.encode(subject, forKey: .subject)
            try container.encodeIfPresent(nonce, forKey: .nonce)
            try container.encodeIfPresent(email, forKey: .email)
            try container.encodeIfPresent(emailVerified, forKey: .emailVerified)
            try container.encode(tokenID, forKey: .tokenID)
        }
    }

    /// Starts a provider, runs `body` with it, and stops it, whatever `body` does.
    public static func with<T: Sendable>(_ body: (OpenIDTestProvider) async throws -> T) async throws -> T {
        let provider = try await start()
        let result: Result<T, any Error>
        do { result = .success(try await body(provider)) } catch { result = .failure(error) }
        await provider.stop()
        return try result.get()
    }

    /// Starts the provider on a free loopback port.
    public static func start() async throws -> OpenIDTestProvider {
        let box = Mutex<OpenIDTestProvider?>(nil)
        let router = Router()
        @Sendable func provider() throws -> OpenIDTestProvider {
            guard let provider = box.withLock({ $0 }) else { throw HTTPError(.serviceUnavailable) }
            return provider
        }
        router.get(".well-known/openid-configuration") { _, _ in try provider().json(provider().discovery) }
        router.get("jwks") { _, _ in try provider().jwks() }
        router.get("authorize") { request, _ in try provider().authorize(request, gitHub: false) }
        router.post("token") { request, _ in try await provider().exchange(request, gitHub: false) }
        router.get("userinfo") { request, _ in try provider().userinfo(request) }
        router.get("login/oauth/authorize") { request, _ in try provider().authorize(request, gitHub: true) }
        router.post("login/oauth/access_token") { request, _ in try await provider().exchange(request, gitHub: true) }
        router.get("api/user") { request, _ in try provider().gitHubUser(request, emails: false) }
        router.get("api/user/emails") { request, _ in try provider().gitHubUser(request, emails: true) }
        let application = try await LoopbackApplication.start(router, label: "OpenID test provider")
        let provider = OpenIDTestProvider(issuer: "http://127.0.0.1:\(application.port)", application: application)
        box.withLock { $0 = provider }
        return provider
    }

    private init(issuer: String, application: LoopbackApplication) {
        self.issuer = issuer
        self.application = application
    }

    /// Stops the provider.
    public func stop() async {
        await application.stop()
    }

    /// Registers the provider with a server in every container: `corp` (OpenID Connect, at
    /// ``issuer``) and `github` (GitHub's OAuth, at ``issuer`` and `issuer/api`), both
    /// confidential clients, signing up new users when `signUp`.
    public func configure(_ configuration: inout ServerConfiguration, signUp: Bool = false) {
        configuration.openID = OpenIDConfiguration(providersByContainer: [AppleSignInConfiguration.everyContainer: [
            .init(name: "corp", kind: .openID(issuer: issuer), clientIDs: [clientID, nativeClientID], clientSecret: clientSecret, allowsSignUp: signUp),
            .init(name: "github", kind: .gitHub(webURL: issuer, apiURL: issuer + "/api"), clientIDs: [clientID], clientSecret: clientSecret,
                  allowsSignUp: signUp),
        ]])
        configuration.openID.refetchInterval = .zero
    }

    /// Sets the user the next authorizations approve.
    public func signIn(as user: User) { state.withLock { $0.user = user } }

    /// Sets what the provider bends.
    public func setFaults(_ faults: Faults) { state.withLock { $0.faults = faults } }

    /// Every code exchange the token endpoints took, oldest first: its form fields, and
    /// `authorization` (the HTTP header) when it had one.
    public var exchanges: [[String: String]] { state.withLock { $0.exchanges } }

    /// How many times the keys were fetched.
    public var keyRequests: Int { state.withLock { $0.keyRequests } }

    /// Claims as the provider issues them for a native app: for ``nativeClientID``, valid ten
    /// minutes from `now`.
    public func claims(subject: String, email: String? = nil, emailVerified: Bool? = nil, nonce: String?, now: Date = Date()) -> Claims {
        Claims(issuer: issuer, audience: [nativeClientID], authorizedParty: nativeClientID, expires: now + 600, issuedAt: now, subject: subject,
               nonce: nonce, email: email, emailVerified: email == nil ? nil : (emailVerified ?? true))
    }

    /// Signs claims with the provider's ES256 key (`key-1`), or with `key` and `kid` (a key it
    /// does not publish).
    public func idToken(_ claims: Claims, kid: String = "key-1") async throws -> String {
        let keys = JWTKeyCollection()
        if kid == "key-1" {
            await keys.add(ecdsa: key, kid: JWKIdentifier(string: kid))
        } else {
            await keys.add(ecdsa: ES256PrivateKey(), kid: JWKIdentifier(string: kid))
        }
        return try await keys.sign(claims, kid: JWKIdentifier(string: kid))
    }

    /// Claims signed with HS256 under a secret, as a forger who knows the client secret would.
    public func macToken(_ claims: Claims) async throws -> String {
        let keys = JWTKeyCollection()
        await keys.add(hmac: HMACKey(from: clientSecret), digestAlgorithm: .sha256, kid: JWKIdentifier(string: "key-1"))
        return try await keys.sign(claims, kid: JWKIdentifier(string: "key-1"))
    }

    /// Claims with `alg: none` and no signature.
    public func unsignedToken(_ claims: Claims) throws -> String {
        let header = Data(#"{"alg":"none","kid":"key-1","typ":"JWT"}"#.utf8)
        return Base64URL.encode(header) + "." + Base64URL.encode(try JSONEncoder().encode(claims)) + "."
    }

    // MARK: Endpoints

    private var discovery: [String: Any] {
        ["issuer": issuer, "authorization_endpoint": issuer + "/authorize", "token_endpoint": issuer + "/token", "jwks_uri": issuer + "/jwks",
         "userinfo_endpoint": issuer + "/userinfo", "response_types_supported": ["code"], "subject_types_supported": ["public"],
         "id_token_signing_alg_values_supported": ["ES256"], "code_challenge_methods_supported": ["S256"],
         "token_endpoint_auth_methods_supported": ["client_secret_basic", "client_secret_post"]]
    }

    private func jwks() throws -> Response {
        state.withLock { $0.keyRequests += 1 }
        guard let parameters = key.parameters else { throw HTTPError(.internalServerError) }
        return try json(["keys": [["kty": "EC", "crv": "P-256", "kid": "key-1", "use": "sig", "alg": "ES256", "x": parameters.x, "y": parameters.y]]])
    }

    /// Approves the chosen user at once (no login form): a redirect to `redirect_uri` with a code
    /// and the state.
    private func authorize(_ request: Request, gitHub: Bool) throws -> Response {
        let query = request.uri.queryParameters
        guard let redirectURI = query["redirect_uri"].map(String.init), let clientID = query["client_id"].map(String.init),
              let state = query["state"].map(String.init) else { throw HTTPError(.badRequest, message: "redirect_uri, client_id and state are required") }
        guard clientID == self.clientID, gitHub || query["response_type"] == "code", query["code_challenge_method"] == "S256",
              let challenge = query["code_challenge"].map(String.init) else {
            throw HTTPError(.badRequest, message: "a code flow of client \(self.clientID) with an S256 challenge is required")
        }
        let separator = redirectURI.contains("?") ? "&" : "?"
        let (faults, user) = self.state.withLock { ($0.faults, $0.user) }
        if faults.denies {
            return Response(status: .found, headers: [.location: redirectURI + separator + "error=access_denied&state=" + Self.escaped(state)])
        }
        let code = UUID().uuidString
        self.state.withLock {
            $0.grants[code] = Grant(clientID: clientID, redirectURI: redirectURI, challenge: challenge, nonce: query["nonce"].map(String.init), user: user)
        }
        return Response(status: .found, headers: [.location: redirectURI + separator + "code=" + code + "&state=" + Self.escaped(state)])
    }

    /// Exchanges a code: the client authenticated (HTTP Basic or in the form), the code unused,
    /// the same `redirect_uri`, and SHA-256 of the verifier equal to the challenge.
    private func exchange(_ request: Request, gitHub: Bool) async throws -> Response {
        let body = try await request.body.collect(upTo: 64 * 1024)
        var form = LoopbackApplication.form(String(buffer: body))
        if let authorization = request.headers[.authorization] {
            form["authorization"] = authorization
            if let decoded = Data(base64Encoded: String(authorization.dropFirst("Basic ".count))).map({ String(decoding: $0, as: UTF8.self) }) {
                let pair = decoded.split(separator: ":", maxSplits: 1).map { String($0).removingPercentEncoding ?? String($0) }
                if pair.count == 2 { (form["client_id"], form["client_secret"]) = (pair[0], pair[1]) }
            }
        }
        let recorded = form
        let (grant, faults) = state.withLock { state in
            state.exchanges.append(recorded)
            return (form["code"].flatMap { state.grants.removeValue(forKey: $0) }, state.faults)
        }
        func refuse(_ error: String) throws -> Response {
            try json(["error": error, "error_description": "refused: \(error)"], status: gitHub ? .ok : .badRequest)
        }
        guard form["client_id"] == clientID, form["client_secret"] == clientSecret else { return try refuse("invalid_client") }
        guard let grant, gitHub || form["grant_type"] == "authorization_code", form["redirect_uri"] == grant.redirectURI else {
            return try refuse("invalid_grant")
        }
        let verifier = form["code_verifier"] ?? ""
        let expected = faults.wrongChallenge ? "x" + grant.challenge : grant.challenge
        guard Base64URL.encode(Data(SHA256.hash(data: Data(verifier.utf8)))) == expected else { return try refuse("invalid_grant") }
        let accessToken = UUID().uuidString
        state.withLock { $0.accessTokens[accessToken] = grant.user }
        if gitHub { return try json(["access_token": accessToken, "token_type": "bearer", "scope": "read:user,user:email"]) }
        var claims = self.claims(subject: grant.user.subject, nonce: faults.wrongNonce ? "another nonce" : grant.nonce)
        claims.audience = [clientID]
        claims.authorizedParty = clientID
        return try json(["access_token": accessToken, "token_type": "Bearer", "expires_in": 600, "id_token": try await idToken(claims)])
    }

    /// The userinfo endpoint: the access token's user, with the email (the ID tokens of the web
    /// flow carry none, as some providers' do not).
    private func userinfo(_ request: Request) throws -> Response {
        guard let user = bearer(request) else { return Response(status: .unauthorized) }
        var info: [String: Any] = ["sub": user.subject]
        info["email"] = user.email
        info["email_verified"] = user.email == nil ? nil : user.emailVerified
        return try json(info)
    }

    /// GitHub's `/user` (`id`, `login`) and `/user/emails`, for the access token's user.
    private func gitHubUser(_ request: Request, emails: Bool) throws -> Response {
        guard let user = bearer(request) else { return try json(["message": "Bad credentials"], status: .unauthorized) }
        guard request.headers[.userAgent] != nil else { return try json(["message": "a User-Agent is required"], status: .forbidden) }
        guard emails else { return try json(["id": user.gitHubID, "login": user.subject]) }
        var listed: [[String: Any]] = [["email": "\(user.subject)@users.noreply.github.com", "verified": true, "primary": false]]
        if let email = user.email { listed.insert(["email": email, "verified": user.emailVerified, "primary": true], at: 0) }
        return try json(listed)
    }

    private func bearer(_ request: Request) -> User? {
        guard let header = request.headers[.authorization], header.hasPrefix("Bearer ") else { return nil }
        return state.withLock { $0.accessTokens[String(header.dropFirst("Bearer ".count))] }
    }

    private func json(_ object: Any, status: HTTPResponse.Status = .ok) throws -> Response {
        try LoopbackApplication.json(object, status: status)
    }

    private static func escaped(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~"))) ?? text
    }

}
