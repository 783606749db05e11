import Foundation
import StratusCore

/// Checks records against their environment's schema inside a write transaction.
///
/// In development an unknown record type or field is added to the schema (as CloudKit does); in
/// production it is refused with `BAD_REQUEST` naming the type and field. In both, a value of
/// another type than the field's is refused, except where the schema tells how to read an untyped
/// value: an integer for a DOUBLE or TIMESTAMP field, an empty or integer list for a list field.
struct SchemaCheck {
    let transaction: any StorageTransaction
    let containerID: String
    let environment: ContainerEnvironment
    /// Record types read in this transaction; nil for a type the schema lacks.
    private(set) var recordTypes: [String: RecordTypeSchema?] = [:] {
        didSet { indexed.removeAll(keepingCapacity: true) }
    }
    /// The indexed fields of the record types in ``recordTypes``, as far as asked for.
    private var indexed: [String: [FieldSchema]] = [:]

    init(transaction: any StorageTransaction, containerID: String, environment: ContainerEnvironment) {
        self.transaction = transaction
        self.containerID = containerID
        self.environment = environment
    }

    /// Types the fields as the schema does, growing the development schema if needed; returns
    /// whether it converted a value. `encrypted` comes with the fields sent `isEncrypted` (and
    /// `untyped`, those of them sent without a type) and leaves with every field to seal: the
    /// schema is the rule, so a plain write to an encrypted field is encrypted too, and a field
    /// that holds plain values never becomes encrypted.
    mutating func check(recordType: String, fields: inout [String: FieldValue?], encrypted: inout Set<String>,
                        untyped: Set<String> = []) async throws -> Bool {
        if ShareKeys.isShareType(recordType) {   // a system type, outside the schema
            guard encrypted.isEmpty else { throw CloudKitError.badRequest("a share's fields cannot be encrypted") }
            return false
        }
        let known = try await schema(of: recordType)
        let plan = try plan(recordType: recordType, known: known, fields: &fields, encrypted: &encrypted, untyped: untyped)
        if !plan.changes.isEmpty {
            try await transaction.applySchemaChanges(plan.changes, containerID: containerID, environment: environment)
            recordTypes[recordType] = plan.type
        }
        return plan.converted
    }

    /// ``check(recordType:fields:encrypted:untyped:)`` without an `await` (each asks the task for
    /// its executor), for a record type this transaction has read whose schema holds every field
    /// already; nil, with nothing changed, where it must await.
    func checkRead(recordType: String, fields: inout [String: FieldValue?], encrypted: inout Set<String>,
                   untyped: Set<String> = []) throws -> Bool? {
        guard !ShareKeys.isShareType(recordType), case let known?? = recordTypes[recordType] else { return nil }
        var typed = fields
        var sealed = encrypted
        let plan = try plan(recordType: recordType, known: known, fields: &typed, encrypted: &sealed, untyped: untyped)
        guard plan.changes.isEmpty else { return nil }
        fields = typed
        encrypted = sealed
        return plan.converted
    }

    /// What writing `fields` asks of the schema, given the record type as it stands (`known`, nil
    /// when it has none): the fields typed as the schema types them and `encrypted` grown to every
    /// field it seals; whether a value was converted, and the type with the changes that add what
    /// it lacks (none when it holds every field).
    private func plan(recordType: String, known: RecordTypeSchema?, fields: inout [String: FieldValue?], encrypted: inout Set<String>,
                      untyped: Set<String>) throws -> (converted: Bool, type: RecordTypeSchema, changes: [SchemaChange]) {
        var changes: [SchemaChange] = []
        var type = known ?? RecordTypeSchema(name: recordType)
        if known == nil {
            guard environment == .development else {
                throw CloudKitError.badRequest("record type '\(recordType)' is not in the production schema; deploy it from development")
            }
            changes.append(.addRecordType(recordType))
        }
        var converted = false
        for (name, value) in fields {
            guard let value else { continue }
            let sentEncrypted = encrypted.contains(name)
            if let field = type.fields[name] {
                if field.isEncrypted {
                    encrypted.insert(name)
                } else if sentEncrypted {
                    throw CloudKitError.badRequest("field '\(recordType).\(name)' holds plain \(field.typeName) values; a field that exists cannot become encrypted")
                }
                if untyped.contains(name) {
                    try Self.checkUntyped(value, field: name, recordType: recordType, definedAs: field.typeName)
                }
                let valueType = value.type
                guard valueType != field.type else { continue }
                guard let coerced = Self.coerce(value, to: field.type) else {
                    if field.isEncrypted { throw Self.encryptedTypeMismatch(value, field: name, recordType: recordType, definedAs: field.typeName) }
                    throw CloudKitError.badRequest("field '\(recordType).\(name)' is \(field.type), not \(valueType)")
                }
                fields[name] = .some(coerced)
                converted = true
            } else {
                guard environment == .development else {
                    throw CloudKitError.badRequest("record type '\(recordType)' has no field '\(name)' in the production schema; deploy it from development")
                }
                if untyped.contains(name) {
                    try Self.checkUntyped(value, field: name, recordType: recordType, definedAs: "ENCRYPTED_BYTES")
                }
                // A first write with `isEncrypted` makes the field encrypted, as CloudKit does.
                let field = FieldSchema(name: name, type: value.type, isEncrypted: sentEncrypted)
                type.fields[name] = field
                changes.append(.addField(recordType: recordType, field: field))
            }
        }
        return (converted, type, changes)
    }

    /// Checks an encrypted value sent without its type: CloudKit reads it as `ENCRYPTED_BYTES`,
    /// which must be the field's type and base64 text.
    private static func checkUntyped(_ value: FieldValue, field: String, recordType: String, definedAs typeName: String) throws(CloudKitError) {
        guard typeName == "ENCRYPTED_BYTES" else {
            throw CloudKitError.badRequest("invalid attempt to set value type ENCRYPTED_BYTES for field '\(field)' for type '\(recordType)', defined to be: \(typeName)")
        }
        guard case .bytes = value else {
            throw CloudKitError.badRequest("field '\(field)': an encrypted value sent without its type is ENCRYPTED_BYTES, and this one is not base64; send its type")
        }
    }

    /// Apple's answer to an encrypted value of another type than its field's.
    private static func encryptedTypeMismatch(_ value: FieldValue, field: String, recordType: String, definedAs typeName: String) -> CloudKitError {
        .badRequest("invalid attempt to set value type ENCRYPTED_\(value.type.wireName) for field '\(field)' for type '\(recordType)', defined to be: \(typeName)")
    }

    /// The indexed fields of a record type, if ``indexedFields(of:)`` has read them in this
    /// transaction (a record's write takes them without an `await`).
    func knownIndexedFields(of recordType: String) -> [FieldSchema]? {
        indexed[recordType]
    }

    /// The fields of a record type that have index rows.
    mutating func indexedFields(of recordType: String) async throws -> [FieldSchema] {
        if let fields = indexed[recordType] { return fields }
        let fields = try await QueryIndexing.indexedFields(schema(of: recordType))
        indexed[recordType] = fields
        return fields
    }

    /// The record type's schema as this transaction knows it, read once; nil when it has none.
    private mutating func schema(of recordType: String) async throws -> RecordTypeSchema? {
        if let cached = recordTypes[recordType] { return cached }
        let type = try await transaction.recordTypeSchema(containerID: containerID, environment: environment, recordType: recordType)
        recordTypes[recordType] = type
        return type
    }

    /// Restores the view of the schema to an earlier one, after a savepoint undid changes.
    mutating func restore(_ earlier: [String: RecordTypeSchema?]) {
        recordTypes = earlier
    }

    /// The value as a value of `type`, or nil when it cannot be one.
    static func coerce(_ value: FieldValue, to type: FieldType) -> FieldValue? {
        if value.type == type { return value }
        switch (value, type) {
        case (.int64(let number), .scalar(.double)): return .double(Double(number))
        case (.int64(let number), .scalar(.timestamp)): return .timestamp(number)
        case (.double(let number), .scalar(.timestamp)):
            // Milliseconds with a fraction, as JavaScript clients send `Date.now()` values.
            let rounded = number.rounded()
            guard rounded.isFinite, abs(rounded) < 9e15 else { return nil }
            return .timestamp(Int64(rounded))
        case (.string(let text), .scalar(.bytes)):
            return Data(base64Encoded: text).map(FieldValue.bytes)
        case (.list(_, let elements), .list(let element)):
            var converted: [FieldValue] = []
            for item in elements {
                guard let item = coerce(item, to: .scalar(element)) else { return nil }
                converted.append(item)
            }
            return .list(element, converted)
        default: return nil
        }
    }
}
