/// *Extension*: the answer of `GET auth/1/{container}/{environment}/account`, the account centre:
/// how the account signs in, its verified email, and its sessions.
package struct AccountResponse: Codable, Sendable, Equatable {
    package var userRecordName: String
    package var username: String
    /// The email address, if any, and whether the user proved they receive mail there.
    package var email: String?
    package var emailVerified: Bool
    /// The sign-in methods the account has: `password`, `apple` (Sign in with Apple), `passkey`,
    /// and `oidc:NAME` for each linked OpenID Connect or GitHub provider.
    package var methods: [String]
    /// The account's sessions, newest first; the caller's has `current`.
    package var sessions: [AccountSessionInfo]
    /// The account's passkeys, oldest first.
    package var passkeys: [AccountPasskeyInfo]
    /// The OpenID Connect and GitHub identities linked to the account, oldest first.
    package var providers: [AccountProviderInfo]

    package init(userRecordName: String, username: String, email: String?, emailVerified: Bool, methods: [String], sessions: [AccountSessionInfo],
                 passkeys: [AccountPasskeyInfo] = [], providers: [AccountProviderInfo] = []) {
        self.userRecordName = userRecordName
        self.username = username
        self.email = email
        self.emailVerified = emailVerified
        self.methods = methods
        self.sessions = sessions
        self.passkeys = passkeys
        self.providers = providers
    }
}

/// *Extension*: one session in ``AccountResponse``: its identifier (for
/// `account/sessions/{id}/signout`), the device it said it is, the client address it signed in
/// from, and when it was created and last used (milliseconds since 1970).
package struct AccountSessionInfo: Codable, Sendable, Equatable {
    package var id: String
    package var device: String
    package var clientAddress: String
    package var created: Int64
    package var lastUsed: Int64
    package var current: Bool

    package init(id: String, device: String, clientAddress: String, created: Int64, lastUsed: Int64, current: Bool) {
        self.id = id
        self.device = device
        self.clientAddress = clientAddress
        self.created = created
        self.lastUsed = lastUsed
        self.current = current
    }
}

/// *Extension*: the body of `auth/1/{container}/{environment}/account/reauthenticate`: one proof
/// of who the user is, by a method the account has — its password, a fresh Sign in with Apple
/// identity token of its linked Apple ID (and the nonce whose hash it carries), the code
/// `account/reauthenticate/code` mailed to its verified address, or an assertion of one of its
/// passkeys (to a challenge of `passkey/signin/options`).
package struct ReauthenticationRequest: Codable, Sendable, Equatable {
    package var password: String?
    package var identityToken: String?
    package var nonce: String?
    package var emailCode: String?
    package var passkey: PasskeyAssertion?
    /// The OpenID Connect provider whose ID token `identityToken` is (with its `nonce`); nil
    /// for Sign in with Apple's.
    package var provider: String?
    /// With Sign in with Apple's `identityToken`: the authorization code Apple gave with it,
    /// exchanged for a refresh token (how an account deleted with Apple as its proof gets one to
    /// revoke).
    package var authorizationCode: String?

    package init(password: String? = nil, identityToken: String? = nil, nonce: String? = nil, emailCode: String? = nil,
                 passkey: PasskeyAssertion? = nil, provider: String? = nil, authorizationCode: String? = nil) {
        self.password = password
        self.identityToken = identityToken
        self.nonce = nonce
        self.emailCode = emailCode
        self.passkey = passkey
        self.provider = provider
        self.authorizationCode = authorizationCode
    }
}
