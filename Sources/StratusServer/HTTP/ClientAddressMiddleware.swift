import HTTPTypes
import Hummingbird

/// Who a request comes from, for throttles, the access log and the console's activity: the
/// peer's address, unless the peer is a trusted proxy (`serve --trusted-proxy`). Then the one
/// header the operator names (`serve --proxy-header`: `X-Forwarded-For`, RFC 7239 `Forwarded` or
/// `X-Real-IP`) is walked from the right, past trusted proxies, to the first address that is not
/// one: the entries left of it are the client's to write, so a forged left-most entry changes
/// nothing, and no other header is read at all (a client's own `X-Forwarded-For` passed on by a
/// proxy that writes `Forwarded` counts for nothing).
struct ClientAddressMiddleware: RouterMiddleware {
    typealias Context = StratusRequestContext

    let trustedProxies: [IPAddressBlock]
    let header: ProxyHeader

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        context.clientAddress = Self.client(peer: context.clientAddress, headers: request.headers, header: header, trusting: trustedProxies)
        return try await next(request, context)
    }

    static let forwardedFor = HTTPField.Name("X-Forwarded-For")!
    static let forwarded = HTTPField.Name("Forwarded")!
    static let realIP = HTTPField.Name("X-Real-IP")!

    /// The client's address for a request from `peer` with those headers.
    static func client(peer: String, headers: HTTPFields, header: ProxyHeader, trusting trusted: [IPAddressBlock]) -> String {
        guard var client = IPAddress(peer) else { return peer }
        let entries: [Substring]
        switch header {
        case .xForwardedFor: entries = headers[values: forwardedFor].flatMap { $0.split(separator: ",") }
        case .forwarded: entries = headers[values: forwarded].flatMap { $0.split(separator: ",") }.compactMap(forElement)
        // One address set by the proxy: a second line means the client sent one too, and is ignored.
        case .xRealIP: entries = headers[values: realIP].last.map { [Substring($0)] } ?? []
        }
        for entry in entries.reversed() {
            guard trusted.contains(where: { $0.contains(client) }) else { break }
            // Unreadable ("unknown", an obfuscated name): the trusted hop that wrote it stands.
            guard let address = IPAddress(hostOnly(entry.trimmingCharacters(in: .whitespaces))) else { break }
            client = address
        }
        return client.description
    }

    /// The `for=` value of one `Forwarded` element (`for=192.0.2.60;proto=http`).
    private static func forElement(_ element: Substring) -> Substring? {
        for pair in element.split(separator: ";") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces).lowercased() == "for" else { continue }
            return parts[1]
        }
        return nil
    }

    /// The address without quotes, brackets or port: `"[2001:db8::1]:4711"` → `2001:db8::1`,
    /// `192.0.2.43:47011` → `192.0.2.43`.
    private static func hostOnly(_ value: String) -> String {
        var text = value.hasPrefix("\"") && value.hasSuffix("\"") && value.count >= 2 ? String(value.dropFirst().dropLast()) : value
        if text.hasPrefix("["), let end = text.firstIndex(of: "]") {
            text = String(text[text.index(after: text.startIndex)..<end])
        } else if text.filter({ $0 == ":" }).count == 1, let colon = text.firstIndex(of: ":") {
            text = String(text[..<colon])
        }
        return text
    }
}
