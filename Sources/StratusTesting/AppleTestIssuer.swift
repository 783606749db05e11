import Crypto
import Foundation
import Hummingbird
import JWTKit
import NIOCore
import StratusServer
import Synchronization
import CryptoExtras

/// A stand-in for Apple's identity service, for tests of Sign in with Apple: RSA keys of its own,
/// published as a JWKS on a loopback port, and identity tokens signed with them.
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

    /// Starts the keys endpoint with one key, `key-1`, published.
    public static func start(clientID: String = "dev.stratus.tests") async throws -> AppleTestIssuer {
        let document = KeysDocument()
        let router = Router()
        router.get("auth/keys") { _, _ in
            Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(data: document.serve())))
        }
        let application = try await LoopbackApplication.start(router, label: "Apple keys endpoint")
        let issuer = AppleTestIssuer(clientID: clientID, keysURL: "http://127.0.0.1:\(application.port)/auth/keys", document: document,
                                     application: application)
        try await issuer.addKey("key-1")
        return issuer
    }

    private init(clientID: String, keysURL: String, document: KeysDocument, application: LoopbackApplication) {
        self.clientID = clientID
        self.keysURL = keysURL
        signingKeys = [:]
        published = []
        self.document = document
        self.application = application
    }

    /// Stops the keys endpoint.
    public func stop() async {
        await application.stop()
    }

    /// Lets a server accept this issuer's tokens: its client ID (in every container) and keys URL,
    /// and no refetch interval, so that a key rotated in is fetched at once (a test of the
    /// interval sets one).
    public nonisolated func configure(_ configuration: inout ServerConfiguration) {
        configuration.appleSignIn = AppleSignInConfiguration(clientIDsByContainer: [AppleSignInConfiguration.everyContainer: [clientID]])
        configuration.appleSignIn.keysURL = keysURL
        configuration.appleSignIn.refetchInterval = .zero
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

}
