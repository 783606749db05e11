import StratusCore

/// ``SchemaStore`` in the SQL both drivers speak: each environment's record types and fields,
/// and the public database's security roles.
extension SchemaStore where Self: SQLDatabase {
    package func recordTypeSchema(containerID: String, environment: ContainerEnvironment, recordType: String) async throws -> RecordTypeSchema? {
        guard try await fetchOne("""
            SELECT 1 FROM schema_record_types WHERE container_id = \(containerID) AND environment = \(environment.rawValue)
              AND record_type = \(recordType)
            """) != nil else { return nil }
        var type = RecordTypeSchema(name: recordType)
        for row in try await fetch("""
            SELECT field_name, field_type, indexes FROM schema_fields
            WHERE container_id = \(containerID) AND environment = \(environment.rawValue) AND record_type = \(recordType)
            """) {
            guard let field = FieldSchema(name: try row.string(0), storedTypeName: try row.string(1), indexes: FieldIndexes(rawValue: try row.int(2))) else {
                continue
            }
            type.fields[field.name] = field
        }
        return type
    }

    package func schema(containerID: String, environment: ContainerEnvironment) async throws -> Schema {
        var schema = Schema()
        for row in try await fetch("""
            SELECT record_type FROM schema_record_types WHERE container_id = \(containerID) AND environment = \(environment.rawValue)
            """) {
            let name = try row.string(0)
            schema.recordTypes[name] = try await recordTypeSchema(containerID: containerID, environment: environment, recordType: name)
        }
        schema.roles = Set(try await fetch("""
            SELECT role FROM schema_roles WHERE container_id = \(containerID) AND environment = \(environment.rawValue)
            """).map { try $0.string(0) })
        for row in try await fetch("""
            SELECT record_type, role, permissions FROM schema_grants WHERE container_id = \(containerID) AND environment = \(environment.rawValue)
            """) {
            schema.grants[try row.string(0), default: [:]][try row.string(1)] = RecordPermissions(rawValue: try row.int(2))
        }
        return schema
    }

    package func applySchemaChanges(_ changes: [SchemaChange], containerID: String, environment: ContainerEnvironment) async throws {
        let environment = environment.rawValue
        for change in changes {
            switch change {
            case .addRecordType(let recordType):
                try await insertRecordType(recordType, containerID: containerID, environment: environment)
            case .addField(let recordType, let field), .setIndexes(let recordType, let field):
                try await insertRecordType(recordType, containerID: containerID, environment: environment)
                try await run("""
                    INSERT INTO schema_fields (container_id, environment, record_type, field_name, field_type, indexes)
                    VALUES (\(containerID), \(environment), \(recordType), \(field.name), \(field.storedTypeName), \(field.indexes.rawValue))
                    ON CONFLICT (container_id, environment, record_type, field_name)
                    DO UPDATE SET field_type = EXCLUDED.field_type, indexes = EXCLUDED.indexes
                    """)
            case .addRole(let role):
                try await run("""
                    INSERT INTO schema_roles (container_id, environment, role) VALUES (\(containerID), \(environment), \(role)) ON CONFLICT DO NOTHING
                    """)
            case .setGrants(let recordType, let grants):
                try await run("""
                    DELETE FROM schema_grants WHERE container_id = \(containerID) AND environment = \(environment) AND record_type = \(recordType)
                    """)
                for (role, permissions) in grants {
                    try await run("""
                        INSERT INTO schema_grants (container_id, environment, record_type, role, permissions)
                        VALUES (\(containerID), \(environment), \(recordType), \(role), \(permissions.rawValue))
                        """)
                }
            }
        }
    }

    package func replaceSchema(_ schema: Schema, containerID: String, environment: ContainerEnvironment) async throws {
        for table in ["schema_fields", "schema_record_types", "schema_roles", "schema_grants"] {
            try await run("DELETE FROM \(unescaped: table) WHERE container_id = \(containerID) AND environment = \(environment.rawValue)")
        }
        try await applySchemaChanges(schema.changesBuildingIt, containerID: containerID, environment: environment)
    }

    package func recordTypeGrants(containerID: String, environment: ContainerEnvironment, recordType: String) async throws -> [String: RecordPermissions] {
        var grants: [String: RecordPermissions] = [:]
        for row in try await fetch("""
            SELECT role, permissions FROM schema_grants
            WHERE container_id = \(containerID) AND environment = \(environment.rawValue) AND record_type = \(recordType)
            """) {
            grants[try row.string(0)] = RecordPermissions(rawValue: try row.int(1))
        }
        return grants
    }

    package func recordTypeGrants(containerID: String, environment: ContainerEnvironment) async throws -> [String: [String: RecordPermissions]] {
        var grants: [String: [String: RecordPermissions]] = [:]
        for row in try await fetch("""
            SELECT record_type, role, permissions FROM schema_grants WHERE container_id = \(containerID) AND environment = \(environment.rawValue)
            """) {
            grants[try row.string(0), default: [:]][try row.string(1)] = RecordPermissions(rawValue: try row.int(2))
        }
        return grants
    }

    package func userRoles(containerID: String, environment: ContainerEnvironment, user: String) async throws -> Set<String> {
        Set(try await fetch("""
            SELECT role FROM user_roles WHERE container_id = \(containerID) AND environment = \(environment.rawValue) AND user_record_name = \(user)
            """).map { try $0.string(0) })
    }

    package func setUserRole(_ role: String, granted: Bool, containerID: String, environment: ContainerEnvironment, user: String) async throws -> Bool {
        if granted {
            return try await changedRowCount("""
                INSERT INTO user_roles (container_id, environment, user_record_name, role)
                VALUES (\(containerID), \(environment.rawValue), \(user), \(role)) ON CONFLICT DO NOTHING RETURNING 1
                """) > 0
        }
        return try await changedRowCount("""
            DELETE FROM user_roles WHERE container_id = \(containerID) AND environment = \(environment.rawValue)
              AND user_record_name = \(user) AND role = \(role) RETURNING 1
            """) > 0
    }

    private func insertRecordType(_ recordType: String, containerID: String, environment: String) async throws {
        try await run("""
            INSERT INTO schema_record_types (container_id, environment, record_type) VALUES (\(containerID), \(environment), \(recordType))
            ON CONFLICT DO NOTHING
            """)
    }
}
