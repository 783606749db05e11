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
    /// Where Apple publishes the keys its tokens are signed with (a JWKS). Only `https`, or `http`
    /// on loopback (for tests).
    public var keysURL = "https://appleid.apple.com/auth/keys"
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

    /// Whether the keys URL may be used: `https`, or `http` to this machine.
    package static func isAcceptableKeysURL(_ text: String) -> Bool {
        guard let url = URLComponents(string: text), let host = url.host?.lowercased(), !host.isEmpty, url.user == nil else { return false }
        return url.scheme == "https" || (url.scheme == "http" && ["127.0.0.1", "localhost", "::1", "[::1]"].contains(host))
    }
}
