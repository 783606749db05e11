/// *Extension*: the body of `oidc/{provider}` and `oidc/{provider}/link`: an ID token a native
/// app got from the provider with its own authorization-code flow (with PKCE), and the nonce it
/// put in that flow's request.
package struct OpenIDSignInRequest: Codable, Sendable, Equatable {
    package var idToken: String
    package var nonce: String

    package init(idToken: String, nonce: String) {
        self.idToken = idToken
        self.nonce = nonce
    }
}

/// *Extension*: an OpenID Connect or GitHub identity linked to the account, in
/// ``AccountResponse``: the provider's name (for `account/providers/{provider}/delete`), the
/// email it gave (if any, and whether it said the address is verified), and when it was linked
/// and last signed in with (milliseconds since 1970).
package struct AccountProviderInfo: Codable, Sendable, Equatable {
    package var provider: String
    package var email: String?
    package var emailVerified: Bool
    package var linked: Int64
    package var lastUsed: Int64?

    package init(provider: String, email: String?, emailVerified: Bool, linked: Int64, lastUsed: Int64?) {
        self.provider = provider
        self.email = email
        self.emailVerified = emailVerified
        self.linked = linked
        self.lastUsed = lastUsed
    }
}
