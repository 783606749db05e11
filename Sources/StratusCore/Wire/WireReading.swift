import Foundation

/// A request body that reads itself from a ``JSONValue`` tree (see ``JSONParser``), the server's
/// fast path. The type's `Decodable` conformance goes through the same conversion.
package protocol WireReadable: Sendable {
    init(json: JSONValue) throws(CloudKitError)
}

// MARK: - Reading helpers

extension JSONValue {
    func object(_ what: String) throws(CloudKitError) -> JSONObject {
        guard case .object(let object) = self else { throw Self.mismatch(what, expected: "an object", found: self) }
        return object
    }

    func array(_ what: String) throws(CloudKitError) -> [JSONValue] {
        guard case .array(let array) = self else { throw Self.mismatch(what, expected: "an array", found: self) }
        return array
    }

    func string(_ what: String) throws(CloudKitError) -> String {
        guard case .string(let text) = self else { throw Self.mismatch(what, expected: "a string", found: self) }
        return text
    }

    func bool(_ what: String) throws(CloudKitError) -> Bool {
        guard case .bool(let value) = self else { throw Self.mismatch(what, expected: "a boolean", found: self) }
        return value
    }

    func integer(_ what: String) throws(CloudKitError) -> Int64 {
        switch self {
        case .integer(let value): return value
        case .number(let value) where value.rounded() == value: if let exact = Int64(exactly: value) { return exact }
        default: break
        }
        throw Self.mismatch(what, expected: "an integer", found: self)
    }

    func double(_ what: String) throws(CloudKitError) -> Double {
        switch self {
        case .integer(let value): return Double(value)
        case .number(let value): return value
        default: throw Self.mismatch(what, expected: "a number", found: self)
        }
    }

    static func mismatch(_ what: String, expected: String, found: JSONValue) -> CloudKitError {
        .badRequest("unexpected value at \(what): expected \(expected), found \(found.kind)")
    }
}

extension JSONObject {
    /// The member's value; nil when it is absent or `null`.
    func optional(_ key: String) -> JSONValue? {
        guard let value = self[key] else { return nil }
        if case .null = value { return nil }
        return value
    }

    func required(_ key: String) throws(CloudKitError) -> JSONValue {
        guard let value = optional(key) else { throw CloudKitError.badRequest("missing key '\(key)'") }
        return value
    }

    func optionalString(_ key: String) throws(CloudKitError) -> String? { try optional(key)?.string(key) }
    func optionalBool(_ key: String) throws(CloudKitError) -> Bool? { try optional(key)?.bool(key) }
    func optionalInteger(_ key: String) throws(CloudKitError) -> Int64? { try optional(key)?.integer(key) }
    func optionalDouble(_ key: String) throws(CloudKitError) -> Double? { try optional(key)?.double(key) }
    func optionalInt(_ key: String) throws(CloudKitError) -> Int? { try optionalInteger(key).map(Int.init) }

    func optionalStrings(_ key: String) throws(CloudKitError) -> [String]? {
        guard let array = try optional(key)?.array(key) else { return nil }
        var strings: [String] = []
        for element in array { strings.append(try element.string(key)) }
        return strings
    }
}

// MARK: - CloudKit dictionaries

extension ZoneID {
    init(json: JSONValue, at path: String) throws(CloudKitError) {
        let object = try json.object(path)
        var owner = try object.optionalString("ownerRecordName")
        if owner == nil { owner = try object.optionalString("ownerName") }
        self.init(zoneName: try object.optionalString("zoneName") ?? ZoneID.defaultZoneName, ownerRecordName: owner)
    }
}

extension FieldValue {
    /// How a Record Field Dictionary asked for its value to be encrypted.
    package enum SentEncryption: Sendable {
        /// Not encrypted.
        case none
        /// `"isEncrypted": true` with the value's plain `type`, as CloudKit asks.
        case typed
        /// `"isEncrypted": true` without a `type`: CloudKit takes the value as `ENCRYPTED_BYTES`
        /// (base64 text), and reads it as bytes only when it is base64.
        case untyped
    }

    /// Reads a Record Field Dictionary's value; nil for an absent or `null` value.
    /// A `type` is checked even when there is no value to read.
    static func read(field: JSONObject) throws(CloudKitError) -> FieldValue? {
        var encryption = SentEncryption.none
        return try read(field: field, encryption: &encryption)
    }

    /// The same, telling in `encryption` whether the field is encrypted (`"isEncrypted": true`).
    /// A reference or an asset cannot be.
    static func read(field: JSONObject, encryption: inout SentEncryption) throws(CloudKitError) -> FieldValue? {
        var type: FieldType?
        if let typeName = try field.optionalString("type"), typeName != "LIST" {
            guard let named = FieldType(wireName: typeName) else { throw .badRequest("unknown field type '\(typeName)'") }
            type = named
        }
        if try field.optionalBool("isEncrypted") == true {
            encryption = type == nil ? .untyped : .typed
            if let type {
                let scalar = switch type { case .scalar(let scalar), .list(let scalar): scalar }
                guard scalar.isEncryptable else { throw .badRequest("a \(type.wireName) value cannot be encrypted") }
            }
        }
        guard let value = field.optional("value") else { return nil }
        if let type { return try read(value, as: type) }
        if encryption == .untyped, case .string(let text) = value, let data = Data(base64Encoded: text) { return .bytes(data) }
        return try read(value, as: inferType(of: value))
    }

    private static func inferType(of value: JSONValue) throws(CloudKitError) -> FieldType {
        if case .array(let elements) = value {
            var types = Set<ScalarType>()
            for element in elements {
                guard let type = element.inferredScalarType else {
                    throw .badRequest("cannot infer the type of a list value; send its 'type'")
                }
                types.insert(type)
            }
            if types.isEmpty { return .list(.string) }
            if types == [.int64, .double] { return .list(.double) }
            guard types.count == 1, let element = types.first else { throw .badRequest("list values must all have the same type") }
            return .list(element)
        }
        guard let scalar = value.inferredScalarType else {
            throw .badRequest("cannot infer the type of a field value; send its 'type'")
        }
        return .scalar(scalar)
    }

    private static func read(_ value: JSONValue, as type: FieldType) throws(CloudKitError) -> FieldValue {
        do throws(CloudKitError) {
            switch type {
            case .scalar(let scalar):
                return try read(value, scalar: scalar)
            case .list(let scalar):
                guard case .array(let elements) = value else { throw CloudKitError.badRequest("") }
                var values: [FieldValue] = []
                values.reserveCapacity(elements.count)
                for element in elements { values.append(try read(element, scalar: scalar)) }
                return .list(scalar, values)
            }
        } catch where error.reason.isEmpty || error.reason.hasPrefix("unexpected value") {
            throw .badRequest("value does not match its type \(type.wireName)")
        }
    }

    private static func read(_ value: JSONValue, scalar: ScalarType) throws(CloudKitError) -> FieldValue {
        switch scalar {
        case .string:
            return .string(try value.string("value"))
        case .int64:
            return .int64(try integer(value))
        case .timestamp:
            // Milliseconds with a fraction (a JavaScript date's arithmetic) are rounded, as an
            // untyped number is.
            if case .number(let number) = value, let rounded = Int64(exactly: number.rounded()) { return .timestamp(rounded) }
            return .timestamp(try integer(value))
        case .double:
            if case .string(let text) = value {
                guard let number = Double(text), number.isFinite else { throw .badRequest("'\(text)' is not a DOUBLE") }
                return .double(number)
            }
            return .double(try value.double("value"))
        case .bytes:
            guard let data = Data(base64Encoded: try value.string("value")) else { throw .badRequest("BYTES value is not valid base64") }
            return .bytes(data)
        case .reference:
            let object = try value.object("value")
            let recordName = try object.required("recordName").string("recordName")
            try NameRules.validateFieldName(recordName, kind: "reference recordName")
            var action: Reference.Action?
            if let name = try object.optionalString("action") {
                guard let parsed = Reference.Action(rawValue: name) else { throw .badRequest("unknown reference action '\(name)'") }
                action = parsed
            }
            let zoneID = try object.optional("zoneID").map { json throws(CloudKitError) in try ZoneID(json: json, at: "zoneID") }
            return .reference(Reference(recordName: recordName, zoneID: zoneID, action: action))
        case .location:
            let object = try value.object("value")
            let location = Location(
                latitude: try object.required("latitude").double("latitude"), longitude: try object.required("longitude").double("longitude"),
                horizontalAccuracy: try object.optionalDouble("horizontalAccuracy"), verticalAccuracy: try object.optionalDouble("verticalAccuracy"),
                altitude: try object.optionalDouble("altitude"), speed: try object.optionalDouble("speed"),
                course: try object.optionalDouble("course"), timestamp: try object.optionalInteger("timestamp"))
            guard (-90...90).contains(location.latitude), (-180...180).contains(location.longitude) else {
                throw .badRequest("LOCATION latitude or longitude is out of range")
            }
            return .location(location)
        case .asset:
            let object = try value.object("value")
            return .asset(Asset(
                fileChecksum: try object.optionalString("fileChecksum"), size: try object.optionalInteger("size"),
                referenceChecksum: try object.optionalString("referenceChecksum"), wrappingKey: try object.optionalString("wrappingKey"),
                receipt: try object.optionalString("receipt"), downloadURL: try object.optionalString("downloadURL")))
        }
    }

    /// INT64 and TIMESTAMP accept integers, integral numbers, booleans (as 0/1) and numeric strings
    /// (what `numbersAsStrings` clients send back).
    private static func integer(_ value: JSONValue) throws(CloudKitError) -> Int64 {
        switch value {
        case .bool(let flag): return flag ? 1 : 0
        case .string(let text):
            guard let number = Int64(text) else { throw .badRequest("'\(text)' is not an integer") }
            return number
        default: return try value.integer("value")
        }
    }
}

extension RecordStamp {
    init(json: JSONValue, at path: String) throws(CloudKitError) {
        let object = try json.object(path)
        self.init(timestamp: try object.required("timestamp").integer("timestamp"),
                  userRecordName: try object.required("userRecordName").string("userRecordName"),
                  deviceID: try object.optionalString("deviceID") ?? "")
    }
}

extension Record: WireReadable {
    package init(json: JSONValue) throws(CloudKitError) {
        let object = try json.object("record")
        self.init()
        // One pass over the members (the first of a repeated key wins, as in lookups); a `null`
        // member counts as absent.
        var seen: UInt16 = 0
        func first(_ bit: UInt16) -> Bool {
            defer { seen |= bit }
            return seen & bit == 0
        }
        var hasShareKeys = false
        for (key, value) in object.members {
            if case .null = value { continue }
            switch key {
            case "recordName": if first(1 << 0) { recordName = try value.string(key) }
            case "recordType": if first(1 << 1) { recordType = try value.string(key) }
            case "recordChangeTag": if first(1 << 2) { recordChangeTag = try value.string(key) }
            case "fields": if first(1 << 3) { try Self.readFields(value, into: &self) }
            case "created": if first(1 << 4) { created = try RecordStamp(json: value, at: key) }
            case "modified": if first(1 << 5) { modified = try RecordStamp(json: value, at: key) }
            case "deleted": if first(1 << 6) { deleted = try value.bool(key) }
            case "parent":
                if first(1 << 7) { parent = RecordPointer(recordName: try value.object(key).required("recordName").string("parent.recordName")) }
            case "share":
                if first(1 << 8) { share = RecordPointer(recordName: try value.object(key).required("recordName").string("share.recordName")) }
            case "zoneID": if first(1 << 9) { zoneID = try ZoneID(json: value, at: key) }
            default: hasShareKeys = hasShareKeys || ShareKeys.keys.contains(key)
            }
        }
        if hasShareKeys { shareKeys = try ShareKeys.read(object) }
    }

    /// Reads a fields dictionary, `{"name": {"value": …, "type": …}, …}`; a field whose value is
    /// `null` maps to nil (removal, for `update`). Errors name the field.
    package static func readFields(_ json: JSONValue) throws(CloudKitError) -> [String: FieldValue?] {
        var record = Record()
        try readFields(json, into: &record)
        return record.fields
    }

    /// Reads a fields dictionary into `record`'s fields, and its encrypted fields' names into
    /// ``encryptedFields`` (and ``untypedEncryptedFields``).
    package static func readFields(_ json: JSONValue, into record: inout Record) throws(CloudKitError) {
        let members = try json.object("fields").members
        var fields: [String: FieldValue?] = [:]
        fields.reserveCapacity(members.count)
        for (name, field) in members {
            do throws(CloudKitError) {
                var encryption = FieldValue.SentEncryption.none
                fields[name] = .some(try FieldValue.read(field: try field.object("field"), encryption: &encryption))
                switch encryption {
                case .none: break
                case .typed: record.encryptedFields.insert(name)
                case .untyped:
                    record.encryptedFields.insert(name)
                    record.untypedEncryptedFields.insert(name)
                }
            } catch {
                throw CloudKitError(error.code, "field '\(name)': \(error.reason)")
            }
        }
        record.fields = fields
    }
}

extension RecordOperation: WireReadable {
    package init(json: JSONValue) throws(CloudKitError) {
        let object = try json.object("operations[]")
        let typeName = try object.required("operationType").string("operationType")
        guard let type = RecordOperationType(rawValue: typeName) else {
            throw .badRequest("unknown operationType '\(typeName)'")
        }
        let createKey = try object.optionalString("createKey")
        if let createKey, createKey.isEmpty || createKey.unicodeScalars.count > Self.maxCreateKeyLength {
            throw .badRequest("createKey must be 1 to \(Self.maxCreateKeyLength) characters")
        }
        let json = try object.required("record")
        var record = Record()
        var unreadable: CloudKitError?
        do {
            record = try Record(json: json)
        } catch {
            // The record fails alone when the answer can name it.
            guard let name = try? json.object("record").optionalString("recordName"), !name.isEmpty else { throw error }
            record.recordName = name
            unreadable = error
        }
        self.init(type, record, desiredKeys: try object.optionalStrings("desiredKeys"), createKey: createKey)
        self.unreadable = unreadable
    }
}

extension RecordsModifyRequest: WireReadable {
    package init(json: JSONValue) throws(CloudKitError) {
        let (request, list) = try Self.readingOperationsLater(json)
        self = request
        operations.reserveCapacity(list.count)
        for operation in list {
            operations.append(try RecordOperation(json: operation))
        }
    }

    /// The request with no operations, and its operations' JSON still to read (with
    /// ``RecordOperation/init(json:)``): the server reads them beside its writer.
    package static func readingOperationsLater(_ json: JSONValue) throws(CloudKitError) -> (request: Self, operations: [JSONValue]) {
        let object = try json.object("the request body")
        let list = try object.required("operations").array("operations")
        var request = Self(operations: [], zoneID: try object.optional("zoneID").map { json throws(CloudKitError) in try ZoneID(json: json, at: "zoneID") },
                           atomic: try object.optionalBool("atomic"), desiredKeys: try object.optionalStrings("desiredKeys"))
        request.numbersAsStrings = try object.optionalBool("numbersAsStrings")
        return (request, list)
    }
}

extension ZoneChangesRequest: WireReadable {
    package init(json: JSONValue) throws(CloudKitError) {
        let object = try json.object("the request body")
        var zones: [ZoneQuery] = []
        for zone in try object.required("zones").array("zones") {
            zones.append(try ZoneQuery(json: zone))
        }
        self.init(zones: zones, resultsLimit: try object.optionalInt("resultsLimit"), desiredKeys: try object.optionalStrings("desiredKeys"))
        desiredRecordTypes = try object.optionalStrings("desiredRecordTypes")
    }
}

extension ZoneChangesRequest.ZoneQuery: WireReadable {
    package init(json: JSONValue) throws(CloudKitError) {
        let object = try json.object("zones[]")
        self.init(zoneID: try ZoneID(json: object.required("zoneID"), at: "zoneID"), syncToken: try object.optionalString("syncToken"),
                  resultsLimit: try object.optionalInt("resultsLimit"), desiredKeys: try object.optionalStrings("desiredKeys"))
        desiredRecordTypes = try object.optionalStrings("desiredRecordTypes")
    }
}

extension WireReadable {
    /// Decodes through the shared tree conversion.
    package init(decodingTreeFrom decoder: any Decoder) throws {
        try self.init(json: JSONValue(from: decoder))
    }
}
