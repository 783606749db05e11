import Foundation

/// Base64url without padding: how opaque tokens and markers travel in JSON and URLs.
///
/// Written out by hand: every `changes/*` page encodes a token and most requests decode one, and
/// Foundation's base64 plus three string replacements cost more than the read of a small page.
package enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// Each byte's value in the alphabet, or 0xFF for a byte outside it.
    private static let values: [UInt8] = {
        var values = [UInt8](repeating: 0xFF, count: 256)
        for (value, byte) in alphabet.enumerated() { values[Int(byte)] = UInt8(value) }
        return values
    }()

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
        var text = text
        return text.withUTF8 { decode(utf8: $0) }
    }

    private static func decode(utf8 input: UnsafeBufferPointer<UInt8>) -> Data? {
        var count = input.count
        if count % 4 == 0 {
            var padding = 0
            while padding < 2, count > 0, input[count - 1] == UInt8(ascii: "=") {
                count -= 1
                padding += 1
            }
        }
        guard count % 4 != 1 else { return nil }
        var output = Data(capacity: count * 3 / 4)
        var accumulator: UInt32 = 0
        var bits = 0
        for position in 0..<count {
            let value = values[Int(input[position])]
            guard value != 0xFF else { return nil }
            accumulator = accumulator << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                output.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
                accumulator &= (1 << UInt32(bits)) - 1
            }
        }
        // The unused low bits of the last character must be zero, so each value has one text.
        return accumulator == 0 ? output : nil
    }
}

extension Duration {
    /// The duration in whole milliseconds, the unit of CloudKit timestamps.
    package var milliseconds: Int64 {
        components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000
    }
}
