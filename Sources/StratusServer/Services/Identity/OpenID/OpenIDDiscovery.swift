import Foundation
import StratusCore

/// An OpenID provider's discovery document (`{issuer}/.well-known/openid-configuration`) and
/// its keys, fetched when first needed and cached for a day.
///
/// The document must name exactly the configured issuer (OpenID Discovery §4.3) and endpoints
/// over `https` (or `http` on loopback, for tests). While it cannot be fetched, the provider is
/// unreachable: `TRY_AGAIN_LATER` with `retryAfter`, fetched again at most once per refetch
/// interval. Its `jwks_uri` is read by ``PublishedKeys`` (RS256 and ES256).
actor OpenIDDiscovery {
    /// What the server reads of a discovery document.
    struct Metadata: Decodable, Sendable {
        enum CodingKeys: String, CodingKey {
            case issuer, authorizationEndpoint = "authorization_endpoint", tokenEndpoint = "token_endpoint", jwksURI = "jwks_uri"
            case userinfoEndpoint = "userinfo_endpoint", tokenAuthMethods = "token_endpoint_auth_methods_supported"
        }

        var issuer: String
        var authorizationEndpoint: String
        var tokenEndpoint: String
        var jwksURI: String
        var userinfoEndpoint: String?
        var tokenAuthMethods: [String]?

        /// Whether the token endpoint takes the client secret in the body rather than as HTTP
        /// Basic (the default when the document says nothing).
        var postsClientSecret: Bool {
            guard let methods = tokenAuthMethods else { return false }
            return !methods.contains("client_secret_basic") && methods.contains("client_secret_post")
        }
    }

    let issuer: String
    /// How messages name the provider.
    let name: String
    private let refetchInterval: Duration
    private var found: (metadata: Metadata, keys: PublishedKeys, at: ContinuousClock.Instant)?
    private var attemptedAt: ContinuousClock.Instant?
    private var fetching: Task<Metadata, any Error>?

    init(issuer: String, name: String, refetchInterval: Duration) {
        self.issuer = issuer
        self.name = name
        self.refetchInterval = refetchInterval
    }

    /// The provider's metadata and keys.
    func metadata() async throws -> (Metadata, PublishedKeys) {
        let now = ContinuousClock.now
        if let found, now - found.at < PublishedKeys.maxAge { return (found.metadata, found.keys) }
        if let fetching { return try await settle(fetching) }
        if let attemptedAt, now - attemptedAt < refetchInterval {
            // Failed a moment ago: what was found before serves until the next try.
            if let found { return (found.metadata, found.keys) }
            let wait = refetchInterval - (now - attemptedAt)
            throw CloudKitError(.tryAgainLater, "\(name) could not be reached a moment ago: try again in a while",
                                retryAfter: max(1, Int((wait + .milliseconds(999)).components.seconds)))
        }
        attemptedAt = now
        let task = Task { try await fetch() }
        fetching = task
        defer { fetching = nil }
        return try await settle(task)
    }

    /// What a fetch found (its keys kept while the document names the same `jwks_uri`), or what
    /// was found before it when it fails.
    private func settle(_ task: Task<Metadata, any Error>) async throws -> (Metadata, PublishedKeys) {
        do {
            let metadata = try await task.value
            let keys = found.flatMap { $0.metadata.jwksURI == metadata.jwksURI ? $0.keys : nil }
                ?? PublishedKeys(url: metadata.jwksURI, publisher: name, algorithms: ["RS256", "ES256"], refetchInterval: refetchInterval)
            found = (metadata, keys, .now)
            return (metadata, keys)
        } catch {
            if let found { return (found.metadata, found.keys) }
            throw error
        }
    }

    private func fetch() async throws -> Metadata {
        let base = issuer.hasSuffix("/") ? String(issuer.dropLast()) : issuer
        let answer = try await ProviderHTTP.get(base + "/.well-known/openid-configuration", provider: name)
        guard answer.status == 200, let metadata = try? JSONDecoder().decode(Metadata.self, from: answer.body) else {
            throw ProviderHTTP.unreachable(name, "its discovery document answered \(answer.status) or is not one")
        }
        guard metadata.issuer == issuer else {
            throw ProviderHTTP.unreachable(name, "its discovery document names the issuer '\(metadata.issuer)', not '\(issuer)'")
        }
        for url in [metadata.authorizationEndpoint, metadata.tokenEndpoint, metadata.jwksURI] + (metadata.userinfoEndpoint.map { [$0] } ?? [])
        where !AppleSignInConfiguration.isAcceptableURL(url) {
            throw ProviderHTTP.unreachable(name, "its discovery document names '\(url)', which is not https")
        }
        return metadata
    }
}
