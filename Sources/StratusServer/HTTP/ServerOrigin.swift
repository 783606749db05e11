import Hummingbird

/// Where clients reach the server, for the URLs it hands out (asset and courier URLs): the
/// configured public URL (`--public-url`), or else the scheme the server listens with (`https`
/// with `--tls-cert`) and the request's `Host`.
struct ServerOrigin: Sendable {
    var publicURL: String?
    var scheme: String

    /// The scheme and authority the caller's URLs start with.
    func of(_ request: Request) -> String {
        if let publicURL { return publicURL.hasSuffix("/") ? String(publicURL.dropLast()) : publicURL }
        return "\(scheme)://" + (request.head.authority ?? "127.0.0.1")
    }
}
