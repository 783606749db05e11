/// A strict, allocation-light JSON parser over UTF-8 bytes, producing ``JSONValue``.
///
/// Nesting deeper than ``maximumDepth`` is rejected, so no input can exhaust the stack.
package struct JSONParser {
    package static let maximumDepth = 64

    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    /// With ``parse(_:leavingElementsOf:flagging:)``: the top-level member whose array is checked
    /// but not built, the words that flag an element, and what was found.
    private var unread: (member: String, flagging: [[UInt8]])?
    private var elements: [JSONElements.Element]?
    /// Whether a string of the element being checked is one of the flagging words.
    private var flagged = false

    /// Parses one JSON document; anything but whitespace after it is an error.
    package static func parse(_ bytes: [UInt8]) throws(CloudKitError) -> JSONValue {
        let result: Result<JSONValue, CloudKitError> = bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(CloudKitError) in try parse(buffer) }
        }
        return try result.get()
    }

    /// Parses one JSON document in memory the caller owns (a request body's buffer, read in
    /// place); anything but whitespace after it is an error.
    package static func parse(_ buffer: UnsafeBufferPointer<UInt8>) throws(CloudKitError) -> JSONValue {
        var parser = JSONParser(bytes: buffer)
        let value = try parser.value(depth: 0)
        parser.skipWhitespace()
        guard parser.index == buffer.count else { throw parser.invalid("unexpected data after the JSON value") }
        return value
    }

    /// Parses one JSON document whose top-level object's first `member`, when it is an array, is
    /// checked as strictly as the rest but not built: the tree holds an empty array there, and
    /// its elements come back as places in `buffer` (nil when there is no such array), read later
    /// one at a time with ``JSONElements/element(_:)``. An element holding a string (a member
    /// name or a value) equal to one of `flagging` is flagged.
    ///
    /// A `records/modify` body is read this way: its operations are read beside the writer, and
    /// no tree of the whole batch is built or destroyed while the request waits.
    package static func parse(_ buffer: UnsafeBufferPointer<UInt8>, leavingElementsOf member: String,
                              flagging: Set<String> = []) throws(CloudKitError) -> (JSONValue, [JSONElements.Element]?) {
        var parser = JSONParser(bytes: buffer)
        parser.unread = (member, flagging.map { Array($0.utf8) })
        let value = try parser.value(depth: 0)
        parser.skipWhitespace()
        guard parser.index == buffer.count else { throw parser.invalid("unexpected data after the JSON value") }
        return (value, parser.elements)
    }

    /// Parses the value at `start` of `buffer`, found well-formed before (an element of
    /// ``parse(_:leavingElementsOf:flagging:)``), as nested `depth` levels deep.
    static func parse(_ buffer: UnsafeBufferPointer<UInt8>, at start: Int, depth: Int) throws(CloudKitError) -> JSONValue {
        var parser = JSONParser(bytes: buffer)
        parser.index = start
        return try parser.value(depth: depth)
    }

    private init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    private func invalid(_ problem: String) -> CloudKitError {
        .badRequest("request body is not valid JSON: \(problem) at byte \(index)")
    }

    private mutating func skipWhitespace() {
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D || bytes[index] == 0x09 {
            index += 1
        }
    }

    private mutating func value(depth: Int) throws(CloudKitError) -> JSONValue {
        guard depth < Self.maximumDepth else { throw invalid("nested deeper than \(Self.maximumDepth) levels") }
        skipWhitespace()
        guard index < bytes.count else { throw invalid("unexpected end") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try object(depth: depth)
        case UInt8(ascii: "["): return try array(depth: depth)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        default: return try number()
        }
    }

    private mutating func literal(_ word: StaticString) throws(CloudKitError) {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count,
              word.withUTF8Buffer({ $0.elementsEqual(bytes[index..<index + count]) }) else { throw invalid("unknown literal") }
        index += count
    }

    /// At an opening `{` or `[`: steps past it, and past `closing` too when nothing is between them.
    private mutating func isEmpty(closedBy closing: UInt8) -> Bool {
        index += 1
        skipWhitespace()
        guard index < bytes.count, bytes[index] == closing else { return false }
        index += 1
        return true
    }

    /// After a member or an element: true past a `,` (another follows), false past `closing`.
    private mutating func another(before closing: UInt8) throws(CloudKitError) -> Bool {
        skipWhitespace()
        guard index < bytes.count else { throw invalid("unexpected end") }
        if bytes[index] == UInt8(ascii: ",") {
            index += 1
            return true
        }
        guard bytes[index] == closing else { throw invalid("expected ',' or '\(Character(Unicode.Scalar(closing)))'") }
        index += 1
        return false
    }

    private mutating func object(depth: Int) throws(CloudKitError) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = []
        members.reserveCapacity(4)
        guard !isEmpty(closedBy: UInt8(ascii: "}")) else { return .object(JSONObject(members)) }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw invalid("expected a member name") }
            let key = try string()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw invalid("expected ':'") }
            index += 1
            skipWhitespace()
            if depth == 0, elements == nil, key == unread?.member, index < bytes.count, bytes[index] == UInt8(ascii: "[") {
                elements = try checkElements(depth: depth + 1)
                members.append((key, .array([])))
            } else {
                members.append((key, try value(depth: depth + 1)))
            }
            guard try another(before: UInt8(ascii: "}")) else { return .object(JSONObject(members)) }
        }
    }

    private mutating func array(depth: Int) throws(CloudKitError) -> JSONValue {
        var elements: [JSONValue] = []
        guard !isEmpty(closedBy: UInt8(ascii: "]")) else { return .array(elements) }
        while true {
            elements.append(try value(depth: depth + 1))
            guard try another(before: UInt8(ascii: "]")) else { return .array(elements) }
        }
    }

    // MARK: - Checking without building

    /// The elements of the array at `index`, each checked as ``value(depth:)`` would read it.
    private mutating func checkElements(depth: Int) throws(CloudKitError) -> [JSONElements.Element] {
        guard depth < Self.maximumDepth else { throw invalid("nested deeper than \(Self.maximumDepth) levels") }
        var found: [JSONElements.Element] = []
        guard !isEmpty(closedBy: UInt8(ascii: "]")) else { return found }
        while true {
            skipWhitespace()
            let start = index
            flagged = false
            try check(depth: depth + 1)
            found.append(JSONElements.Element(start: start, flagged: flagged))
            guard try another(before: UInt8(ascii: "]")) else { return found }
        }
    }

    /// Checks the value at `index` as ``value(depth:)`` reads it, with the same errors, without
    /// building it.
    private mutating func check(depth: Int) throws(CloudKitError) {
        guard depth < Self.maximumDepth else { throw invalid("nested deeper than \(Self.maximumDepth) levels") }
        skipWhitespace()
        guard index < bytes.count else { throw invalid("unexpected end") }
        switch bytes[index] {
        case UInt8(ascii: "{"): try checkObject(depth: depth)
        case UInt8(ascii: "["): try checkArray(depth: depth)
        case UInt8(ascii: "\""): try checkString()
        case UInt8(ascii: "t"): try literal("true")
        case UInt8(ascii: "f"): try literal("false")
        case UInt8(ascii: "n"): try literal("null")
        default: _ = try number()
        }
    }

    private mutating func checkObject(depth: Int) throws(CloudKitError) {
        guard !isEmpty(closedBy: UInt8(ascii: "}")) else { return }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw invalid("expected a member name") }
            try checkString()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw invalid("expected ':'") }
            index += 1
            try check(depth: depth + 1)
            guard try another(before: UInt8(ascii: "}")) else { return }
        }
    }

    private mutating func checkArray(depth: Int) throws(CloudKitError) {
        guard !isEmpty(closedBy: UInt8(ascii: "]")) else { return }
        while true {
            try check(depth: depth + 1)
            guard try another(before: UInt8(ascii: "]")) else { return }
        }
    }

    /// Checks a string; one of plain ASCII is not made into a `String` unless it may be a
    /// flagging word.
    private mutating func checkString() throws(CloudKitError) {
        let start = index
        index += 1
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                flag(bytes[start + 1..<index - 1])
                return
            }
            if byte == UInt8(ascii: "\\") || byte >= 0x80 {
                // Escapes and UTF-8 are read as ``string()`` reads them, with its errors.
                index = start
                var text = try string()
                text.withUTF8 { flag($0[...]) }
                return
            }
            if byte < 0x20 { throw invalid("control character in a string") }
            index += 1
        }
        throw invalid("unterminated string")
    }

    /// Flags the element being checked if `text` is one of the flagging words.
    private mutating func flag(_ text: Slice<UnsafeBufferPointer<UInt8>>) {
        guard !flagged, let words = unread?.flagging else { return }
        flagged = words.contains { $0.count == text.count && $0.elementsEqual(text) }
    }

    // MARK: - Values

    private mutating func string() throws(CloudKitError) -> String {
        index += 1
        let start = index
        var ascii = true
        // Fast path: no escapes.
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                defer { index += 1 }
                if ascii { return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self) }
                return try text(bytes[start..<index])
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw invalid("control character in a string") }
            if byte >= 0x80 { ascii = false }
            index += 1
        }
        var buffer = Array(bytes[start..<index])
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return try text(buffer)
            case UInt8(ascii: "\\"):
                index += 1
                guard index < bytes.count else { throw invalid("unexpected end") }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): buffer.append(escape)
                case UInt8(ascii: "b"): buffer.append(0x08)
                case UInt8(ascii: "f"): buffer.append(0x0C)
                case UInt8(ascii: "n"): buffer.append(0x0A)
                case UInt8(ascii: "r"): buffer.append(0x0D)
                case UInt8(ascii: "t"): buffer.append(0x09)
                case UInt8(ascii: "u"): buffer.append(contentsOf: try unicodeEscape())
                default: throw invalid("unknown escape")
                }
            default:
                if byte < 0x20 { throw invalid("control character in a string") }
                buffer.append(byte)
                index += 1
            }
        }
        throw invalid("unterminated string")
    }

    private func text(_ utf8: Slice<UnsafeBufferPointer<UInt8>>) throws(CloudKitError) -> String {
        guard let text = String(validating: UnsafeBufferPointer(rebasing: utf8), as: UTF8.self) else {
            throw invalid("string is not valid UTF-8")
        }
        return text
    }

    private func text(_ utf8: [UInt8]) throws(CloudKitError) -> String {
        guard let text = String(validating: utf8, as: UTF8.self) else { throw invalid("string is not valid UTF-8") }
        return text
    }

    private mutating func hex4() throws(CloudKitError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw invalid("short \\u escape") }
        var value: UInt32 = 0
        for byte in bytes[index..<index + 4] {
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw invalid("bad \\u escape")
            }
            value = value << 4 | UInt32(digit)
        }
        index += 4
        return value
    }

    private mutating func unicodeEscape() throws(CloudKitError) -> [UInt8] {
        var scalar = try hex4()
        if (0xD800...0xDBFF).contains(scalar) {
            guard index + 2 <= bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                throw invalid("lone surrogate")
            }
            index += 2
            let low = try hex4()
            guard (0xDC00...0xDFFF).contains(low) else { throw invalid("lone surrogate") }
            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
        }
        guard let unicode = Unicode.Scalar(scalar) else { throw invalid("lone surrogate") }
        return Array(String(Character(unicode)).utf8)
    }

    /// JSON's number grammar, `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`; integers that fit
    /// are read as `Int64` without going through text.
    private mutating func number() throws(CloudKitError) -> JSONValue {
        let start = index
        let negative = bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        let digitsStart = index
        var magnitude: UInt64 = 0
        var overflow = false
        while index < bytes.count, let digit = Self.digit(bytes[index]) {
            let (times10, o1) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times10.addingReportingOverflow(UInt64(digit))
            magnitude = sum
            overflow = overflow || o1 || o2
            index += 1
        }
        let digitCount = index - digitsStart
        guard digitCount > 0 else { throw invalid(negative ? "malformed number" : "unexpected character") }
        guard digitCount == 1 || bytes[digitsStart] != UInt8(ascii: "0") else { throw invalid("malformed number") }
        var fractional = false
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            fractional = true
            index += 1
            guard try skipDigits() > 0 else { throw invalid("malformed number") }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            fractional = true
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard try skipDigits() > 0 else { throw invalid("malformed number") }
        }
        if !fractional, !overflow {
            if !negative, magnitude <= UInt64(Int64.max) { return .integer(Int64(magnitude)) }
            // "-0" is the double -0.0: an integer has no negative zero to keep the sign in.
            if negative, magnitude != 0, magnitude <= UInt64(Int64.max) + 1 { return .integer(Int64(bitPattern: 0 &- magnitude)) }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        guard let value = Double(text), value.isFinite else { throw invalid("'\(text)' is out of range") }
        return .number(value)
    }

    private mutating func skipDigits() throws(CloudKitError) -> Int {
        let start = index
        while index < bytes.count, Self.digit(bytes[index]) != nil { index += 1 }
        return index - start
    }

    private static func digit(_ byte: UInt8) -> UInt8? {
        byte &- UInt8(ascii: "0") < 10 ? byte &- UInt8(ascii: "0") : nil
    }
}
