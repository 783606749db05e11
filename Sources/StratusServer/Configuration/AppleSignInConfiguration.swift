import Foundation

/// How the server checks Sign in with Apple's identity tokens (``AppleSignIn``).
public struct AppleSignInConfiguration: Sendable {
    /// The client IDs of the apps whose tokens are accepted (an app's bundle ID, a website's
    /// Services ID), by container: a token's `aud` must be one of its container's, so a token
    /// issued to one app never signs its Apple ID in to another app's container. The key
    /// ``everyContainer`` lists client IDs every container accepts (a server of one app, tests).
    /// A container without client IDs refuses Sign in with Apple.
    public var clientIDsByContainer: [String: [String]] = [:]

    /// The key of ``clientIDsByContainer`` whose client IDs every container accepts.
    public static let everyContainer = "*"

    /// The client IDs every container accepts (``clientIDsByContainer``'s ``everyContainer`` entry).
    @available(*, deprecated, message: "name each container's client IDs in clientIDsByContainer: a token for one app then signs in to its own container only")
    public var clientIDs: [String] {
        get { clientIDsByContainer[Self.everyContainer] ?? [] }
        set { clientIDsByContainer[Self.everyContainer] = newValue }
    }

    /// The client IDs whose tokens sign users in to `containerID`.
    package func clientIDs(for containerID: String) -> [String] {
        (clientIDsByContainer[containerID] ?? []) + (clientIDsByContainer[Self.everyContainer] ?? [])
    }
    /// Apple's Sign in with Apple service (`serve --apple-url`): its keys (`/auth/keys`), token
    /// (`/auth/token`) and revocation (`/auth/revoke`) endpoints are under it. Only `https`, or
    /// `http` on loopback (tests point it at a local stand-in).
    public var baseURL = "https://appleid.apple.com"
    /// Where Apple publishes the keys its tokens are signed with (a JWKS).
    public var keysURL: String { baseURL + "/auth/keys" }
    /// Apple's token endpoint, where authorization codes are exchanged for refresh tokens.
    public var tokenURL: String { baseURL + "/auth/token" }
    /// Apple's endpoint revoking refresh tokens.
    public var revokeURL: String { baseURL + "/auth/revoke" }

    /// The key the server signs its client secret with, to exchange authorization codes and
    /// revoke tokens (`serve --apple-team-id`, `--apple-key-id`, `--apple-private-key-file`):
    /// without one, codes are not exchanged and nothing can be revoked.
    public var clientSecretKey: AppleClientSecretKey?
    /// How soon a revocation Apple did not answer is tried again; the wait doubles up to an hour.
    public var revocationRetryInterval: Duration = .seconds(30)
    /// How soon the keys may be fetched again: a token signed by a key not seen yet fetches them
    /// at most this often (Apple rotates keys rarely; a flood of made-up key IDs costs one fetch).
    public var refetchInterval: Duration = .seconds(60)
    /// Whether every identity token must carry a nonce (`serve --apple-require-nonce`): an app
    /// hashes a nonce of its own into Apple's request and sends the nonce with the token, so a
    /// token lifted from elsewhere cannot be played. A token that carries a nonce is checked
    /// against it whether or not this is set.
    public var requiresNonce = false

    /// A configuration accepting `clientIDsByContainer` (container → client IDs).
    public init(clientIDsByContainer: [String: [String]] = [:]) {
        self.clientIDsByContainer = clientIDsByContainer
    }

    /// A configuration whose client IDs every container accepts.
    @available(*, deprecated, message: "use init(clientIDsByContainer:): a token for one app then signs in to its own container only")
    public init(clientIDs: [String]) {
        self.clientIDsByContainer = clientIDs.isEmpty ? [:] : [Self.everyContainer: clientIDs]
    }

    /// Whether Apple's URL may be used: `https`, or `http` to this machine.
    package static func isAcceptableURL(_ text: String) -> Bool {
        guard let url = URLComponents(string: text), let host = url.host?.lowercased(), !host.isEmpty, url.user == nil else { return false }
        return url.scheme == "https" || (url.scheme == "http" && ["127.0.0.1", "localhost", "::1", "[::1]"].contains(host))
    }
}

/// The Sign in with Apple private key (a `.p8` file from Apple's developer site) the server signs
/// its client secret with, and the identifiers Apple knows it by.
public struct AppleClientSecretKey: Sendable {
    /// The developer team's ID (the client secret's `iss`).
    public var teamID: String
    /// The key's ID (the client secret's `kid`).
    public var keyID: String
    /// The P-256 private key, PEM (`-----BEGIN PRIVATE KEY-----`).
    public var privateKeyPEM: String

    public init(teamID: String, keyID: String, privateKeyPEM: String) {
        self.teamID = teamID
        self.keyID = keyID
        self.privateKeyPEM = privateKeyPEM
    }
}
