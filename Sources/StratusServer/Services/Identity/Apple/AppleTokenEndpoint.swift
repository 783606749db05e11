import Foundation
import StratusCore

/// The server's calls to Sign in with Apple's REST API (``AppleSignInConfiguration/baseURL``):
/// exchanging an app's authorization code for a refresh token (`/auth/token`) and revoking that
/// token (`/auth/revoke`), each with a fresh client secret (``AppleClientSecret``). Both go
/// through ``ProviderHTTP``: bounded, and `TRY_AGAIN_LATER` when Apple cannot be reached.
struct AppleTokenEndpoint: Sendable {
    let configuration: AppleSignInConfiguration
    let secret: AppleClientSecret
    let clock: ServerClock

    /// The longest authorization code accepted (Apple's are under 100 characters).
    static let maxCodeBytes = 1024

    /// A token endpoint when the operator gave the client secret's key; nil otherwise (then
    /// codes are not exchanged and nothing can be revoked).
    init?(configuration: AppleSignInConfiguration, clock: ServerClock) throws {
        guard let key = configuration.clientSecretKey else { return nil }
        self.configuration = configuration
        secret = try AppleClientSecret(key: key)
        self.clock = clock
    }

    /// What Apple answers a code exchange with (the fields the server reads).
    private struct TokenAnswer: Decodable {
        var refresh_token: String?
        var id_token: String?
        var error: String?
    }

    /// Exchanges `code`, obtained by the app `clientID` for the Apple ID `subject`, for a refresh
    /// token. `AUTHENTICATION_FAILED` when Apple refuses the code (used, expired, another app's)
    /// or answers for another user.
    func refreshToken(for code: String, clientID: String, subject: String) async throws -> String {
        let answer = try await ProviderHTTP.postForm(configuration.tokenURL, [
            ("client_id", clientID), ("client_secret", try await secret.secret(for: clientID, at: clock.date)),
            ("code", code), ("grant_type", "authorization_code"),
        ], provider: "Apple")
        let body = try? JSONDecoder().decode(TokenAnswer.self, from: answer.body)
        guard answer.status == 200, let body, let refreshToken = body.refresh_token, !refreshToken.isEmpty, refreshToken.utf8.count <= 4096 else {
            throw CloudKitError(.authenticationFailed, "Apple refused the authorization code (\(body?.error ?? "HTTP \(answer.status)")): sign in with Apple again for a new one")
        }
        // The ID token came straight from Apple over the connection the server opened (OpenID
        // Connect Core §3.1.3.7): its subject is read, to bind the code to the user it signs in.
        guard let idToken = body.id_token, OpenIDSignIn.subject(of: idToken) == subject else {
            throw CloudKitError(.authenticationFailed, "the authorization code is not for the Apple ID of the identity token")
        }
        return refreshToken
    }

    /// How Apple answered a revocation.
    enum Revocation: Equatable {
        /// Apple answered 200 (which it does for a token already revoked too), or refused the
        /// token itself: nothing is left to revoke.
        case done
        /// Apple refused the server's credentials (`invalid_client`, `unauthorized_client`): the
        /// operator's key is wrong; tried again until it is put right.
        case refusedCredentials(String)
    }

    /// Revokes `token`, a refresh token issued to `clientID`. Throws when Apple cannot be reached.
    func revoke(_ token: String, clientID: String) async throws -> Revocation {
        let answer = try await ProviderHTTP.postForm(configuration.revokeURL, [
            ("client_id", clientID), ("client_secret", try await secret.secret(for: clientID, at: clock.date)),
            ("token", token), ("token_type_hint", "refresh_token"),
        ], provider: "Apple")
        if answer.status == 200 { return .done }
        let error = (try? JSONDecoder().decode(TokenAnswer.self, from: answer.body))?.error
        if let error, ["invalid_client", "unauthorized_client"].contains(error) { return .refusedCredentials(error) }
        if error == nil, answer.status == 401 || answer.status == 403 { return .refusedCredentials("HTTP \(answer.status)") }
        return .done
    }
}
