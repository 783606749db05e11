import PostgresNIO
import StratusCore

/// Each environment's schema, and the public database's security roles.
extension PostgresTransaction {
    func recordTypeSchema(containerID: String, environment: ContainerEnvironment, recordType: String) async throws -> RecordTypeSchema? {
        guard try await value("""
            SELECT 1 FROM schema_record_types WHERE container_id = \(containerID) AND environment = \(environment.rawValue)
              AND record_type = \(recordType)
            """, as: Int32.self) != nil else { return nil }
        var type = RecordTypeSchema(name: recordType)
        for row in try await rows("""
            SELECT field_name, field_type, indexes FROM schema_fields
            WHERE container_id = \(containerID) AND environment = \(environment.rawValue) AND record_type = \(recordType)
            """) {
            guard let fieldType = FieldType(wireName: try row[1].decode(String.self)) else { continue }
            let name = try row[0].decode(String.self)
            type.fields[name] = FieldSchema(name: name, type: fieldType, indexes: FieldIndexes(rawValue: Int(try row[2].decode(Int32.self))))
        }
        return type
    }

    func schema(containerID: String, environment: ContainerEnvironment) async throws -> Schema {
        var schema = Schema()
        for name in try await values("""
            SELECT record_type FROM schema_record_types WHERE container_id = \(containerID) AND environment = \(environment.rawValue)
            """, as: String.self) {
            schema.recordTypes[name] = try await recordTypeSchema(containerID: containerID, environment: environment, recordType: name)
        }
        schema.roles = Set(try await values("""
            SELECT role FROM schema_roles WHERE container_id = \(containerID) AND environment = \(environment.rawValue)
            """, as: String.self))
        for row in try await rows("""
            SELECT record_type, role, permissions FROM schema_grants WHERE container_id = \(containerID) AND environment = \(environment.rawValue)
            """) {
            schema.grants[try row[0].decode(String.self), default: [:]][try row[1].decode(String.self)] =
                RecordPermissions(rawValue: Int(try row[2].decode(Int32.self)))
        }
        return schema
    }

    func applySchemaChanges(_ changes: [SchemaChange], containerID: String, environment: ContainerEnvironment) async throws {
        let environment = environment.rawValue
        for change in changes {
            switch change {
            case .addRecordType(let recordType):
                try await insertRecordType(recordType, containerID: containerID, environment: environment)
            case .addField(let recordType, let field), .setIndexes(let recordType, let field):
                try await insertRecordType(recordType, containerID: containerID, environment: environment)
                try await execute("""
                    INSERT INTO schema_fields (container_id, environment, record_type, field_name, field_type, indexes)
                    VALUES (\(containerID), \(environment), \(recordType), \(field.name), \(field.type.storedName), \(Int32(field.indexes.rawValue)))
                    ON CONFLICT (container_id, environment, record_type, field_name)
                    DO UPDATE SET field_type = EXCLUDED.field_type, indexes = EXCLUDED.indexes
                    """)
            case .addRole(let role):
                try await execute("""
                    INSERT INTO schema_roles (container_id, environment, role) VALUES (\(containerID), \(environment), \(role)) ON CONFLICT DO NOTHING
                    """)
            case .setGrants(let recordType, let grants):
                try await execute("""
                    DELETE FROM schema_grants WHERE container_id = \(containerID) AND environment = \(environment) AND record_type = \(recordType)
                    """)
                for (role, permissions) in grants {
                    try await execute("""
                        INSERT INTO schema_grants (container_id, environment, record_type, role, permissions)
                        VALUES (\(containerID), \(environment), \(recordType), \(role), \(Int32(permissions.rawValue)))
                        """)
                }
            }
        }
    }

    func replaceSchema(_ schema: Schema, containerID: String, environment: ContainerEnvironment) async throws {
        for table in ["schema_fields", "schema_record_types", "schema_roles", "schema_grants"] {
            try await execute("DELETE FROM \(unescaped: table) WHERE container_id = \(containerID) AND environment = \(environment.rawValue)")
        }
        try await applySchemaChanges(schema.changesBuildingIt, containerID: containerID, environment: environment)
    }

    private func insertRecordType(_ recordType: String, containerID: String, environment: String) async throws {
        try await execute("""
            INSERT INTO schema_record_types (container_id, environment, record_type) VALUES (\(containerID), \(environment), \(recordType))
            ON CONFLICT DO NOTHING
            """)
    }

    // MARK: Security roles

    func recordTypeGrants(containerID: String, environment: ContainerEnvironment, recordType: String) async throws -> [String: RecordPermissions] {
        var grants: [String: RecordPermissions] = [:]
        for row in try await rows("""
            SELECT role, permissions FROM schema_grants
            WHERE container_id = \(containerID) AND environment = \(environment.rawValue) AND record_type = \(recordType)
            """) {
            grants[try row[0].decode(String.self)] = RecordPermissions(rawValue: Int(try row[1].decode(Int32.self)))
        }
        return grants
    }

    func userRoles(containerID: String, environment: ContainerEnvironment, user: String) async throws -> Set<String> {
        Set(try await values("""
            SELECT role FROM user_roles WHERE container_id = \(containerID) AND environment = \(environment.rawValue) AND user_record_name = \(user)
            """, as: String.self))
    }

    func setUserRole(_ role: String, granted: Bool, containerID: String, environment: ContainerEnvironment, user: String) async throws -> Bool {
        if granted {
            return try await changedRows("""
                INSERT INTO user_roles (container_id, environment, user_record_name, role)
                VALUES (\(containerID), \(environment.rawValue), \(user), \(role)) ON CONFLICT DO NOTHING RETURNING 1
                """) > 0
        }
        return try await changedRows("""
            DELETE FROM user_roles WHERE container_id = \(containerID) AND environment = \(environment.rawValue)
              AND user_record_name = \(user) AND role = \(role) RETURNING 1
            """) > 0
    }
}
