/// The record types of one container environment: each type's fields, their types and indexes.
///
/// In `development` the schema grows as records are saved; in `production` it is deployed from
/// development and records must fit it. Its text form is CloudKit's schema language
/// (see ``SchemaText``), kept in the app's repository.
public struct Schema: Sendable, Equatable {
    public var recordTypes: [String: RecordTypeSchema]
    /// The custom security roles (`CREATE ROLE`); the built-in ones are not listed.
    public var roles: Set<String>
    /// The public database's grants by record type, then role (see ``SecurityRole``); a record
    /// type that has none has CloudKit's defaults.
    public var grants: [String: [String: RecordPermissions]]

    public init(recordTypes: [String: RecordTypeSchema] = [:], roles: Set<String> = [], grants: [String: [String: RecordPermissions]] = [:]) {
        self.recordTypes = recordTypes
        self.roles = roles
        self.grants = grants
    }

    /// The grants in force for a record type: its own, or CloudKit's defaults.
    public func effectiveGrants(of recordType: String) -> [String: RecordPermissions] {
        SecurityRole.grantsInForce(grants[recordType])
    }

    /// The changes that would turn `self` into `newer` without losing anything, or the reasons
    /// it cannot: a removed type or field, or a field whose type changed. New roles are added
    /// and changed grants replace the old (security rules are not data), roles are never removed.
    public func additiveChanges(to newer: Schema) -> Result<[SchemaChange], SchemaConflict> {
        var problems: [String] = []
        var changes: [SchemaChange] = []
        for (name, type) in recordTypes.sorted(by: { $0.key < $1.key }) {
            guard let newType = newer.recordTypes[name] else {
                problems.append("record type '\(name)' would be removed")
                continue
            }
            for (fieldName, field) in type.fields.sorted(by: { $0.key < $1.key }) {
                guard let newField = newType.fields[fieldName] else {
                    problems.append("field '\(name).\(fieldName)' would be removed")
                    continue
                }
                if newField.typeName != field.typeName {
                    problems.append("field '\(name).\(fieldName)' would change type from \(field.typeName) to \(newField.typeName)")
                } else if newField.indexes != field.indexes {
                    changes.append(.setIndexes(recordType: name, field: newField))
                }
            }
        }
        for (name, newType) in newer.recordTypes.sorted(by: { $0.key < $1.key }) {
            for (fieldName, field) in newType.fields.sorted(by: { $0.key < $1.key }) where recordTypes[name]?.fields[fieldName] == nil {
                changes.append(.addField(recordType: name, field: field))
            }
            if newType.fields.isEmpty && recordTypes[name] == nil {
                changes.append(.addRecordType(name))
            }
        }
        for role in newer.roles.subtracting(roles).sorted() {
            changes.append(.addRole(role))
        }
        for name in Set(grants.keys).union(newer.grants.keys).sorted() where effectiveGrants(of: name) != newer.effectiveGrants(of: name) {
            changes.append(.setGrants(recordType: name, grants: newer.grants[name] ?? [:]))
        }
        return problems.isEmpty ? .success(changes) : .failure(SchemaConflict(problems: problems))
    }
}

/// One record type: its fields by name.
public struct RecordTypeSchema: Sendable, Equatable {
    public var name: String
    public var fields: [String: FieldSchema]

    public init(name: String, fields: [String: FieldSchema] = [:]) {
        self.name = name
        self.fields = fields
    }
}

/// One field of a record type.
public struct FieldSchema: Sendable, Equatable {
    public var name: String
    /// The type of its values (an encrypted field's plain type: `STRING` for `ENCRYPTED STRING`).
    public var type: FieldType
    public var indexes: FieldIndexes
    /// Whether its values are encrypted (`ENCRYPTED STRING`, `LIST<ENCRYPTED DOUBLE>`): the server
    /// keeps them sealed and can neither index, filter nor sort them. Fixed once the field exists.
    public var isEncrypted: Bool

    public init(name: String, type: FieldType, indexes: FieldIndexes = [], isEncrypted: Bool = false) {
        self.name = name
        self.type = type
        self.indexes = indexes
        self.isEncrypted = isEncrypted
    }

    /// The type as CloudKit names it in schema errors: `ENCRYPTED_STRING` for an encrypted
    /// STRING, `ENCRYPTED_DOUBLE_LIST` for a list of encrypted DOUBLEs.
    public var typeName: String { isEncrypted ? "ENCRYPTED_" + type.wireName : type.wireName }
}

/// The indexes of a field, as CloudKit names them.
public struct FieldIndexes: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Equality filters.
    public static let queryable = FieldIndexes(rawValue: 1 << 0)
    /// Range filters and sorting.
    public static let sortable = FieldIndexes(rawValue: 1 << 1)
    /// Tokenised text search.
    public static let searchable = FieldIndexes(rawValue: 1 << 2)
}

/// One additive step from one schema to a newer one.
public enum SchemaChange: Sendable, Equatable, CustomStringConvertible {
    case addRecordType(String)
    case addField(recordType: String, field: FieldSchema)
    case setIndexes(recordType: String, field: FieldSchema)
    case addRole(String)
    /// Replaces a record type's grants (empty: CloudKit's defaults).
    case setGrants(recordType: String, grants: [String: RecordPermissions])

    /// One line: `+` for what is added, `~` for what changes.
    public var description: String {
        switch self {
        case .addRecordType(let type): "+ record type \(type)"
        case .addField(let type, let field): "+ field \(type).\(field.name) \(field.typeName)"
        case .setIndexes(let type, let field): "~ indexes of \(type).\(field.name)"
        case .addRole(let role): "+ role \(role)"
        case .setGrants(let type, let grants):
            "~ grants of \(type): " + (grants.isEmpty ? "CloudKit's defaults" : grants.sorted { $0.key < $1.key }.map { role, permissions in
                RecordPermissions.names.filter { permissions.contains($0.permission) }.map(\.name).joined(separator: ", ") + " to " + role
            }.joined(separator: "; "))
        }
    }
}

/// Why a schema cannot replace another: what would be lost.
public struct SchemaConflict: Error, Sendable, Equatable, CustomStringConvertible {
    public var problems: [String]

    public var description: String {
        "the change is not additive: " + problems.joined(separator: "; ")
    }
}
