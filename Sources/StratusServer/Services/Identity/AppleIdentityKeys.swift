import AsyncHTTPClient
import Foundation
import JWTKit
import NIOCore
import StratusCore

/// Apple's public keys for identity tokens, fetched from ``AppleSignInConfiguration/keysURL``
/// (a JWKS) and cached.
///
/// The keys are fetched when first needed, again when a token names a key not among them (Apple
/// rotated its keys) and once a day, but never more often than ``AppleSignInConfiguration/refetchInterval``:
/// tokens with made-up key IDs cost at most one fetch a minute. A token naming a key that is not
/// among them when they may not be fetched again yet answers `TRY_AGAIN_LATER` with the wait
/// (Apple may have published it since); once fetched and still absent, `AUTHENTICATION_FAILED`. A fetch is bounded (10 seconds,
/// 64 KB, 16 keys) and keeps only RSA keys for RS256; concurrent callers share one fetch.
actor AppleIdentityKeys {
    private let url: String
    private let refetchInterval: Duration
    private var keys = JWTKeyCollection()
    private var identifiers: Set<String> = []
    private var fetchedAt: ContinuousClock.Instant?
    private var attemptedAt: ContinuousClock.Instant?
    private var fetching: Task<Void, any Error>?

    static let maxBytes = 64 * 1024
    static let maxKeys = 16
    static let maxAge: Duration = .seconds(24 * 3600)
    static let timeout: TimeAmount = .seconds(10)

    init(url: String, refetchInterval: Duration) {
        self.url = url
        self.refetchInterval = refetchInterval
    }

    /// The keys to verify a token signed by the key `kid` with; `AUTHENTICATION_FAILED` when
    /// Apple does not publish that key.
    func keys(for kid: String) async throws -> JWTKeyCollection {
        let now = ContinuousClock.now
        let wanted = !identifiers.contains(kid) || fetchedAt.map { now - $0 >= Self.maxAge } ?? true
        let refetched = wanted && attemptedAt.map({ now - $0 >= refetchInterval }) ?? true
        if refetched {
            try await refresh()
        }
        guard identifiers.contains(kid) else {
            guard fetchedAt != nil else {
                throw CloudKitError(.tryAgainLater, "Apple's keys could not be fetched yet", retryAfter: Int(refetchInterval.components.seconds))
            }
            // Not fetched again for this token (too soon after the last fetch): Apple may have
            // published the key a moment ago, and the next fetch will tell.
            if !refetched, let attemptedAt {
                let wait = refetchInterval - (now - attemptedAt)
                throw CloudKitError(.tryAgainLater, "the identity token names a key not among Apple's keys fetched a moment ago; they are fetched again in a while",
                                    retryAfter: max(1, Int((wait + .milliseconds(999)).components.seconds)))
            }
            throw CloudKitError(.authenticationFailed, "the identity token is signed by a key Apple does not publish")
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
            throw CloudKitError(.tryAgainLater, "Apple's keys could not be fetched: \(error)", retryAfter: Int(refetchInterval.components.seconds))
        }
    }

    private func fetch() async throws {
        let request = HTTPClientRequest(url: url)
        let response: HTTPClientResponse
        do {
            response = try await HTTPClient.shared.execute(request, timeout: Self.timeout)
        } catch let error as HTTPClientError where error == .deadlineExceeded {
            throw error  // a second try would only double the wait
        } catch {
            // Once more on a new connection: a pooled one may have been closed by the other side
            // as the request left (the client cannot tell), which says nothing about Apple's keys.
            response = try await HTTPClient.shared.execute(request, timeout: Self.timeout)
        }
        guard response.status == .ok else {
            throw CloudKitError(.tryAgainLater, "Apple's keys answered \(response.status.code)", retryAfter: Int(refetchInterval.components.seconds))
        }
        let body = try await response.body.collect(upTo: Self.maxBytes)
        let published = try JSONDecoder().decode(JWKS.self, from: Data(buffer: body))
        let usable = published.keys.filter { key in
            key.keyType == .rsa && (key.algorithm == nil || key.algorithm == .rs256) && key.keyIdentifier != nil
        }.prefix(Self.maxKeys)
        let collection = JWTKeyCollection()
        var identifiers: Set<String> = []
        for var key in usable {
            key.algorithm = .rs256
            try await collection.add(jwk: key)
            if let kid = key.keyIdentifier?.string { identifiers.insert(kid) }
        }
        keys = collection
        self.identifiers = identifiers
        fetchedAt = .now
    }
}
