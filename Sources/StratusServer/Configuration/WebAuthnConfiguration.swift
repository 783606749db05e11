import Foundation

/// Where each container's passkeys belong (``PasskeySignIn``): the relying party ID they are
/// made for and the exact origins allowed to use them.
public struct WebAuthnConfiguration: Sendable {
    /// A container's relying party: its ID (a domain, such as `example.com`, or `localhost` in
    /// development) and the origins whose ceremonies count (`https://app.example.com`,
    /// `http://localhost:8080`; a native Apple app reports `https://` and the RP ID).
    public struct RelyingParty: Sendable, Equatable {
        public var id: String
        public var origins: [String]

        public init(id: String, origins: [String]) {
            self.id = id
            self.origins = origins
        }
    }

    /// The relying party of each container; a container without one refuses passkeys.
    public var relyingParties: [String: RelyingParty] = [:]
    /// Whether every ceremony must verify the user (a PIN, biometrics, the device passcode), as
    /// passkeys do by default; false asks for it and accepts a ceremony without it.
    public var requiresUserVerification = true

    public init(relyingParties: [String: RelyingParty] = [:]) {
        self.relyingParties = relyingParties
    }

    /// Whether `id` may be a relying party ID: a lower-case domain name (not an IP address).
    package static func isAcceptableRelyingPartyID(_ id: String) -> Bool {
        let labels = id.split(separator: ".", omittingEmptySubsequences: false)
        return id.utf8.count <= 253 && !labels.isEmpty && !labels.allSatisfy({ $0.allSatisfy(\.isNumber) })
            && labels.allSatisfy { label in
                (1...63).contains(label.count) && label.first != "-" && label.last != "-"
                    && label.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }
            }
    }

    /// Whether `origin` may be allowed for a relying party: `https://host[:port]`, or `http://`
    /// for `localhost` only (a secure context browsers allow passkeys in), with no path.
    package static func isAcceptableOrigin(_ origin: String) -> Bool {
        guard let url = URLComponents(string: origin), let host = url.host, !host.isEmpty, url.path.isEmpty, url.query == nil,
              url.user == nil, url.fragment == nil else { return false }
        return url.scheme == "https" || (url.scheme == "http" && host == "localhost")
    }
}
