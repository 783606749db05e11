/// A parsed JSON value: what CloudKit dictionaries are read from, by ``JSONParser`` on the server's
/// hot path and through `Codable` elsewhere, so both share one set of conversion rules.
package enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case integer(Int64)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

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

    /// What this value is, for error messages.
    var kind: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .integer, .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

/// A JSON object's members in their order; lookups are linear, which beats hashing for the small
/// objects CloudKit uses.
package struct JSONObject: Sendable, Equatable {
    package var members: [(key: String, value: JSONValue)]

    package init(_ members: [(key: String, value: JSONValue)] = []) { self.members = members }

    package subscript(key: String) -> JSONValue? {
        for member in members where member.key == key { return member.value }
        return nil
    }

    package static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        lhs.members.count == rhs.members.count && zip(lhs.members, rhs.members).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    }
}

extension JSONValue: Decodable {
    package init(from decoder: any Decoder) throws {
        if let container = try? decoder.container(keyedBy: FieldKey.self) {
            self = .object(JSONObject(try container.allKeys.map { ($0.stringValue, try container.decode(JSONValue.self, forKey: $0)) }))
            return
        }
        if var container = try? decoder.unkeyedContainer() {
            var elements: [JSONValue] = []
            while !container.isAtEnd { elements.append(try container.decode(JSONValue.self)) }
            self = .array(elements)
            return
        }
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null }
        else if let value = try? container.decode(Bool.self) { self = .bool(value) }
        else if let value = try? container.decode(Int64.self) { self = .integer(value) }
        else if let value = try? container.decode(Double.self) { self = .number(value) }
        else { self = .string(try container.decode(String.self)) }
    }
}

extension JSONValue: Encodable {
    package func encode(to encoder: any Encoder) throws {
        switch self {
        case .object(let object):
            var container = encoder.container(keyedBy: FieldKey.self)
            for (key, value) in object.members { try container.encode(value, forKey: FieldKey(key)) }
        case .array(let elements):
            var container = encoder.unkeyedContainer()
            for element in elements { try container.encode(element) }
        case .null:
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        case .bool(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .integer(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .number(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .string(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        }
    }
}
