import StratusCore

/// Schema as code: export an environment's schema as text, import a file into development, and
/// deploy development to production, where changes must be additive.
package struct SchemaService: Sendable {
    let storage: any StratusStorage
    /// Told after every change of grants or roles: it checks public subscriptions against them.
    let hub: NotificationHub
    let clock: ServerClock

    /// A write that may change who may read what: the hub forgets what it knew once it committed.
    private func writeChangingPermissions<T: Sendable>(_ body: @escaping @Sendable (any StorageTransaction, ChangeSet) async throws -> T) async throws -> T {
        let result = try await storage.write(publishingTo: hub, body)
        await hub.permissionsChanged()
        return result
    }

    /// The environment's schema in CloudKit's text schema language.
    package func export(containerID: String, environment: ContainerEnvironment) async throws -> String {
        SchemaText.format(try await storage.read { try await $0.schema(containerID: containerID, environment: environment) })
    }

    /// Replaces the development schema with the file's (development is the sandbox where a
    /// schema takes shape; records keep their values). Returns the schema that was replaced.
    package func importIntoDevelopment(_ text: String, containerID: String) async throws -> Schema {
        let schema = try SchemaText.parse(text)
        try validate(schema)
        let audit = AuditLog.entry("schema.import", container: containerID, "development", at: clock.milliseconds)
        return try await writeChangingPermissions { transaction, _ in
            let previous = try await transaction.schema(containerID: containerID, environment: .development)
            try Self.refuseEncryptionChanges(from: previous, to: schema)
            try await transaction.replaceSchema(schema, containerID: containerID, environment: .development)
            try await transaction.appendAudit(audit)
            try await Self.rebuildIndexes(from: previous, to: schema, containerID: containerID, environment: .development, in: transaction)
            return previous
        }
    }

    /// Checks a schema file without applying it: it parses, its names are valid, and production
    /// could take it as it is (the changes a deploy would make after importing it, or the reasons
    /// it would be refused).
    package func validate(_ text: String, containerID: String) async throws -> (schema: Schema, deploy: Result<[SchemaChange], SchemaConflict>) {
        let schema = try SchemaText.parse(text)
        try validate(schema)
        let production = try await storage.read { try await $0.schema(containerID: containerID, environment: .production) }
        return (schema, production.additiveChanges(to: schema))
    }

    /// Makes development what production is, as `cktool reset-schema` does: development's schema
    /// becomes production's, and every zone of every development database is deleted with its
    /// records (and leaves participants' shared databases; default zones are replaced by empty
    /// ones), and so are development's subscriptions. Returns how many zones went.
    package func resetDevelopment(containerID: String) async throws -> Int {
        let audit = AuditLog.entry("schema.reset", container: containerID, "development", at: clock.milliseconds)
        return try await writeChangingPermissions { transaction, changes in
            try await transaction.appendAudit(audit)
            let previous = try await transaction.schema(containerID: containerID, environment: .development)
            let production = try await transaction.schema(containerID: containerID, environment: .production)
            try await transaction.replaceSchema(production, containerID: containerID, environment: .development)
            var zones = 0
            for databaseID in try await transaction.databaseIDs(containerID: containerID, environment: .development) {
                for subscription in try await transaction.subscriptions(databaseID: databaseID, owner: nil) {
                    _ = try await transaction.deleteSubscription(databaseID: databaseID, owner: subscription.owner,
                                                           subscriptionID: subscription.subscription.subscriptionID)
                    changes.subscriptionsChanged(databaseID: databaseID)
                }
                guard let owner = try await transaction.databaseKey(id: databaseID) else { continue }
                for zone in try await transaction.liveZones(databaseID: databaseID) {
                    _ = try await ZoneService.delete(zone, of: owner, at: clock.milliseconds, loggingAs: nil, in: changes)
                    zones += 1
                    // Every database keeps a default zone: an empty one replaces it (devices'
                    // tokens of the old one expire, as for any zone deleted and made again).
                    if zone.isDefaultZone {
                        _ = try await transaction.insertZone(databaseID: databaseID, zoneName: zone.zoneName, sequence: try changes.nextSequence())
                    }
                }
                try await transaction.purgeDatabaseHistory(databaseID: databaseID)
            }
            try await Self.rebuildIndexes(from: previous, to: production, containerID: containerID, environment: .development, in: transaction)
            return zones
        }
    }

    /// Makes production's schema development's, if that only adds: a record type or field that
    /// production has and development lacks, or a field whose type differs, refuses the deploy.
    /// Returns the changes applied.
    package func deploy(containerID: String) async throws -> [SchemaChange] {
        let audit = AuditLog.entry("schema.deploy", container: containerID, "development to production", at: clock.milliseconds)
        return try await writeChangingPermissions { transaction, _ in
            try await transaction.appendAudit(audit)
            let development = try await transaction.schema(containerID: containerID, environment: .development)
            let production = try await transaction.schema(containerID: containerID, environment: .production)
            let changes = try production.additiveChanges(to: development).get()
            try await transaction.applySchemaChanges(changes, containerID: containerID, environment: .production)
            let deployed = try await transaction.schema(containerID: containerID, environment: .production)
            try await Self.rebuildIndexes(from: production, to: deployed, containerID: containerID, environment: .production, in: transaction)
            return changes
        }
    }

    /// Refuses a schema that would encrypt a field `previous` has in plain, or the other way: as
    /// in CloudKit, an existing field is never converted (its values were written as they are).
    private static func refuseEncryptionChanges(from previous: Schema, to schema: Schema) throws(CloudKitError) {
        for (typeName, type) in schema.recordTypes.sorted(by: { $0.key < $1.key }) {
            for (name, field) in type.fields.sorted(by: { $0.key < $1.key }) {
                guard let existing = previous.recordTypes[typeName]?.fields[name], existing.isEncrypted != field.isEncrypted else { continue }
                throw .badRequest("field '\(typeName).\(name)' is \(existing.typeName) and cannot become \(field.typeName): an existing field's encryption never changes")
            }
        }
    }

    /// Rewrites the index rows of the record types whose indexed fields differ between two schemas.
    private static func rebuildIndexes(from old: Schema, to new: Schema, containerID: String, environment: ContainerEnvironment,
                                       in transaction: any StorageTransaction) async throws {
        for name in Set(old.recordTypes.keys).union(new.recordTypes.keys) {
            let before = Set(QueryIndexing.indexedFields(old.recordTypes[name]).map { "\($0.name) \($0.indexes.rawValue)" })
            let after = Set(QueryIndexing.indexedFields(new.recordTypes[name]).map { "\($0.name) \($0.indexes.rawValue)" })
            if before != after {
                try await QueryIndexing.rebuild(recordType: name, schema: new.recordTypes[name], containerID: containerID,
                                          environment: environment, in: transaction)
            }
        }
    }

    /// Gives a user (by username) one of the environment schema's custom roles, or takes it away;
    /// false when the user already had it (or, taking, did not). An unknown user or role, or a
    /// built-in role (held by who the caller is, never given), is `BAD_REQUEST`.
    package func setRole(_ role: String, granted: Bool, username: String, containerID: String,
                         environment: ContainerEnvironment) async throws -> Bool {
        guard !SecurityRole.builtIn.contains(role) else {
            throw CloudKitError.badRequest("role '\(role)' is built in: it follows from who the caller is and is never given")
        }
        let audit = AuditLog.entry(granted ? "role.grant" : "role.revoke", container: containerID, "\(role) \(granted ? "to" : "from") \(username) (\(environment.rawValue))", at: clock.milliseconds)
        return try await writeChangingPermissions { transaction, _ in
            try await transaction.appendAudit(audit)
            guard let user = try await transaction.user(containerID: containerID, username: username) else {
                throw CloudKitError.badRequest("container '\(containerID)' has no user '\(username)'")
            }
            if granted {
                guard try await transaction.schema(containerID: containerID, environment: environment).roles.contains(role) else {
                    throw CloudKitError.badRequest("the \(environment.rawValue) schema defines no role '\(role)' (CREATE ROLE \(role);)")
                }
            }
            return try await transaction.setUserRole(role, granted: granted, containerID: containerID, environment: environment,
                                               user: user.userRecordName)
        }
    }

    /// The custom roles a user (by username) holds in an environment.
    package func roles(of username: String, containerID: String, environment: ContainerEnvironment) async throws -> Set<String> {
        try await storage.read { transaction in
            guard let user = try await transaction.user(containerID: containerID, username: username) else {
                throw CloudKitError.badRequest("container '\(containerID)' has no user '\(username)'")
            }
            return try await transaction.userRoles(containerID: containerID, environment: environment, user: user.userRecordName)
        }
    }

    /// Names in a schema file follow the same rules as in records.
    private func validate(_ schema: Schema) throws(CloudKitError) {
        for type in schema.recordTypes.values {
            try NameRules.validateFieldName(type.name, kind: "record type")
            for field in type.fields.values { try NameRules.validateFieldName(field.name) }
        }
    }
}
