import Foundation

/// The wire form of one field, CloudKit's Record Field Dictionary: `{"value": …, "type": "…"}`.
///
/// `type` is optional on input: when it is missing the type is inferred from the JSON value
/// (integer → INT64, fractional number → DOUBLE, string → STRING, array → a list of its elements'
/// type, an object with latitude/longitude → LOCATION, with recordName → REFERENCE). A `null`
/// value decodes as `nil`, which `update` reads as "remove this field". An encrypted field's
/// dictionary adds `"isEncrypted": true` to its plain value and type.
package struct RecordField: Codable, Sendable, Hashable {
    package var value: FieldValue?
    package var isEncrypted: Bool

    package init(_ value: FieldValue?, isEncrypted: Bool = false) {
        self.value = value
        self.isEncrypted = isEncrypted
    }

    private enum CodingKeys: String, CodingKey { case value, type, isEncrypted }

    package init(from decoder: any Decoder) throws {
        var encryption = FieldValue.SentEncryption.none
        value = try FieldValue.read(field: JSONValue(from: decoder).object("field"), encryption: &encryption)
        isEncrypted = encryption != .none
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        guard let value else {
            try container.encodeNil(forKey: .value)
            return
        }
        try container.encode(value.type.wireName, forKey: .type)
        if isEncrypted { try container.encode(true, forKey: .isEncrypted) }
        switch value {
        case .list(_, let elements):
            var list = container.nestedUnkeyedContainer(forKey: .value)
            for element in elements { try Self.encodeScalar(element, into: &list) }
        default:
            var single = container.superEncoder(forKey: .value).singleValueContainer()
            try Self.encodeScalar(value, into: &single)
        }
    }

    // MARK: - Encoding

    private static func encodeScalar(_ value: FieldValue, into container: inout some SingleValueEncodingContainer) throws {
        switch value {
        case .string(let text): try container.encode(text)
        case .int64(let number), .timestamp(let number): try container.encode(number)
        case .double(let number): try container.encode(number)
        case .bytes(let data): try container.encode(data.base64EncodedString())
        case .reference(let reference): try container.encode(reference)
        case .location(let location): try container.encode(location)
        case .asset(let asset): try container.encode(asset)
        case .list: throw EncodingError.invalidValue(value, .init(codingPath: [], debugDescription: "nested lists are not a CloudKit type"))
        }
    }

    private static func encodeScalar(_ value: FieldValue, into container: inout some UnkeyedEncodingContainer) throws {
        var single = container.superEncoder().singleValueContainer()
        try encodeScalar(value, into: &single)
    }
}
