#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An IPv4 or IPv6 address, parsed from its text; an IPv4-mapped IPv6 address (`::ffff:192.0.2.1`)
/// is the IPv4 address it maps, so one client has one spelling.
public struct IPAddress: Sendable, Hashable, CustomStringConvertible {
    /// 4 bytes for IPv4, 16 for IPv6, in network order.
    let bytes: [UInt8]

    public init?(_ text: some StringProtocol) {
        let text = String(text)
        var buffer = [UInt8](repeating: 0, count: 16)
        if buffer.withUnsafeMutableBytes({ inet_pton(AF_INET, text, $0.baseAddress) }) == 1 {
            bytes = Array(buffer.prefix(4))
        } else if buffer.withUnsafeMutableBytes({ inet_pton(AF_INET6, text, $0.baseAddress) }) == 1 {
            bytes = buffer.prefix(12) == Self.mappedPrefix ? Array(buffer.suffix(4)) : buffer
        } else {
            return nil
        }
    }

    /// The address as `inet_ntop` writes it (IPv6 compressed, lowercase).
    public var description: String {
        var text = [CChar](repeating: 0, count: 64)
        let family = bytes.count == 4 ? AF_INET : AF_INET6
        _ = bytes.withUnsafeBytes { address in inet_ntop(family, address.baseAddress, &text, socklen_t(text.count)) }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static let mappedPrefix: ArraySlice<UInt8> = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF]
}
