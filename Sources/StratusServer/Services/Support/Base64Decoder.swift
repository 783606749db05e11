import Foundation

/// Base64 (RFC 4648) decoded straight from bytes, in one pass into one `Data`: no `String` made of
/// the text first. Both alphabets the server reads go through it: base64url for tokens and
/// markers (``Base64URL``), standard base64 for sealed values inside stored JSON (``KeyVault``),
/// one of which is decoded per encrypted field read.
///
/// Strict where Foundation is lenient, so each value has one text: a character outside the
/// alphabet, a length no encoding has, padding where the rule forbids it or bits left over that
/// are not zero refuse the whole text.
package struct Base64Decoder: Sendable {
    /// Whether a text ends in `=` to a multiple of four characters.
    package enum Padding: Sendable {
        /// Always padded (standard base64 as Foundation writes it).
        case required
        /// Padded or not (base64url as tokens and WebAuthn write it).
        case optional
    }

    /// Base64url (RFC 4648 §5), padding optional.
    package static let url = Base64Decoder(alphabet: Base64URL.alphabet, padding: .optional)
    /// Standard base64 (RFC 4648 §4), padded: base64url's alphabet with `+` and `/` for its last two.
    package static let standard = Base64Decoder(alphabet: Base64URL.alphabet.dropLast(2) + Array("+/".utf8), padding: .required)

    private static let invalid: UInt8 = 0xFF

    /// Each byte's six bits, or ``invalid``.
    private let values: [UInt8]
    private let padding: Padding

    private init(alphabet: [UInt8], padding: Padding) {
        var values = [UInt8](repeating: Self.invalid, count: 256)
        for (value, byte) in alphabet.enumerated() { values[Int(byte)] = UInt8(value) }
        self.values = values
        self.padding = padding
    }

    /// The bytes `text` encodes, or nil when it is not this encoding.
    package func decode(_ text: String) -> Data? {
        var text = text
        return text.withUTF8 { decode($0) }
    }

    /// The bytes `text` encodes, or nil when it is not this encoding.
    package func decode(_ text: ArraySlice<UInt8>) -> Data? {
        text.withUnsafeBufferPointer { decode($0) }
    }

    /// The bytes `input` encodes, or nil when it is not this encoding.
    package func decode(_ input: UnsafeBufferPointer<UInt8>) -> Data? {
        var count = input.count
        if count % 4 == 0 {
            var stripped = 0
            while stripped < 2, count > 0, input[count - 1] == UInt8(ascii: "=") {
                count -= 1
                stripped += 1
            }
        } else if padding == .required {
            return nil
        }
        guard count % 4 != 1 else { return nil }
        var output = Data(count: count * 6 / 8)
        let valid = output.withUnsafeMutableBytes { (output: UnsafeMutableRawBufferPointer) -> Bool in
            values.withUnsafeBufferPointer { values in
                // Whole groups of four characters, three bytes each; an invalid character's value
                // (0xFF) sets a bit no valid one has, checked once a group.
                var position = 0
                var written = 0
                var invalid: UInt8 = 0
                while position + 4 <= count {
                    let a = values[Int(input[position])], b = values[Int(input[position + 1])]
                    let c = values[Int(input[position + 2])], d = values[Int(input[position + 3])]
                    invalid |= a | b | c | d
                    let group = UInt32(a & 0x3F) << 18 | UInt32(b & 0x3F) << 12 | UInt32(c & 0x3F) << 6 | UInt32(d & 0x3F)
                    output[written] = UInt8(truncatingIfNeeded: group >> 16)
                    output[written + 1] = UInt8(truncatingIfNeeded: group >> 8)
                    output[written + 2] = UInt8(truncatingIfNeeded: group)
                    position += 4
                    written += 3
                }
                guard invalid & 0xC0 == 0 else { return false }
                // The last two or three characters: one or two bytes.
                var accumulator: UInt32 = 0
                var bits: UInt32 = 0
                while position < count {
                    let value = values[Int(input[position])]
                    guard value != Self.invalid else { return false }
                    accumulator = accumulator << 6 | UInt32(value)
                    bits += 6
                    if bits >= 8 {
                        bits -= 8
                        output[written] = UInt8(truncatingIfNeeded: accumulator >> bits)
                        written += 1
                        accumulator &= (1 << bits) - 1
                    }
                    position += 1
                }
                // The unused low bits of the last character must be zero.
                return accumulator == 0
            }
        }
        return valid ? output : nil
    }
}
