import StratusCore

/// Each environment's schema: record types, their fields and grants, and users' custom roles.
package protocol SchemaStore {
    /// One record type of an environment's schema, or nil if the type is unknown there.
    func recordTypeSchema(containerID: String, environment: ContainerEnvironment, recordType: String) async throws -> RecordTypeSchema?
    /// An environment's whole schema.
    func schema(containerID: String, environment: ContainerEnvironment) async throws -> Schema
    /// Applies additive changes to an environment's schema.
    func applySchemaChanges(_ changes: [SchemaChange], containerID: String, environment: ContainerEnvironment) async throws
    /// Replaces an environment's schema.
    func replaceSchema(_ schema: Schema, containerID: String, environment: ContainerEnvironment) async throws
    /// The grants of one record type by role; empty when it declares none (CloudKit's defaults hold).
    func recordTypeGrants(containerID: String, environment: ContainerEnvironment, recordType: String) async throws -> [String: RecordPermissions]
    /// The grants of every record type that declares any, by type and role.
    func recordTypeGrants(containerID: String, environment: ContainerEnvironment) async throws -> [String: [String: RecordPermissions]]
    /// The custom roles given to a user in an environment.
    func userRoles(containerID: String, environment: ContainerEnvironment, user: String) async throws -> Set<String>
    /// Gives a user a role, or takes it away; false when nothing changed.
    func setUserRole(_ role: String, granted: Bool, containerID: String, environment: ContainerEnvironment, user: String) async throws -> Bool
}
