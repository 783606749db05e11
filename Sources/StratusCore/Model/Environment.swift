/// A container's environment. Development grows its schema as records are saved; production is
/// deployed from development.
public enum ContainerEnvironment: String, Codable, Sendable, CaseIterable {
    case development
    case production
}

/// Which of a container's three databases a request addresses.
public enum DatabaseScope: String, Codable, Sendable, CaseIterable {
    /// Readable by anyone holding the API token; records are written by signed-in users.
    case `public`
    /// The signed-in user's own data: a default zone plus custom zones.
    case `private`
    /// Other users' zones shared with the signed-in user.
    case shared
}
