/// *Extension*: the body of `auth/1/{container}/{environment}/signup` and `signin`.
package struct Credentials: Codable, Sendable, Equatable {
    package var username: String
    package var password: String
    /// Sign-up only: an email address others may invite the user by.
    package var email: String?
    /// Sign-up only: whether `users/discover` may find the user (default false).
    package var discoverable: Bool?

    package init(username: String, password: String, email: String? = nil, discoverable: Bool? = nil) {
        self.username = username
        self.password = password
        self.email = email
        self.discoverable = discoverable
    }
}

/// *Extension*: the body of `auth/1/{container}/{environment}/apple` (and `apple/link`): an
/// identity token from Sign in with Apple and, when the app gave Apple the SHA-256 of a nonce,
/// that nonce itself.
package struct AppleSignInRequest: Codable, Sendable, Equatable {
    package var identityToken: String
    package var nonce: String?
    /// The authorization code Apple gave the app with the token: the server exchanges it for a
    /// refresh token, to revoke when the account is deleted.
    package var authorizationCode: String?

    package init(identityToken: String, nonce: String? = nil, authorizationCode: String? = nil) {
        self.identityToken = identityToken
        self.nonce = nonce
        self.authorizationCode = authorizationCode
    }
}

/// The body of `users/discover`: who to look for.
package struct UserDiscoveryRequest: Codable, Sendable, Equatable {
    package var lookupInfos: [LookupInfo]

    package init(lookupInfos: [LookupInfo]) { self.lookupInfos = lookupInfos }
}

/// The response of `users/discover` and `users/caller`.
package struct UserIdentitiesResponse: Codable, Sendable, Equatable {
    package var users: [UserIdentity]

    package init(users: [UserIdentity]) { self.users = users }
}

/// *Extension*: the answer to a successful sign-up or sign-in.
package struct SignInResponse: Codable, Sendable, Equatable {
    /// Send it as the `ckWebAuthToken` query parameter or as `Authorization: Bearer …`.
    package var ckWebAuthToken: String
    package var userRecordName: String

    package init(ckWebAuthToken: String, userRecordName: String) {
        self.ckWebAuthToken = ckWebAuthToken
        self.userRecordName = userRecordName
    }
}

/// The answer of `users/current`.
package struct CurrentUserResponse: Codable, Sendable, Equatable {
    package var userRecordName: String
    package var firstName: String?
    package var lastName: String?

    package init(userRecordName: String, firstName: String? = nil, lastName: String? = nil) {
        self.userRecordName = userRecordName
        self.firstName = firstName
        self.lastName = lastName
    }
}
