/// Index values as PostgreSQL stores them: a byte string whose bytewise order is SQLite's order
/// of the values (integers and reals compare as numbers, numbers sort before text, text sorts by
/// its UTF-8 bytes), so comparisons, `MIN` and keyset continuations need no type logic in SQL.
///
/// | value | bytes |
/// |---|---|
/// | number | `00`, the double's order-preserving 8 bytes, then the integer's (for integers past 2⁵³) |
/// | text | `01`, then the UTF-8 bytes |
/// | missing | `02` (after everything) |
extension IndexValue {
    var sortKey: [UInt8] {
        switch self {
        case .integer(let integer):
            Self.numberKey(Double(integer), tiebreak: integer)
        case .real(let real):
            Self.numberKey(real, tiebreak: Int64(exactly: real.rounded(.towardZero)) ?? (real < 0 ? .min : .max))
        case .text(let text):
            [1] + Array(text.utf8)
        case .missing:
            [2]
        }
    }

    /// The value a key stands for; `isReal` tells a number's kind (1 and 1.0 share a key).
    init?(sortKey key: [UInt8], isReal: Bool) {
        guard let kind = key.first else { return nil }
        switch kind {
        case 0 where key.count == 17:
            if isReal {
                var bits: UInt64 = 0
                for byte in key[1...8] { bits = bits << 8 | UInt64(byte) }
                bits = bits & (1 << 63) != 0 ? bits & ~(1 << 63) : ~bits
                self = .real(Double(bitPattern: bits))
            } else {
                var bits: UInt64 = 0
                for byte in key[9...16] { bits = bits << 8 | UInt64(byte) }
                self = .integer(Int64(bitPattern: bits ^ (1 << 63)))
            }
        case 1:
            self = .text(String(decoding: key.dropFirst(), as: UTF8.self))
        case 2:
            self = .missing
        default:
            return nil
        }
    }

    private static func numberKey(_ number: Double, tiebreak: Int64) -> [UInt8] {
        let bits = (number == 0 ? 0.0 : number).bitPattern
        let ordered = bits & (1 << 63) != 0 ? ~bits : bits | (1 << 63)
        let integer = UInt64(bitPattern: tiebreak) ^ (1 << 63)
        var key: [UInt8] = [0]
        key.reserveCapacity(17)
        for shift in stride(from: 56, through: 0, by: -8) { key.append(UInt8(truncatingIfNeeded: ordered >> UInt64(shift))) }
        for shift in stride(from: 56, through: 0, by: -8) { key.append(UInt8(truncatingIfNeeded: integer >> UInt64(shift))) }
        return key
    }

    /// The number a value holds, for distances.
    var number: Double? {
        switch self {
        case .integer(let integer): Double(integer)
        case .real(let real): real
        case .text, .missing: nil
        }
    }

    var isReal: Bool {
        if case .real = self { true } else { false }
    }
}
