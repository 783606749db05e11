/// Any JSON value, used to look at an untyped field value before its type is known.
enum JSONValue: Decodable {
    case null
    case bool(Bool)
    case integer(Int64)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null }
        else if let value = try? container.decode(Bool.self) { self = .bool(value) }
        else if let value = try? container.decode(Int64.self) { self = .integer(value) }
        else if let value = try? container.decode(Double.self) { self = .number(value) }
        else if let value = try? container.decode(String.self) { self = .string(value) }
        else if let value = try? container.decode([JSONValue].self) { self = .array(value) }
        else { self = .object(try container.decode([String: JSONValue].self)) }
    }

    /// The scalar type CloudKit clients mean when they send this value without a `type`.
    var inferredScalarType: ScalarType? {
        switch self {
        case .bool, .integer: .int64
        case .number: .double
        case .string: .string
        case .object(let members):
            if members["latitude"] != nil, members["longitude"] != nil { .location }
            else if members["recordName"] != nil { .reference }
            else if members["fileChecksum"] != nil || members["receipt"] != nil || members["downloadURL"] != nil { .asset }
            else { nil }
        case .null, .array: nil
        }
    }
}
