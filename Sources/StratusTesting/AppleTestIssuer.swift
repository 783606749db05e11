import Crypto
import Foundation
import Hummingbird
import JWTKit
import NIOCore
import StratusServer
import Synchronization
import CryptoExtras

/// A stand-in for Apple's identity service, for tests of Sign in with Apple: RSA keys of its own,
/// published as a JWKS on a loopback port, and identity tokens signed with them; the token
/// endpoint, exchanging the authorization codes it issues (``authorizationCode(for:)``) for
/// refresh tokens, and the revocation endpoint, each checking the server's client secret against
/// the Sign in with Apple key it gives the server (``configure(_:)``) and recording what it
/// received (``exchanges``, ``revocations``); and server-to-server notifications signed as Apple
/// signs them (``notification(_:subject:email:)``).
///
/// Point the server at it with ``configure(_:)``, then sign users in with tokens from ``token(subject:email:nonce:)``:
///
/// ```swift
/// try await AppleTestIssuer.with { apple in
///     try await TestCloud.with(configure: apple.configure) { cloud in
///         let token = try await apple.token(subject: "001234.abcd", email: "alice@privaterelay.appleid.com")
///         let user = try await cloud.container().signIn(appleIdentityToken: token)
///     }
/// }
/// ```
public actor AppleTestIssuer {
    /// The client ID tokens are issued for (their `aud`), which ``configure(_:)`` accepts.
    public nonisolated let clientID: String
    /// Where the keys are published.
    public nonisolated let keysURL: String
    /// Its base URL, which ``configure(_:)`` gives the server as Apple's.
    public nonisolated let baseURL: String
    /// The team the server's client secret must name as its issuer.
    public nonisolated let teamID = "TEAM123456"
    /// The ID of the key the server's client secret must be signed with (its `kid`).
    public nonisolated let keyID = "KEY7654321"
    private nonisolated let clientSecretKey = ES256PrivateKey()
    private nonisolated let ledger: Ledger
    private var signingKeys: [String: JWTKit.Insecure.RSA.PrivateKey]
    private var published: [String]
    private let document: KeysDocument
    /// The clock of the server last configured to trust this issuer: tokens are issued on its
    /// time, so a test that moves the server's clock gets tokens fresh for it.
    private nonisolated let serverClock = Mutex<ServerClock?>(nil)
    private let application: LoopbackApplication

    /// The claims of the tokens it signs, under Apple's names; every one may be set, to make
    /// tokens a server must refuse.
    public struct Claims: JWTPayload {
        enum CodingKeys: String, CodingKey {
            case issuer = "iss", audience = "aud", expires = "exp", issuedAt = "iat", subject = "sub"
            case nonce, email, emailVerified = "email_verified", codeHash = "c_hash"
        }

        /// `iss`: Apple's is `https://appleid.apple.com`.
        public var issuer: String
        /// `aud`: the app's client ID.
        public var audience: String
        /// `exp`.
        public var expires: Date
        /// `iat`.
        public var issuedAt: Date
        /// `sub`: Apple's identifier of the user.
        public var subject: String
        /// The SHA-256 (hex) of the app's nonce.
        public var nonce: String?
        /// The user's address or relay address.
        public var email: String?
        /// `email_verified`, a string as Apple sends it.
        public var emailVerified: String?
        /// `c_hash`, the hash of the authorization code issued with the token: different for every
        /// sign-in, so that no two tokens are alike (a server accepts each token once).
        public var codeHash: String? = UUID().uuidString

        /// Signing checks nothing: the server under test does.
        public func verify(using _: some JWTAlgorithm) throws {}

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(issuer, forKey: .issuer)
            try container.encode(audience, forKey: .audience)
            try container.encode(Int(expires.timeIntervalSince1970), forKey: .expires)
            try container.encode(Int(issuedAt.timeIntervalSince1970), forKey: .issuedAt)
            try container.encode(subject, forKey: .subject)
            try container.encodeIfPresent(nonce, forKey: .nonce)
            try container.encodeIfPresent(email, forKey: .email)
            try container.encodeIfPresent(emailVerified, forKey: .emailVerified)
            try container.encodeIfPresent(codeHash, forKey: .codeHash)
        }
    }

    /// The JWKS the endpoint serves, and how often it was asked for.
    private final class KeysDocument: Sendable {
        private let state = Mutex((json: Data("{\"keys\":[]}".utf8), requests: 0))

        func serve() -> Data {
            state.withLock { state in
                state.requests += 1
                return state.json
            }
        }

        func publish(_ json: Data) { state.withLock { $0.json = json } }
        var requestCount: Int { state.withLock { $0.requests } }
    }

    /// Starts an issuer, runs `body` with it, and stops it, whatever `body` does.
    public static func with<T: Sendable>(clientID: String = "dev.stratus.tests", _ body: (AppleTestIssuer) async throws -> T) async throws -> T {
        let issuer = try await start(clientID: clientID)
        let result: Result<T, any Error>
        do { result = .success(try await body(issuer)) } catch { result = .failure(error) }
        await issuer.stop()
        return try result.get()
    }

    /// Starts the endpoints with one key, `key-1`, published.
    public static func start(clientID: String = "dev.stratus.tests") async throws -> AppleTestIssuer {
        let document = KeysDocument()
        let ledger = Ledger()
        let box = Mutex<AppleTestIssuer?>(nil)
        let router = Router()
        router.get("auth/keys") { _, _ in
            Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(data: document.serve())))
        }
        router.post("auth/token") { request, _ in
            guard let issuer = box.withLock({ $0 }) else { throw HTTPError(.serviceUnavailable) }
            return try await issuer.exchange(LoopbackApplication.form(String(buffer: try await request.body.collect(upTo: 64 * 1024))))
        }
        router.post("auth/revoke") { request, _ in
            guard let issuer = box.withLock({ $0 }) else { throw HTTPError(.serviceUnavailable) }
            return try await issuer.revoke(LoopbackApplication.form(String(buffer: try await request.body.collect(upTo: 64 * 1024))))
        }
        let application = try await LoopbackApplication.start(router, label: "Apple test endpoints")
        let issuer = AppleTestIssuer(clientID: clientID, baseURL: "http://127.0.0.1:\(application.port)", document: document, ledger: ledger,
                                     application: application)
        box.withLock { $0 = issuer }
        try await issuer.addKey("key-1")
        return issuer
    }

    private init(clientID: String, baseURL: String, document: KeysDocument, ledger: Ledger, application: LoopbackApplication) {
        self.clientID = clientID
        self.baseURL = baseURL
        keysURL = baseURL + "/auth/keys"
        signingKeys = [:]
        published = []
        self.document = document
        self.ledger = ledger
        self.application = application
    }

    /// Stops the keys endpoint.
    public func stop() async {
        await application.stop()
    }

    /// Lets a server accept this issuer's tokens: its client ID (in every container) and keys URL,
    /// and no refetch interval, so that a key rotated in is fetched at once (a test of the
    /// interval sets one).
    /// The server is also given the Sign in with Apple key its client secret must be signed with,
    /// and a one-second wait before a revocation Apple did not answer is tried again.
    public nonisolated func configure(_ configuration: inout ServerConfiguration) {
        configuration.appleSignIn = AppleSignInConfiguration(clientIDsByContainer: [AppleSignInConfiguration.everyContainer: [clientID]])
        configuration.appleSignIn.baseURL = baseURL
        configuration.appleSignIn.refetchInterval = .zero
        configuration.appleSignIn.clientSecretKey = AppleClientSecretKey(teamID: teamID, keyID: keyID, privateKeyPEM: clientSecretKey.pemRepresentation)
        configuration.appleSignIn.revocationRetryInterval = .seconds(1)
        let clock = configuration.clock
        serverClock.withLock { $0 = clock }
    }

    /// Makes a new signing key and publishes it (as Apple does when it rotates keys), or, with
    /// `publishing: false`, keeps it unpublished: a key only a forger has.
    public func addKey(_ kid: String, publishing: Bool = true) throws {
        signingKeys[kid] = try JWTKit.Insecure.RSA.PrivateKey(backing: _RSA.Signing.PrivateKey(keySize: .bits2048))
        if publishing { published.append(kid) }
        try publish()
    }

    /// Stops publishing a key (its tokens no longer verify once a server fetches the keys again).
    public func withdrawKey(_ kid: String) throws {
        published.removeAll { $0 == kid }
        try publish()
    }

    /// How many times the keys were fetched.
    public nonisolated var keyRequests: Int { document.requestCount }

    /// An identity token as Apple issues it: signed with `key-1`, for ``clientID``, valid for ten
    /// minutes from now (on the configured server's clock), with the SHA-256 of `nonce` when one
    /// is given.
    public func token(subject: String, email: String? = nil, nonce: String? = nil) async throws -> String {
        try await sign(claims(subject: subject, email: email, nonce: nonce))
    }

    /// The claims ``token(subject:email:nonce:)`` signs, to change before ``sign(_:kid:)``.
    public nonisolated func claims(subject: String, email: String? = nil, nonce: String? = nil) -> Claims {
        let now = serverClock.withLock { $0 }?.date ?? Date()
        return Claims(issuer: "https://appleid.apple.com", audience: clientID, expires: now + 600, issuedAt: now, subject: subject,
                      nonce: nonce.map { SHA256.hash(data: Data($0.utf8)).map { String(format: "%02x", $0) }.joined() },
                      email: email, emailVerified: email == nil ? nil : "true")
    }

    /// Signs claims with RS256 and the key `kid` (published or not).
    public func sign(_ claims: Claims, kid: String = "key-1") async throws -> String {
        guard let key = signingKeys[kid] else { throw InProcessServerError(description: "no key \(kid)") }
        let keys = JWTKeyCollection()
        await keys.add(rsa: key, digestAlgorithm: .sha256, kid: JWKIdentifier(string: kid))
        return try await keys.sign(claims, kid: JWKIdentifier(string: kid))
    }

    private func publish() throws {
        let keys = try published.map { kid -> [String: String] in
            let (modulus, exponent) = try signingKeys[kid]!.publicKey.getKeyPrimitives()
            return ["kty": "RSA", "kid": kid, "use": "sig", "alg": "RS256", "n": Base64URL.encode(modulus), "e": Base64URL.encode(exponent)]
        }
        document.publish(try JSONSerialization.data(withJSONObject: ["keys": keys], options: [.sortedKeys]))
    }


    // MARK: The token and revocation endpoints

    /// A code exchange the token endpoint received.
    public struct Exchange: Sendable, Equatable {
        /// `client_id`.
        public var clientID: String
        /// `code`.
        public var code: String
        /// Whether `client_secret` was a JWT signed with the key ``configure(_:)`` gave, naming
        /// the team, key and client ID, for Apple, and valid now for at most six months.
        public var secretIsValid: Bool
        /// The refresh token answered, if the exchange succeeded.
        public var refreshToken: String?
    }

    /// A revocation the revocation endpoint received.
    public struct Revocation: Sendable, Equatable {
        /// `client_id`.
        public var clientID: String
        /// `token`.
        public var token: String
        /// `token_type_hint`.
        public var tokenTypeHint: String?
        /// As ``Exchange/secretIsValid``.
        public var secretIsValid: Bool
        /// Whether it was answered 200 (not refused as ``failRevocations(_:)`` asked).
        public var answered: Bool
    }

    /// What the endpoints received and issued.
    private final class Ledger: Sendable {
        struct State {
            var codes: [String: String] = [:]
            var exchanges: [Exchange] = []
            var revocations: [Revocation] = []
            var failingRevocations = 0
        }

        let state = Mutex(State())
    }

    /// An authorization code as Apple gives an app with an identity token for `subject`: valid
    /// once at the token endpoint.
    public nonisolated func authorizationCode(for subject: String) -> String {
        let code = "c" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "") + ".0.apple"
        ledger.state.withLock { $0.codes[code] = subject }
        return code
    }

    /// The code exchanges received, in order.
    public nonisolated var exchanges: [Exchange] { ledger.state.withLock { $0.exchanges } }
    /// The revocations received, in order.
    public nonisolated var revocations: [Revocation] { ledger.state.withLock { $0.revocations } }

    /// Answers the next `count` revocations 503 (Apple down), to see them tried again.
    public nonisolated func failRevocations(_ count: Int) {
        ledger.state.withLock { $0.failingRevocations = count }
    }

    /// The claims of the server's client secret.
    private struct ClientSecretClaims: JWTPayload {
        var iss: IssuerClaim
        var iat: IssuedAtClaim
        var exp: ExpirationClaim
        var aud: AudienceClaim
        var sub: SubjectClaim

        func verify(using _: some JWTAlgorithm) throws {}
    }

    /// Whether `secret` is a client secret the server may present for `clientID` now.
    private func isValidSecret(_ secret: String?, clientID: String?) async -> Bool {
        guard let secret, let clientID else { return false }
        let keys = JWTKeyCollection()
        await keys.add(ecdsa: clientSecretKey.publicKey, kid: JWKIdentifier(string: keyID))
        guard let claims = try? await keys.verify(secret, as: ClientSecretClaims.self) else { return false }
        let now = serverClock.withLock { $0 }?.date ?? Date()
        return claims.iss.value == teamID && claims.sub.value == clientID && claims.aud.value == ["https://appleid.apple.com"]
            && claims.exp.value > now && claims.iat.value <= now + 60 && claims.exp.value.timeIntervalSince(claims.iat.value) <= 15_777_000
    }

    private func exchange(_ form: [String: String]) async throws -> Response {
        let secretIsValid = await isValidSecret(form["client_secret"], clientID: form["client_id"])
        let subject = ledger.state.withLock { state in form["code"].flatMap { state.codes.removeValue(forKey: $0) } }
        var exchange = Exchange(clientID: form["client_id"] ?? "", code: form["code"] ?? "", secretIsValid: secretIsValid)
        defer { ledger.state.withLock { [exchange] in $0.exchanges.append(exchange) } }
        guard secretIsValid, form["client_id"] == clientID else { return try LoopbackApplication.json(["error": "invalid_client"], status: .badRequest) }
        guard form["grant_type"] == "authorization_code", let subject else {
            return try LoopbackApplication.json(["error": "invalid_grant", "error_description": "The code has expired or has been revoked."], status: .badRequest)
        }
        let refreshToken = "r" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "") + ".0.apple"
        exchange.refreshToken = refreshToken
        return try LoopbackApplication.json(["access_token": "a" + UUID().uuidString, "token_type": "Bearer", "expires_in": 3600,
                                             "refresh_token": refreshToken, "id_token": try await token(subject: subject)])
    }

    private func revoke(_ form: [String: String]) async throws -> Response {
        let secretIsValid = await isValidSecret(form["client_secret"], clientID: form["client_id"])
        let answered = ledger.state.withLock { state in
            let fails = state.failingRevocations > 0
            if fails { state.failingRevocations -= 1 }
            state.revocations.append(Revocation(clientID: form["client_id"] ?? "", token: form["token"] ?? "", tokenTypeHint: form["token_type_hint"],
                                                secretIsValid: secretIsValid, answered: !fails))
            return !fails
        }
        guard answered else { return Response(status: .serviceUnavailable) }
        guard secretIsValid, form["client_id"] == clientID else { return try LoopbackApplication.json(["error": "invalid_client"], status: .badRequest) }
        return Response(status: .ok)
    }

    // MARK: Notifications

    /// The claims of a server-to-server notification.
    public struct NotificationClaims: JWTPayload {
        /// The issuer: Apple's is `https://appleid.apple.com`.
        public var iss = "https://appleid.apple.com"
        /// The app's client ID.
        public var aud: String
        /// When it was issued (seconds since 1970).
        public var iat: Int
        /// Its unique ID.
        public var jti = UUID().uuidString
        /// The event, as the JSON string Apple sends.
        public var events: String

        public func verify(using _: some JWTAlgorithm) throws {}
    }

    /// The claims of a notification of `type` (`consent-revoked`, `account-delete`,
    /// `email-disabled`, …) for the Apple ID `subject`, to change before ``sign(notification:kid:)``.
    public nonisolated func notificationClaims(_ type: String, subject: String, email: String? = nil) throws -> NotificationClaims {
        let now = serverClock.withLock { $0 }?.date ?? Date()
        var event: [String: Any] = ["type": type, "sub": subject, "event_time": Int64(now.timeIntervalSince1970 * 1000)]
        if let email { (event["email"], event["is_private_email"]) = (email, "true") }
        let events = String(decoding: try JSONSerialization.data(withJSONObject: event, options: [.sortedKeys]), as: UTF8.self)
        return NotificationClaims(aud: clientID, iat: Int(now.timeIntervalSince1970), events: events)
    }

    /// The body Apple posts to the server's `apple/notifications`: `{"payload": JWS}`.
    public func notification(_ type: String, subject: String, email: String? = nil) async throws -> [String: String] {
        ["payload": try await sign(notification: notificationClaims(type, subject: subject, email: email))]
    }

    /// Signs a notification's claims with RS256 and the key `kid`.
    public func sign(notification claims: NotificationClaims, kid: String = "key-1") async throws -> String {
        guard let key = signingKeys[kid] else { throw InProcessServerError(description: "no key \(kid)") }
        let keys = JWTKeyCollection()
        await keys.add(rsa: key, digestAlgorithm: .sha256, kid: JWKIdentifier(string: kid))
        return try await keys.sign(claims, kid: JWKIdentifier(string: kid))
    }
}
