/// *Extension*: the body of `auth/1/{container}/{environment}/signup` and `signin`.
public struct Credentials: Codable, Sendable, Equatable {
    public var username: String
    public var password: String

    public init(username: String, password: String) {
        self.username = username
        self.password = password
    }
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
