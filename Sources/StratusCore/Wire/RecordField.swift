import Foundation

/// The wire form of one field, CloudKit's Record Field Dictionary: `{"value": …, "type": "…"}`.
///
/// `type` is optional on input: when it is missing the type is inferred from the JSON value
/// (integer → INT64, fractional number → DOUBLE, string → STRING, array → a list of its elements'
/// type, an object with latitude/longitude → LOCATION, with recordName → REFERENCE). A `null`
/// value decodes as `nil`, which `update` reads as "remove this field".
public struct RecordField: Codable, Sendable, Hashable {
    public var value: FieldValue?

    public init(_ value: FieldValue?) { self.value = value }

    private enum CodingKeys: String, CodingKey { case value, type }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if try !container.contains(.value) || container.decodeNil(forKey: .value) {
            value = nil
            return
        }
        if let typeName = try container.decodeIfPresent(String.self, forKey: .type), typeName != "LIST" {
            guard let type = FieldType(wireName: typeName) else {
                throw CloudKitError.badRequest("unknown field type '\(typeName)'")
            }
            value = try Self.decode(type, from: container)
            return
        }
        let raw = try container.decode(JSONValue.self, forKey: .value)
        value = try Self.decode(Self.inferType(of: raw), from: container)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        guard let value else {
            try container.encodeNil(forKey: .value)
            return
        }
        try container.encode(value.type.wireName, forKey: .type)
        switch value {
        case .list(_, let elements):
            var list = container.nestedUnkeyedContainer(forKey: .value)
            for element in elements { try Self.encodeScalar(element, into: &list) }
        default:
            var single = container.superEncoder(forKey: .value).singleValueContainer()
            try Self.encodeScalar(value, into: &single)
        }
    }

    // MARK: - Decoding

    private static func inferType(of raw: JSONValue) throws -> FieldType {
        if case .array(let elements) = raw {
            let elementTypes = elements.map(\.inferredScalarType)
            if elementTypes.contains(nil) {
                throw CloudKitError.badRequest("cannot infer the type of a list value; send its 'type'")
            }
            let types = Set(elementTypes.compactMap { $0 })
            if types.isEmpty { return .list(.string) }
            if types == [.int64, .double] { return .list(.double) }
            guard types.count == 1, let element = types.first else {
                throw CloudKitError.badRequest("list values must all have the same type")
            }
            return .list(element)
        }
        guard let scalar = raw.inferredScalarType else {
            throw CloudKitError.badRequest("cannot infer the type of a field value; send its 'type'")
        }
        return .scalar(scalar)
    }

    private static func decode(_ type: FieldType, from container: KeyedDecodingContainer<CodingKeys>) throws -> FieldValue {
        do {
            switch type {
            case .scalar(let scalar):
                return try decodeScalar(scalar, from: container.superDecoder(forKey: .value).singleValueContainer())
            case .list(let scalar):
                var list = try container.nestedUnkeyedContainer(forKey: .value)
                var elements: [FieldValue] = []
                elements.reserveCapacity(list.count ?? 0)
                while !list.isAtEnd {
                    elements.append(try decodeScalar(scalar, from: list.superDecoder().singleValueContainer()))
                }
                return .list(scalar, elements)
            }
        } catch let error as CloudKitError {
            throw error
        } catch {
            throw CloudKitError.badRequest("value does not match its type \(type.wireName)")
        }
    }

    private static func decodeScalar(_ type: ScalarType, from container: any SingleValueDecodingContainer) throws -> FieldValue {
        switch type {
        case .string:
            return .string(try container.decode(String.self))
        case .int64:
            return .int64(try decodeInteger(container))
        case .timestamp:
            return .timestamp(try decodeInteger(container))
        case .double:
            if let text = try? container.decode(String.self) {
                guard let number = Double(text), number.isFinite else { throw CloudKitError.badRequest("'\(text)' is not a DOUBLE") }
                return .double(number)
            }
            return .double(try container.decode(Double.self))
        case .bytes:
            let text = try container.decode(String.self)
            guard let data = Data(base64Encoded: text) else {
                throw CloudKitError.badRequest("BYTES value is not valid base64")
            }
            return .bytes(data)
        case .reference:
            let reference = try container.decode(Reference.self)
            try NameRules.validateFieldName(reference.recordName, kind: "reference recordName")
            return .reference(reference)
        case .location:
            let location = try container.decode(Location.self)
            guard (-90...90).contains(location.latitude), (-180...180).contains(location.longitude) else {
                throw CloudKitError.badRequest("LOCATION latitude or longitude is out of range")
            }
            return .location(location)
        case .asset:
            return .asset(try container.decode(Asset.self))
        }
    }

    /// INT64 and TIMESTAMP accept integers, integral numbers, booleans (as 0/1) and numeric strings
    /// (what `numbersAsStrings` clients send back).
    private static func decodeInteger(_ container: any SingleValueDecodingContainer) throws -> Int64 {
        if let value = try? container.decode(Int64.self) { return value }
        if let value = try? container.decode(Bool.self) { return value ? 1 : 0 }
        if let text = try? container.decode(String.self), let value = Int64(text) { return value }
        let number = try container.decode(Double.self)
        guard number.rounded() == number, let value = Int64(exactly: number) else {
            throw CloudKitError.badRequest("\(number) is not an integer")
        }
        return value
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
