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
    /// whether it converted a value.
    mutating func check(recordType: String, fields: inout [String: FieldValue?]) async throws -> Bool {
        if ShareKeys.isShareType(recordType) { return false }   // a system type, outside the schema
        let known = try await schema(of: recordType)
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
            if let field = type.fields[name] {
                guard !field.isEncrypted else {
                    throw CloudKitError.badRequest("field '\(recordType).\(name)' is \(field.typeName), and this server does not store encrypted fields yet")
                }
                let valueType = value.type
                guard valueType != field.type else { continue }
                guard let coerced = Self.coerce(value, to: field.type) else {
                    throw CloudKitError.badRequest("field '\(recordType).\(name)' is \(field.type), not \(valueType)")
                }
                fields[name] = .some(coerced)
                converted = true
            } else {
                guard environment == .development else {
                    throw CloudKitError.badRequest("record type '\(recordType)' has no field '\(name)' in the production schema; deploy it from development")
                }
                let field = FieldSchema(name: name, type: value.type)
                type.fields[name] = field
                changes.append(.addField(recordType: recordType, field: field))
            }
        }
        if !changes.isEmpty {
            try await transaction.applySchemaChanges(changes, containerID: containerID, environment: environment)
            recordTypes[recordType] = type
        }
        return converted
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
