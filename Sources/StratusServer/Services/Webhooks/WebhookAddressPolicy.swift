#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import NIOPosix
import StratusCore

/// Finds the addresses of a webhook endpoint's host. The server asks the system
/// (``SystemWebhookResolver``); tests inject their own to see what delivery does with an address
/// without connecting to it.
package protocol WebhookResolver: Sendable {
    func addresses(of host: String) async throws -> [IPAddress]
}

/// The system's resolver (`getaddrinfo`), on NIO's thread pool.
package struct SystemWebhookResolver: WebhookResolver {
    package init() {}

    package func addresses(of host: String) async throws -> [IPAddress] {
        try await NIOThreadPool.singleton.runIfActive {
            var hints = addrinfo()
            #if canImport(Glibc)
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
            #else
            hints.ai_socktype = SOCK_STREAM
            #endif
            var list: UnsafeMutablePointer<addrinfo>?
            guard getaddrinfo(host, nil, &hints, &list) == 0, let first = list else { return [] }
            defer { freeaddrinfo(first) }
            var addresses: [IPAddress] = []
            var entry: UnsafeMutablePointer<addrinfo>? = first
            while let current = entry {
                var text = [CChar](repeating: 0, count: Int(NI_MAXHOST))
                if getnameinfo(current.pointee.ai_addr, current.pointee.ai_addrlen, &text, socklen_t(text.count), nil, 0, NI_NUMERICHOST) == 0,
                   let address = IPAddress(String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)) {
                    addresses.append(address)
                }
                entry = current.pointee.ai_next
            }
            return addresses
        }
    }
}

/// Where webhooks may be delivered: without `--webhook-allow-private`, only to public addresses
/// over HTTPS. The address checked is the one connected to (delivery connects to it by number,
/// the host name kept for TLS), so a name that resolves elsewhere the next time gains nothing.
package struct WebhookAddressPolicy: Sendable {
    /// Whether private addresses and `http://` are allowed (tests, local development).
    package var allowsPrivate: Bool
    package var resolver: any WebhookResolver

    package init(allowsPrivate: Bool, resolver: any WebhookResolver = SystemWebhookResolver()) {
        self.allowsPrivate = allowsPrivate
        self.resolver = resolver
    }

    /// The blocks no delivery reaches without `--webhook-allow-private`: this host, private
    /// networks, link-local (cloud metadata among them), CGNAT, multicast and reserved ranges.
    static let refusedBlocks: [IPAddressBlock] = [
        "0.0.0.0/8", "10.0.0.0/8", "100.64.0.0/10", "127.0.0.0/8", "169.254.0.0/16", "172.16.0.0/12", "192.0.0.0/24",
        "192.168.0.0/16", "198.18.0.0/15", "224.0.0.0/4", "240.0.0.0/4",
        "::/128", "::1/128", "64:ff9b::/96", "100::/64", "fc00::/7", "fe80::/10", "ff00::/8",
    ].compactMap(IPAddressBlock.init)

    /// Whether delivery may connect to the address.
    func admits(_ address: IPAddress) -> Bool {
        allowsPrivate || !Self.refusedBlocks.contains { $0.contains(address) }
    }

    /// Checks an endpoint's URL as `webhook add` takes it: absolute, `https` (or `http` when
    /// private addresses are allowed), with a host and no credentials.
    package func validated(_ text: String) throws -> WebhookURL {
        guard let url = WebhookURL(text) else { throw CloudKitError.badRequest("'\(text)' is not an absolute http(s) URL with a host") }
        guard url.scheme == "https" || (url.scheme == "http" && allowsPrivate) else {
            throw CloudKitError.badRequest("webhook URLs must be https:// (http:// only with --webhook-allow-private)")
        }
        if let address = IPAddress(url.host), !admits(address) {
            throw CloudKitError.badRequest("\(url.host) is a private, loopback, link-local or reserved address (allowed only with --webhook-allow-private)")
        }
        return url
    }

    /// The address delivery connects to for `host`: its first admitted address; throws when it
    /// has none, or has a refused one (a name that mixes public and private addresses is refused
    /// whole).
    func address(of host: String) async throws -> IPAddress {
        let addresses = if let literal = IPAddress(host) { [literal] } else { try await resolver.addresses(of: host) }
        guard let first = addresses.first else { throw WebhookDeliveryError.unreachable("\(host) has no address") }
        if let refused = addresses.first(where: { !admits($0) }) {
            throw WebhookDeliveryError.refusedAddress("\(host) resolves to \(refused), a private, loopback, link-local or reserved address")
        }
        return first
    }
}
