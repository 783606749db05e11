import Foundation

/// What an app keeps between launches to talk to its container as the signed-in user: the server,
/// the container, its API token and the user's web auth token. Store it where the app keeps
/// secrets (a device directory, the keychain).
public struct ContainerSession: Codable, Sendable, Equatable {
    /// The server's base URL.
    public var baseURL: String
    /// The container's identifier.
    public var containerIdentifier: String
    /// The container's environment.
    public var environment: ContainerEnvironment
    /// The app's API token.
    public var apiToken: String
    /// The signed-in user's web auth token; nil when signed out.
    public var webAuthToken: String?
    /// The username signed in with, when known.
    public var username: String?

    /// Reads a session written by ``write(to:)``.
    public init(contentsOf file: URL) throws {
        self = try JSONDecoder().decode(Self.self, from: Data(contentsOf: file))
    }

    /// A session from its parts.
    public init(baseURL: String, containerIdentifier: String, environment: ContainerEnvironment, apiToken: String,
                webAuthToken: String?, username: String?) {
        self.baseURL = baseURL
        self.containerIdentifier = containerIdentifier
        self.environment = environment
        self.apiToken = apiToken
        self.webAuthToken = webAuthToken
        self.username = username
    }

    /// Writes the session to a file only its owner can read.
    public func write(to file: URL) throws {
        try JSONEncoder().encode(self).write(to: file, options: .atomic)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
    }
}

extension Container {
    /// A container restored from a saved session.
    public init(session: ContainerSession, transport: any Transport = Container.defaultTransport, deviceID: String? = nil,
                assetCacheDirectory: URL? = nil) {
        self.init(baseURL: session.baseURL, containerIdentifier: session.containerIdentifier, environment: session.environment,
                  apiToken: session.apiToken, transport: transport, deviceID: deviceID, assetCacheDirectory: assetCacheDirectory,
                  webAuthToken: session.webAuthToken, username: session.username)
    }

    /// The session to keep for the next launch.
    public func session() -> ContainerSession {
        ContainerSession(baseURL: baseURL, containerIdentifier: containerIdentifier, environment: environment, apiToken: apiToken,
                         webAuthToken: webAuthToken, username: signedInUsername)
    }
}
