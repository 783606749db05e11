import Foundation
import JWTKit

/// The claims of a Sign in with Apple identity token, under Apple's names.
///
/// Decoding checks what needs no configuration: the issuer is Apple and the token names a user.
/// ``AppleSignIn`` checks the rest: the token has not expired and was not issued in the future on
/// the server's clock (``verifyTimes(at:)``, each with ``allowedSkew``), the audience is one of the
/// app's client IDs, and the nonce is the one the client sent.
struct AppleIdentityClaims: JWTPayload {
    enum CodingKeys: String, CodingKey {
        case issuer = "iss", audience = "aud", expires = "exp", issuedAt = "iat", subject = "sub"
        case nonce, email, emailVerified = "email_verified"
    }

    static let issuerName = "https://appleid.apple.com"
    /// How far the server's clock may be from Apple's.
    static let allowedSkew: TimeInterval = 60

    var issuer: IssuerClaim
    var audience: AudienceClaim
    var expires: ExpirationClaim
    var issuedAt: IssuedAtClaim
    /// Apple's identifier of the user, stable for the app's team.
    var subject: SubjectClaim
    /// The SHA-256 (hex) of the nonce the app generated, when it gave Apple one.
    var nonce: String?
    /// The user's address, or a private relay address (`…@privaterelay.appleid.com`).
    var email: String?
    var emailVerified: BoolClaim?

    func verify(using _: some JWTAlgorithm) throws {
        guard issuer.value == Self.issuerName else {
            throw JWTError.claimVerificationFailure(failedClaim: issuer, reason: "the token was not issued by Apple")
        }
        guard !subject.value.isEmpty, subject.value.utf8.count <= 255 else {
            throw JWTError.claimVerificationFailure(failedClaim: subject, reason: "the token names no user")
        }
    }

    /// Checks the token's lifetime against the server's clock (JWTKit's check reads the system's).
    func verifyTimes(at now: Date) throws {
        try expires.verifyNotExpired(currentDate: now - Self.allowedSkew)
        guard issuedAt.value <= now + Self.allowedSkew else {
            throw JWTError.claimVerificationFailure(failedClaim: issuedAt, reason: "the token was issued in the future")
        }
    }
}
