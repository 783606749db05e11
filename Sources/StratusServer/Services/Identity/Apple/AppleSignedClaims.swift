import Foundation
import JWTKit
import StratusCore

/// What Apple signs for an app: an identity token's claims, or a server-to-server notification's.
protocol AppleSignedClaims: JWTPayload {
    /// The `iss` claim.
    var issuerName: String { get }
    /// The `aud` claim: the app's client IDs.
    var audiences: [String] { get }
    /// Why the claims are not current at `now`, with `skew` either way; nil when they are.
    func timeProblem(at now: Date, skew: TimeInterval) -> String?
}

extension AppleSignIn {
    /// The claims of `jws`, checked as Apple signs them: RS256 with a key Apple publishes, issued
    /// by Apple, current, and for the container's client IDs only. `AUTHENTICATION_FAILED` names
    /// the first check that fails, and the token as `what` ("the identity token").
    func verifiedClaims<Claims: AppleSignedClaims>(of jws: String, as _: Claims.Type, containerID: String, what: String) async throws -> Claims {
        let clientIDs = configuration.clientIDs(for: containerID)
        guard !clientIDs.isEmpty else {
            throw CloudKitError.badRequest("Sign in with Apple is not set up for this container (its operator gives --apple-client-id)")
        }
        guard let header = OpenIDSignIn.header(of: jws) else { throw Self.failed("\(what) is not a token from Apple") }
        guard header.alg == "RS256" else { throw Self.failed("\(what) must be signed with RS256") }
        guard let kid = header.kid, !kid.isEmpty, kid.utf8.count <= 256 else { throw Self.failed("\(what) names no key") }
        let claims: Claims
        do {
            claims = try await publishedKeys.keys(for: kid, algorithm: "RS256").verify(jws, as: Claims.self)
        } catch let error as CloudKitError {
            throw error
        } catch {
            throw Self.failed("\(what) is not valid: \(error)")
        }
        guard claims.issuerName == Self.issuerName else { throw Self.failed("\(what) was not issued by Apple") }
        if let problem = claims.timeProblem(at: clock.date, skew: Self.allowedSkew) {
            throw Self.failed("\(what) is not valid: \(problem)")
        }
        guard !claims.audiences.isEmpty, claims.audiences.allSatisfy(clientIDs.contains) else {
            throw Self.failed("\(what) is for another app (aud \(claims.audiences.joined(separator: ", ")))")
        }
        return claims
    }

    static func failed(_ reason: String) -> CloudKitError {
        CloudKitError(.authenticationFailed, reason)
    }
}

extension OpenIDClaims: AppleSignedClaims {
    var issuerName: String { issuer.value }
    var audiences: [String] { audience.value }

    func timeProblem(at now: Date, skew: TimeInterval) -> String? {
        timeProblem(at: now, skew: skew, maxAge: nil)
    }
}
