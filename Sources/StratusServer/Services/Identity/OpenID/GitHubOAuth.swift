import Foundation
import StratusCore

/// GitHub's OAuth, which has no ID token: the code is exchanged for an access token at
/// `{webURL}/login/oauth/access_token` (with the PKCE verifier, which GitHub checks when the
/// authorization carried a challenge), and the user is read from `{apiURL}/user` (the numeric `id`
/// is the stable key) and `{apiURL}/user/emails` (only `verified` addresses count, the primary
/// first).
enum GitHubOAuth {
    /// The scopes asked for: the profile and the addresses.
    static let scope = "read:user user:email"

    /// The authorization URL of a web sign-in.
    static func authorizationURL(webURL: String, clientID: String, redirectURI: String, state: String, challenge: String) -> String {
        webURL + "/login/oauth/authorize?" + ProviderHTTP.formEncoded([
            ("client_id", clientID), ("redirect_uri", redirectURI), ("scope", scope), ("state", state),
            ("code_challenge", challenge), ("code_challenge_method", "S256"), ("allow_signup", "true"),
        ])
    }

    /// Exchanges `code` and reads whom it signs in.
    static func identity(of provider: OpenIDConfiguration.Provider, webURL: String, apiURL: String, code: String, verifier: String,
                         redirectURI: String) async throws -> ProviderIdentity {
        let name = "GitHub"
        var fields = [("client_id", provider.clientIDs[0]), ("code", code), ("redirect_uri", redirectURI), ("code_verifier", verifier)]
        if let secret = provider.clientSecret { fields.append(("client_secret", secret)) }
        let exchange = try await ProviderHTTP.postForm(webURL + "/login/oauth/access_token", fields, provider: name)
        struct Token: Decodable { var access_token: String?; var error: String?; var error_description: String? }
        guard let token = try? JSONDecoder().decode(Token.self, from: exchange.body), let accessToken = token.access_token, !accessToken.isEmpty else {
            let said = (try? JSONDecoder().decode(Token.self, from: exchange.body)).flatMap { $0.error_description ?? $0.error } ?? "status \(exchange.status)"
            throw CloudKitError(.authenticationFailed, "GitHub refused the sign-in: \(said)")
        }
        let headers = [("Authorization", "Bearer " + accessToken), ("User-Agent", "Stratus"), ("X-GitHub-Api-Version", "2022-11-28")]
        struct User: Decodable { var id: Int64 }
        let user = try await ProviderHTTP.get(apiURL + "/user", headers: headers, provider: name)
        guard user.status == 200, let account = try? JSONDecoder().decode(User.self, from: user.body), account.id > 0 else {
            throw CloudKitError(.authenticationFailed, "GitHub did not say who the user is (user answered \(user.status))")
        }
        struct Email: Decodable { var email: String; var verified: Bool; var primary: Bool? }
        var verified: String?
        let emails = try await ProviderHTTP.get(apiURL + "/user/emails", headers: headers, provider: name)
        if emails.status == 200, let listed = try? JSONDecoder().decode([Email].self, from: emails.body) {
            let usable = listed.filter(\.verified)
            verified = (usable.first { $0.primary == true } ?? usable.first).flatMap { ProviderIdentity.keptEmail($0.email) }
        }
        return ProviderIdentity(provider: provider, subject: String(account.id), email: verified, emailVerified: verified != nil)
    }
}
