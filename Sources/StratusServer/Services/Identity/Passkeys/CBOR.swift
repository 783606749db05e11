/// A CBOR value (RFC 8949) as WebAuthn's structures use it: an attestation object, a COSE key,
/// authenticator extensions. The ``CBOR/Decoder`` reads major types 0 to 5 and 7 with definite
/// lengths only; tags, indefinite lengths and floats are refused, as nothing WebAuthn sends needs them.
enum CBOR: Equatable, Sendable {
    case unsigned(UInt64)
    /// A negative integer: the value is `-1 - n`.
    case negative(UInt64)
    case bytes([UInt8])
    case text(String)
    case array([CBOR])
    /// A map's pairs in the order they were sent.
    case map([(CBOR, CBOR)])
    case bool(Bool)
    case null

    /// The value as an integer, when it is one that fits.
    var integer: Int64? {
        switch self {
        case .unsigned(let n): n <= UInt64(Int64.max) ? Int64(n) : nil
        case .negative(let n): n <= UInt64(Int64.max) ? -1 - Int64(n) : nil
        default: nil
        }
    }

    var byteString: [UInt8]? {
        if case .bytes(let bytes) = self { return bytes }
        return nil
    }

    var textString: String? {
        if case .text(let text) = self { return text }
        return nil
    }

    /// The value of `key` in a map (nil for another kind of value, or a map without the key).
    subscript(key: CBOR) -> CBOR? {
        guard case .map(let pairs) = self else { return nil }
        return pairs.first(where: { $0.0 == key })?.1
    }

    subscript(text key: String) -> CBOR? { self[.text(key)] }

    subscript(integer key: Int64) -> CBOR? { self[key >= 0 ? .unsigned(UInt64(key)) : .negative(UInt64(-1 - key))] }

    static func == (lhs: CBOR, rhs: CBOR) -> Bool {
        switch (lhs, rhs) {
        case (.unsigned(let a), .unsigned(let b)), (.negative(let a), .negative(let b)): a == b
        case (.bytes(let a), .bytes(let b)): a == b
        case (.text(let a), .text(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        case (.map(let a), .map(let b)): a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        case (.bool(let a), .bool(let b)): a == b
        case (.null, .null): true
        default: false
        }
    }

    /// Why bytes are not a CBOR value this decoder reads.
    struct DecodingError: Error, Equatable {
        let reason: String
    }

    /// Reads CBOR values from bytes, one after another, never past the end nor deeper than
    /// ``maxDepth``: what an attacker sends cannot make it allocate more than the bytes it sent.
    struct Decoder {
        private let bytes: [UInt8]
        /// Where the next value starts.
        private(set) var offset: Int
        /// The deepest nesting of arrays and maps read.
        static let maxDepth = 16

        init(_ bytes: [UInt8], from offset: Int = 0) {
            self.bytes = bytes
            self.offset = offset
        }

        /// Whether every byte was read.
        var isAtEnd: Bool { offset == bytes.count }

        /// The next value.
        mutating func decode() throws(DecodingError) -> CBOR {
            try decode(depth: 0)
        }

        private mutating func decode(depth: Int) throws(DecodingError) -> CBOR {
            guard depth <= Self.maxDepth else { throw DecodingError(reason: "nested deeper than \(Self.maxDepth)") }
            let initial = try byte()
            let major = initial >> 5
            let additional = initial & 0x1f
            if major == 7 {
                switch additional {
                case 20: return .bool(false)
                case 21: return .bool(true)
                case 22: return .null
                default: throw DecodingError(reason: "simple value or float \(additional) is not read")
                }
            }
            let argument = try self.argument(additional)
            switch major {
            case 0: return .unsigned(argument)
            case 1: return .negative(argument)
            case 2: return .bytes(try take(argument))
            case 3:
                guard let text = String(validating: try take(argument), as: UTF8.self) else { throw DecodingError(reason: "text is not UTF-8") }
                return .text(text)
            case 4:
                // Every item takes at least one byte: a count beyond what is left is a lie.
                guard argument <= UInt64(bytes.count - offset) else { throw DecodingError(reason: "array longer than its bytes") }
                var items: [CBOR] = []
                for _ in 0..<argument { items.append(try decode(depth: depth + 1)) }
                return .array(items)
            case 5:
                guard argument <= UInt64(bytes.count - offset) / 2 else { throw DecodingError(reason: "map longer than its bytes") }
                var pairs: [(CBOR, CBOR)] = []
                for _ in 0..<argument {
                    let key = try decode(depth: depth + 1)
                    guard !pairs.contains(where: { $0.0 == key }) else { throw DecodingError(reason: "map has a key twice") }
                    pairs.append((key, try decode(depth: depth + 1)))
                }
                return .map(pairs)
            default:
                throw DecodingError(reason: "tags are not read")
            }
        }

        private mutating func argument(_ additional: UInt8) throws(DecodingError) -> UInt64 {
            switch additional {
            case 0..<24: return UInt64(additional)
            case 24: return UInt64(try byte())
            case 25: return try bigEndian(2)
            case 26: return try bigEndian(4)
            case 27: return try bigEndian(8)
            default: throw DecodingError(reason: "indefinite lengths are not read")
            }
        }

        private mutating func bigEndian(_ count: Int) throws(DecodingError) -> UInt64 {
            try take(UInt64(count)).reduce(0) { $0 << 8 | UInt64($1) }
        }

        private mutating func byte() throws(DecodingError) -> UInt8 {
            guard offset < bytes.count else { throw DecodingError(reason: "ends early") }
            defer { offset += 1 }
            return bytes[offset]
        }

        private mutating func take(_ count: UInt64) throws(DecodingError) -> [UInt8] {
            guard count <= UInt64(bytes.count - offset) else { throw DecodingError(reason: "ends early") }
            defer { offset += Int(count) }
            return Array(bytes[offset..<offset + Int(count)])
        }
    }
}
