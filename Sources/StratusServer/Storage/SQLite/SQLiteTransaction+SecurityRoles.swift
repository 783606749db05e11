import GRDB
import StratusCore

/// The public database's security roles: custom roles and grants per environment's schema, and
/// the roles given to users.
extension SQLiteTransaction {
    func recordTypeGrants(containerID: String, environment: ContainerEnvironment, recordType: String) throws -> [String: RecordPermissions] {
        var grants: [String: RecordPermissions] = [:]
        for row in try Row.fetchAll(db.cachedStatement(sql: """
            SELECT role, permissions FROM schema_grants WHERE container_id = ? AND environment = ? AND record_type = ?
            """), arguments: [containerID, environment.rawValue, recordType]) {
            grants[row[0]] = RecordPermissions(rawValue: row[1])
        }
        return grants
    }

    func userRoles(containerID: String, environment: ContainerEnvironment, user: String) throws -> Set<String> {
        Set(try String.fetchAll(db.cachedStatement(sql: """
            SELECT role FROM user_roles WHERE container_id = ? AND environment = ? AND user_record_name = ?
            """), arguments: [containerID, environment.rawValue, user]))
    }

    func setUserRole(_ role: String, granted: Bool, containerID: String, environment: ContainerEnvironment, user: String) throws -> Bool {
        try db.execute(sql: granted
            ? "INSERT OR IGNORE INTO user_roles (container_id, environment, user_record_name, role) VALUES (?, ?, ?, ?)"
            : "DELETE FROM user_roles WHERE container_id = ? AND environment = ? AND user_record_name = ? AND role = ?",
            arguments: [containerID, environment.rawValue, user, role])
        return db.changesCount > 0
    }

    /// Adds the environment's roles and grants to `schema`.
    func readSecurityRoles(into schema: inout Schema, containerID: String, environment: ContainerEnvironment) throws {
        let arguments: StatementArguments = [containerID, environment.rawValue]
        schema.roles = Set(try String.fetchAll(db, sql: "SELECT role FROM schema_roles WHERE container_id = ? AND environment = ?",
                                               arguments: arguments))
        for row in try Row.fetchAll(db, sql: """
            SELECT record_type, role, permissions FROM schema_grants WHERE container_id = ? AND environment = ?
            """, arguments: arguments) {
            schema.grants[row[0], default: [:]][row[1]] = RecordPermissions(rawValue: row[2])
        }
    }

    func insertRole(_ role: String, containerID: String, environment: ContainerEnvironment) throws {
        try db.execute(sql: "INSERT OR IGNORE INTO schema_roles (container_id, environment, role) VALUES (?, ?, ?)",
                       arguments: [containerID, environment.rawValue, role])
    }

    func replaceGrants(_ grants: [String: RecordPermissions], of recordType: String, containerID: String,
                       environment: ContainerEnvironment) throws {
        try db.execute(sql: "DELETE FROM schema_grants WHERE container_id = ? AND environment = ? AND record_type = ?",
                       arguments: [containerID, environment.rawValue, recordType])
        for (role, permissions) in grants {
            try db.execute(sql: """
                INSERT INTO schema_grants (container_id, environment, record_type, role, permissions) VALUES (?, ?, ?, ?, ?)
                """, arguments: [containerID, environment.rawValue, recordType, role, permissions.rawValue])
        }
    }
}
