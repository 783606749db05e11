/// *Extension*: the body of `auth/1/{container}/{environment}/signup` and `signin`.
public struct Credentials: Codable, Sendable, Equatable {
    public var username: String
    public var password: String
    /// Sign-up only: an email address others may invite the user by.
    public var email: String?
    /// Sign-up only: whether `users/discover` may find the user (default false).
    public var discoverable: Bool?

    public init(username: String, password: String, email: String? = nil, discoverable: Bool? = nil) {
        self.username = username
        self.password = password
        self.email = email
        self.discoverable = discoverable
    }
}

/// The body of `users/discover`: who to look for.
public struct UserDiscoveryRequest: Codable, Sendable, Equatable {
    public var lookupInfos: [LookupInfo]

    public init(lookupInfos: [LookupInfo]) { self.lookupInfos = lookupInfos }
}

/// The response of `users/discover` and `users/caller`.
public struct UserIdentitiesResponse: Codable, Sendable, Equatable {
    public var users: [UserIdentity]

    public init(users: [UserIdentity]) { self.users = users }
}

/// *Extension*: the answer to a successful sign-up or sign-in.
public struct SignInResponse: Codable, Sendable, Equatable {
    /// Send it as the `ckWebAuthToken` query parameter or as `Authorization: Bearer …`.
    public var ckWebAuthToken: String
    public var userRecordName: String

    public init(ckWebAuthToken: String, userRecordName: String) {
        self.ckWebAuthToken = ckWebAuthToken
        self.userRecordName = userRecordName
    }
}

/// The answer of `users/current`.
public struct CurrentUserResponse: Codable, Sendable, Equatable {
    public var userRecordName: String
    public var firstName: String?
    public var lastName: String?

    public init(userRecordName: String, firstName: String? = nil, lastName: String? = nil) {
        self.userRecordName = userRecordName
        self.firstName = firstName
        self.lastName = lastName
    }
}
