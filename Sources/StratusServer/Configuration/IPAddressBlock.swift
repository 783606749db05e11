/// A block of IP addresses in CIDR notation, as `serve --trusted-proxy` takes them:
/// `10.0.0.0/8`, `2001:db8::/32`, or a bare address for a block of one.
public struct IPAddressBlock: Sendable, Hashable, CustomStringConvertible {
    private let network: IPAddress
    private let prefixLength: Int

    /// Whether the block holds every address of its family (`0.0.0.0/0`, `::/0`).
    package var coversEveryAddress: Bool { prefixLength == 0 }

    /// Parses `address/prefix` or a bare address; nil when it is neither.
    public init?(_ text: String) {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let network = IPAddress(parts[0]) else { return nil }
        let bits = network.bytes.count * 8
        // An IPv4-mapped network (::ffff:10.0.0.0/104) counts its prefix in IPv6 bits.
        let mappedBits = parts[0].contains(":") && network.bytes.count == 4 ? 96 : 0
        if parts.count == 2 {
            guard let length = Int(parts[1]), length >= mappedBits, length - mappedBits <= bits else { return nil }
            prefixLength = length - mappedBits
        } else {
            prefixLength = bits
        }
        self.network = network
    }

    public func contains(_ address: IPAddress) -> Bool {
        guard address.bytes.count == network.bytes.count else { return false }
        var remaining = prefixLength
        for (mine, theirs) in zip(network.bytes, address.bytes) where remaining > 0 {
            let mask: UInt8 = remaining >= 8 ? 0xFF : ~(0xFF >> UInt8(remaining))
            guard mine & mask == theirs & mask else { return false }
            remaining -= 8
        }
        return true
    }

    public var description: String { "\(network)/\(prefixLength)" }
}
