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
