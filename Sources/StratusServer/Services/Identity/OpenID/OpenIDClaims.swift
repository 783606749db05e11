import Foundation
import JWTKit

/// The claims of an OpenID Connect ID token (OIDC Core §2) the server reads; Sign in with Apple's
/// identity tokens are read as one too (their `nonce` is the SHA-256 of the app's).
///
/// Decoding checks only that the token names a user; ``OpenIDSignIn`` and ``AppleSignIn`` check the
/// rest (OIDC Core §3.1.3.7): the issuer, the audience and `azp`, the times on the server's clock,
/// the nonce.
struct OpenIDClaims: JWTPayload {
    enum CodingKeys: String, CodingKey {
        case issuer = "iss", audience = "aud", authorizedParty = "azp", expires = "exp", issuedAt = "iat", subject = "sub"
        case nonce, email, emailVerified = "email_verified"
    }

    /// How far the server's clock may be from an OpenID provider's.
    static let allowedSkew: TimeInterval = 5 * 60
    /// The oldest ID token accepted, by its `iat`.
    static let maxAge: TimeInterval = 24 * 3600

    var issuer: IssuerClaim
    var audience: AudienceClaim
    var authorizedParty: String?
    var expires: ExpirationClaim
    var issuedAt: IssuedAtClaim
    /// The provider's stable identifier of the user.
    var subject: SubjectClaim
    var nonce: String?
    var email: String?
    var emailVerified: BoolClaim?

    func verify(using _: some JWTAlgorithm) throws {
        guard !subject.value.isEmpty, subject.value.utf8.count <= 255 else {
            throw JWTError.claimVerificationFailure(failedClaim: subject, reason: "the token names no user")
        }
    }

    /// Why the token's lifetime is not acceptable at `now` on the server's clock (JWTKit's check
    /// reads the system's), with `skew` either way and, given a `maxAge`, no older; or nil.
    func timeProblem(at now: Date, skew: TimeInterval = allowedSkew, maxAge: TimeInterval? = Self.maxAge) -> String? {
        if expires.value < now - skew { return "the token has expired" }
        if issuedAt.value > now + skew { return "the token was issued in the future" }
        if let maxAge, issuedAt.value < now - maxAge { return "the token was issued more than a day ago" }
        return nil
    }

    /// Takes `token` (these claims') out of play in the replay store until it would have expired
    /// anyway, `skew` after `exp`, under `kind`; false when it was used already (on any instance).
    func useOnce(_ token: String, as kind: String, skew: TimeInterval, in storage: any StratusStorage, now: Int64) async throws -> Bool {
        let expiry = Int64((expires.value.timeIntervalSince1970 + skew) * 1000)
        let key = kind + " " + SecretGenerator.digest(token)
        return try await storage.write { try await $0.useOnce(key, until: expiry, now: now) }
    }

    /// The address as kept (``ProviderIdentity/keptEmail(_:)``), and whether the token says it is verified.
    var keptEmail: (email: String?, verified: Bool) {
        let kept = ProviderIdentity.keptEmail(email)
        return (kept, kept != nil && emailVerified?.value == true)
    }
}
