import Foundation
import JWTKit
import StratusCore

/// The public keys an identity provider signs its tokens with, fetched from the JWKS it
/// publishes (Apple's for Sign in with Apple, an OpenID provider's `jwks_uri`) and cached.
///
/// The keys are fetched when first needed, again when a token names a key not among them (the
/// provider rotated its keys) and once a day, but never more often than the refetch interval:
/// tokens with made-up key IDs cost at most one fetch a minute. A token naming a key that is not
/// among them when they may not be fetched again yet answers `TRY_AGAIN_LATER` with the wait
/// (the provider may have published it since); once fetched and still absent, `AUTHENTICATION_FAILED`.
/// A fetch is bounded (``ProviderHTTP``, 16 keys) and keeps only keys with an ID for the
/// algorithms asked for (RSA keys for RS256, P-256 keys for ES256); a token must be signed with
/// its key's algorithm. Concurrent callers share one fetch.
actor PublishedKeys {
    private let url: String
    /// Who publishes the keys, as messages name them ("Apple", "the provider 'google'").
    private let publisher: String
    private let algorithms: Set<String>
    private let refetchInterval: Duration
    private var keys = JWTKeyCollection()
    /// Each key's algorithm, by key ID.
    private var algorithmsByKey: [String: String] = [:]
    private var fetchedAt: ContinuousClock.Instant?
    private var attemptedAt: ContinuousClock.Instant?
    private var fetching: Task<Void, any Error>?

    static let maxKeys = 16
    static let maxAge: Duration = .seconds(24 * 3600)

    /// Keys published at `url` by `publisher`, for tokens signed with one of `algorithms`
    /// (`RS256`, `ES256`).
    init(url: String, publisher: String, algorithms: Set<String> = ["RS256"], refetchInterval: Duration) {
        self.url = url
        self.publisher = publisher
        self.algorithms = algorithms
        self.refetchInterval = refetchInterval
    }

    /// The keys to verify a token signed by the key `kid` with `algorithm`;
    /// `AUTHENTICATION_FAILED` when the publisher does not publish that key for that algorithm.
    func keys(for kid: String, algorithm: String) async throws -> JWTKeyCollection {
        guard algorithms.contains(algorithm) else {
            throw CloudKitError(.authenticationFailed, "the token must be signed with \(algorithms.sorted().joined(separator: " or ")), not \(algorithm)")
        }
        let now = ContinuousClock.now
        let wanted = algorithmsByKey[kid] == nil || fetchedAt.map { now - $0 >= Self.maxAge } ?? true
        let refetched = wanted && attemptedAt.map({ now - $0 >= refetchInterval }) ?? true
        if refetched {
            try await refresh()
        }
        guard let keyAlgorithm = algorithmsByKey[kid] else {
            guard fetchedAt != nil else {
                throw CloudKitError(.tryAgainLater, "\(publisher)'s keys could not be fetched yet", retryAfter: Int(refetchInterval.components.seconds))
            }
            // Not fetched again for this token (too soon after the last fetch): the publisher may
            // have published the key a moment ago, and the next fetch will tell.
            if !refetched, let attemptedAt {
                let wait = refetchInterval - (now - attemptedAt)
                throw CloudKitError(.tryAgainLater, "the token names a key not among \(publisher)'s keys fetched a moment ago; they are fetched again in a while",
                                    retryAfter: max(1, Int((wait + .milliseconds(999)).components.seconds)))
            }
            throw CloudKitError(.authenticationFailed, "the token is signed by a key \(publisher) does not publish")
        }
        guard keyAlgorithm == algorithm else {
            throw CloudKitError(.authenticationFailed, "the token says \(algorithm) but its key is for \(keyAlgorithm)")
        }
        return keys
    }

    private func refresh() async throws {
        if let fetching { return try await fetching.value }
        attemptedAt = .now
        let task = Task { try await fetch() }
        fetching = task
        defer { fetching = nil }
        do {
            try await task.value
        } catch let error as CloudKitError {
            throw error
        } catch {
            throw CloudKitError(.tryAgainLater, "\(publisher)'s keys could not be read: \(error)", retryAfter: Int(refetchInterval.components.seconds))
        }
    }

    private func fetch() async throws {
        let answer = try await ProviderHTTP.get(url, provider: publisher)
        guard answer.status == 200 else {
            throw CloudKitError(.tryAgainLater, "\(publisher)'s keys answered \(answer.status)", retryAfter: Int(refetchInterval.components.seconds))
        }
        let published = try JSONDecoder().decode(Published.self, from: answer.body)
        let collection = JWTKeyCollection()
        var algorithmsByKey: [String: String] = [:]
        for var key in published.keys.prefix(64).compactMap(\.key) where algorithmsByKey.count < Self.maxKeys {
            guard let kid = key.keyIdentifier?.string, !kid.isEmpty, let algorithm = Self.algorithm(of: key), algorithms.contains(algorithm.rawValue) else {
                continue
            }
            key.algorithm = algorithm
            try await collection.add(jwk: key)
            algorithmsByKey[kid] = algorithm.rawValue
        }
        keys = collection
        self.algorithmsByKey = algorithmsByKey
        fetchedAt = .now
    }

    /// The algorithm a published key verifies: its `alg`, or what its type implies (RS256 for
    /// RSA, ES256 for P-256); nil for a key of another kind.
    private static func algorithm(of key: JWK) -> JWK.Algorithm? {
        switch key.keyType {
        case .rsa where key.algorithm == nil || key.algorithm == .rs256: .rs256
        case .ecdsa where (key.algorithm == nil || key.algorithm == .es256) && key.curve == .ecdsa(.p256): .es256
        default: nil
        }
    }

    /// A JWKS whose keys of kinds JWTKit cannot read (encryption keys, other algorithms) are
    /// skipped rather than failing the whole set.
    private struct Published: Decodable {
        var keys: [Readable]

        struct Readable: Decodable {
            var key: JWK?
            init(from decoder: any Decoder) throws { key = try? JWK(from: decoder) }
        }
    }
}
