import StratusCore

extension FieldType {
    /// The spelling a field type is stored under (`ASSET`, not the `ASSETID` of responses).
    var storedName: String {
        switch self {
        case .scalar(let scalar): scalar.rawValue
        case .list(let scalar): scalar.rawValue + "_LIST"
        }
    }
}

extension FieldSchema {
    /// The spelling its type is stored under: ``FieldType/storedName``, after `ENCRYPTED_` for an
    /// encrypted field.
    var storedTypeName: String { (isEncrypted ? Self.encryptedPrefix : "") + type.storedName }

    private static let encryptedPrefix = "ENCRYPTED_"

    /// A field as stored: its name, the ``storedTypeName``, its indexes; nil for a type this
    /// release does not know.
    init?(name: String, storedTypeName: String, indexes: FieldIndexes) {
        let isEncrypted = storedTypeName.hasPrefix(Self.encryptedPrefix)
        guard let type = FieldType(wireName: isEncrypted ? String(storedTypeName.dropFirst(Self.encryptedPrefix.count)) : storedTypeName) else {
            return nil
        }
        self.init(name: name, type: type, indexes: indexes, isEncrypted: isEncrypted)
    }
}

extension Schema {
    /// The changes that build this schema from an empty one (how a backend replaces a schema).
    var changesBuildingIt: [SchemaChange] {
        var changes: [SchemaChange] = []
        for type in recordTypes.values {
            changes.append(.addRecordType(type.name))
            changes += type.fields.values.map { .addField(recordType: type.name, field: $0) }
        }
        changes += roles.map(SchemaChange.addRole)
        changes += grants.map { SchemaChange.setGrants(recordType: $0.key, grants: $0.value) }
        return changes
    }
}
