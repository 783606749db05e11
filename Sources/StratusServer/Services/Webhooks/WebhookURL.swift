import Foundation

/// An endpoint's URL, taken apart as delivery needs it.
package struct WebhookURL: Sendable, Equatable {
    package var scheme: String
    /// The host name or address (an IPv6 address without its brackets).
    package var host: String
    package var port: Int
    /// The path and query, `/` at least.
    package var target: String
    package var text: String

    /// Nil unless `text` is an absolute `http` or `https` URL with a host and no user or password.
    package init?(_ text: String) {
        guard text.count <= 2048, let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
              scheme == "http" || scheme == "https", var host = components.host, !host.isEmpty,
              components.user == nil, components.password == nil, components.fragment == nil else { return nil }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        self.scheme = scheme
        self.host = host.lowercased()
        port = components.port ?? (scheme == "https" ? 443 : 80)
        let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        target = components.percentEncodedQuery.map { path + "?" + $0 } ?? path
        self.text = text
    }
}
