import Foundation

/// Base64url without padding: how opaque tokens and markers travel in JSON and URLs.
///
/// Written out by hand: every `changes/*` page encodes a token and most requests decode one, and
/// Foundation's base64 plus three string replacements cost more than the read of a small page.
package enum Base64URL {
    /// The 64 characters, in order of their values (RFC 4648 §5).
    static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    package static func encode(_ data: Data) -> String {
        encode(bytes: data)
    }

    /// The text of `bytes`, four characters for every three bytes, without padding.
    package static func encode(bytes: some Collection<UInt8>) -> String {
        let count = bytes.count
        let length = (count * 4 + 2) / 3
        return String(unsafeUninitializedCapacity: length) { output in
            var written = 0
            var index = bytes.startIndex
            var remaining = count
            while remaining > 0 {
                let first = bytes[index]
                index = bytes.index(after: index)
                let second: UInt8 = remaining > 1 ? bytes[index] : 0
                if remaining > 1 { index = bytes.index(after: index) }
                let third: UInt8 = remaining > 2 ? bytes[index] : 0
                if remaining > 2 { index = bytes.index(after: index) }
                output[written] = alphabet[Int(first >> 2)]
                output[written + 1] = alphabet[Int((first & 0x03) << 4 | second >> 4)]
                if remaining > 1 { output[written + 2] = alphabet[Int((second & 0x0F) << 2 | third >> 6)] }
                if remaining > 2 { output[written + 3] = alphabet[Int(third & 0x3F)] }
                written += min(remaining, 3) + 1
                remaining -= 3
            }
            return written
        }
    }

    /// The bytes `text` encodes, or nil when it is not base64url: a character outside the
    /// alphabet, a length no encoding has, or bits left over that are not zero. Trailing `=`
    /// padding is accepted.
    package static func decode(_ text: String) -> Data? {
        Base64Decoder.url.decode(text)
    }
}

extension Duration {
    /// The duration in whole milliseconds, the unit of CloudKit timestamps.
    package var milliseconds: Int64 {
        components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000
    }
}
