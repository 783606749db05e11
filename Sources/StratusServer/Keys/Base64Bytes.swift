import Foundation

/// Standard base64 (RFC 4648 §4, padded) decoded straight from bytes, such as a sealed value's
/// text inside stored JSON: no `String` made of the text first, one `Data` made for the result.
/// Opening a record's sealed fields (``SealedFields``) decodes one per record read.
enum Base64Bytes {
    /// The bytes `text` encodes, or nil for text that is not padded standard base64.
    static func decode(_ text: ArraySlice<UInt8>) -> Data? {
        text.withUnsafeBufferPointer { text in
            let count = text.count
            guard count % 4 == 0 else { return nil }
            guard count > 0 else { return Data() }
            let padding = text[count - 1] != equals ? 0 : text[count - 2] != equals ? 1 : 2
            let length = count / 4 * 3 - padding
            var decoded = Data(count: length)
            let valid = decoded.withUnsafeMutableBytes { (output: UnsafeMutableRawBufferPointer) -> Bool in
                table.withUnsafeBufferPointer { (table: UnsafeBufferPointer<UInt8>) -> Bool in
                    var written = 0
                    var index = 0
                    while index < count {
                        let last = index + 4 == count
                        var quantum: UInt32 = 0
                        for offset in 0..<4 {
                            let byte = text[index + offset]
                            let value: UInt8
                            if byte == equals {
                                guard last, offset >= 4 - padding else { return false }
                                value = 0
                            } else {
                                value = table[Int(byte)]
                                guard value != invalid else { return false }
                            }
                            quantum = quantum << 6 | UInt32(value)
                        }
                        for shift in [16, 8, 0] as [UInt32] where written < length {
                            output[written] = UInt8(truncatingIfNeeded: quantum >> shift)
                            written += 1
                        }
                        index += 4
                    }
                    return true
                }
            }
            return valid ? decoded : nil
        }
    }

    private static let equals = UInt8(ascii: "=")
    private static let invalid: UInt8 = 0xFF

    /// Each byte's six bits, or ``invalid``.
    private static let table: [UInt8] = {
        var table = [UInt8](repeating: invalid, count: 256)
        for (value, byte) in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8.enumerated() {
            table[Int(byte)] = UInt8(value)
        }
        return table
    }()
}
