import NIOCore
import PostgresNIO
import StratusCore

/// A container's rows as archive items, and the rows of an archive whose ids a load keeps.
extension PostgresTransaction {
    func archiveItemCount(containerID: String, includingSecrets: Bool) async throws -> Int {
        // The container line, then a schema line per environment, then one line per row.
        let inContainer = "SELECT z.id FROM zones z JOIN databases d ON d.id = z.database_id WHERE d.container_id = $1"
        var sql = """
            SELECT \(1 + ContainerEnvironment.allCases.count)
              + (SELECT COUNT(*) FROM users WHERE container_id = $1)
              + (SELECT COUNT(*) FROM user_roles WHERE container_id = $1)
              + (SELECT COUNT(*) FROM server_keys WHERE container_id = $1)
              + (SELECT COUNT(*) FROM databases WHERE container_id = $1)
              + (SELECT COUNT(*) FROM zones WHERE id IN (\(inContainer)))
              + (SELECT COUNT(DISTINCT checksum) FROM asset_references WHERE zone_id IN (\(inContainer)))
              + (SELECT COUNT(*) FROM records WHERE zone_id IN (\(inContainer)))
              + (SELECT COUNT(*) FROM shares WHERE zone_id IN (\(inContainer)))
              + (SELECT COUNT(*) FROM shared_zones WHERE zone_id IN (\(inContainer)))
              + (SELECT COUNT(*) FROM subscriptions WHERE database_id IN (SELECT id FROM databases WHERE container_id = $1))
            """
        if includingSecrets {
            sql += """

                  + (SELECT COUNT(*) FROM sessions WHERE container_id = $1)
                  + (SELECT COUNT(*) FROM apns_credentials WHERE container_id = $1)
                  + (SELECT COUNT(*) FROM apns_tokens WHERE container_id = $1)
                """
        }
        var binds = PostgresBindings()
        binds.append(containerID)
        return Int(try await value(PostgresQuery(unsafeSQL: sql, binds: binds), as: Int64.self) ?? 0)
    }

    func archiveItems(containerID: String, includingSecrets: Bool, _ emit: (ArchiveItem) throws -> Void) async throws {
        guard let container = try await container(id: containerID) else { throw TransferError("there is no container '\(containerID)'") }
        try emit(.container(container))
        for environment in ContainerEnvironment.allCases {
            try emit(.schema(environment, try await schema(containerID: containerID, environment: environment)))
        }
        for user in try await rows("""
            SELECT \(unescaped: Self.userColumns) FROM users WHERE container_id = \(containerID) ORDER BY user_record_name
            """).map(Self.user) {
            try emit(.user(ArchivedUser(userRecordName: user.userRecordName, username: user.username,
                                        passwordHash: includingSecrets ? user.passwordHash : nil, createdAt: user.createdAt,
                                        email: user.email, discoverable: user.discoverable, emailVerified: user.emailVerified,
                                        disabledAt: user.disabledAt)))
        }
        for row in try await rows("""
            SELECT environment, user_record_name, role FROM user_roles WHERE container_id = \(containerID) ORDER BY environment, user_record_name, role
            """) {
            try emit(.userRole(ArchivedUserRole(environment: try Self.environment(row[0]), user: try row[1].decode(String.self),
                                                role: try row[2].decode(String.self))))
        }
        for key in try await serverKeys(containerID: containerID) { try emit(.serverKey(key)) }
        if includingSecrets {
            for row in try await rows("""
                SELECT token_hash, user_record_name, environment, expires_at FROM sessions WHERE container_id = \(containerID) ORDER BY token_hash
                """) {
                try emit(.session(StoredSession(tokenHash: try row[0].decode(String.self), userRecordName: try row[1].decode(String.self),
                                                containerID: containerID, environment: try Self.environment(row[2]),
                                                expiresAt: try row[3].decode(Int64.self))))
            }
            if let credentials = try await apnsCredentials(containerID: containerID) { try emit(.apnsCredentials(credentials)) }
            for row in try await rows("""
                SELECT apns_token, environment, user_record_name, apns_environment, registered_at, session_hash FROM apns_tokens
                WHERE container_id = \(containerID) ORDER BY apns_token
                """) {
                try emit(.apnsToken(StoredAPNsToken(containerID: containerID, environment: try Self.environment(row[1]),
                                                    user: try row[2].decode(String.self), token: try row[0].decode(String.self),
                                                    apnsEnvironment: try Self.environment(row[3]), registeredAt: try row[4].decode(Int64.self),
                                                    sessionHash: try row[5].decode(String?.self))))
            }
        }
        let databases = try await rows("""
            SELECT id, environment, scope, owner_record_name, purged_sequence FROM databases WHERE container_id = \(containerID) ORDER BY id
            """)
        for row in databases {
            let scopeName = try row[2].decode(String.self)
            guard let scope = DatabaseScope(rawValue: scopeName) else { throw TransferError("a database has the scope \(scopeName)") }
            try emit(.database(ArchivedDatabase(id: try row[0].decode(Int64.self), environment: try Self.environment(row[1]), scope: scope,
                                                owner: try row[3].decode(String.self), purgedSequence: try row[4].decode(Int64.self))))
        }
        let zones = try await rows("""
            SELECT z.id, z.database_id, z.zone_name, z.change_sequence, z.purged_sequence, z.deleted, z.deleted_at
            FROM zones z JOIN databases d ON d.id = z.database_id WHERE d.container_id = \(containerID) ORDER BY z.id
            """).map {
            ArchivedZone(id: try $0[0].decode(Int64.self), database: try $0[1].decode(Int64.self), name: try $0[2].decode(String.self),
                         changeSequence: try $0[3].decode(Int64.self), purgedSequence: try $0[4].decode(Int64.self),
                         deleted: try $0[5].decode(Bool.self), deletedAt: try $0[6].decode(Int64?.self))
        }
        for zone in zones { try emit(.zone(zone)) }
        for row in try await rows("""
            SELECT checksum, size, created_at FROM asset_blobs WHERE checksum IN (
                SELECT r.checksum FROM asset_references r JOIN zones z ON z.id = r.zone_id JOIN databases d ON d.id = z.database_id
                WHERE d.container_id = \(containerID))
            ORDER BY checksum
            """) {
            try emit(.asset(ArchivedAsset(checksum: try row[0].decode(String.self), size: try row[1].decode(Int64.self),
                                          createdAt: try row[2].decode(Int64.self))))
        }
        for zone in zones { try await archiveRecords(zoneRowID: zone.id, emit) }
        for zone in zones {
            for share in try await shares(zoneRowID: zone.id) { try emit(.share(share)) }
        }
        for zone in zones {
            for row in try await rows("""
                SELECT user_record_name, active, sequence FROM shared_zones WHERE zone_id = \(zone.id) ORDER BY user_record_name
                """) {
                try emit(.sharedZone(ArchivedSharedZone(user: try row[0].decode(String.self), zone: zone.id, active: try row[1].decode(Bool.self),
                                                        sequence: try row[2].decode(Int64.self))))
            }
        }
        for database in databases {
            let subscriptions = try await subscriptions(databaseID: try database[0].decode(Int64.self), owner: nil)
                .sorted { ($0.owner, $0.subscription.subscriptionID) < ($1.owner, $1.subscription.subscriptionID) }
            for subscription in subscriptions { try emit(.subscription(subscription)) }
        }
    }

    /// A zone's records and tombstones, each with its reference edges and asset files, read as
    /// they stream (a zone's records are never all in memory).
    private func archiveRecords(zoneRowID: Int64, _ emit: (ArchiveItem) throws -> Void) async throws {
        for try await row in try await query("""
            SELECT \(unescaped: Self.recordColumns),
                ARRAY(SELECT target_name FROM record_references e WHERE e.zone_id = r.zone_id AND e.source_name = r.record_name
                      ORDER BY target_name, action),
                ARRAY(SELECT action FROM record_references e WHERE e.zone_id = r.zone_id AND e.source_name = r.record_name
                      ORDER BY target_name, action),
                ARRAY(SELECT checksum FROM asset_references a WHERE a.zone_id = r.zone_id AND a.record_name = r.record_name ORDER BY checksum)
            FROM records r WHERE zone_id = \(zoneRowID) ORDER BY record_name
            """) {
            let cells = row.makeRandomAccess()
            let record = try Self.record(cells)
            let targets = try cells[16].decode([String].self)
            let actions = try cells[17].decode([String].self)
            let edges = try zip(targets, actions).map { target, action in
                guard let action = Reference.Action(rawValue: action) else { throw TransferError("a reference of \(record.recordName) has the action \(action)") }
                return ArchivedReference(target: target, action: action)
            }
            try emit(.record(ArchivedRecord(
                zone: zoneRowID, recordName: record.recordName, recordType: record.recordType, changeTag: record.changeTag,
                fields: record.fieldsJSON, created: record.created, modified: record.modified, parent: record.parent, share: record.share,
                sequence: record.sequence, deleted: record.deleted, createKey: record.createKey, references: edges,
                assets: try cells[18].decode([String].self))))
        }
    }

    func insertArchivedDatabase(_ database: ArchivedDatabase, containerID: String, _ load: ArchiveLoad) async throws -> Int64 {
        let id = try await value("""
            INSERT INTO databases (id, container_id, environment, scope, owner_record_name, purged_sequence)
            VALUES (COALESCE(\(load.keepsRowIDs ? database.id : nil), nextval(pg_get_serial_sequence('databases', 'id'))), \(containerID),
                    \(database.environment.rawValue), \(database.scope.rawValue), \(database.owner), \(load.sequence(database.purgedSequence)))
            ON CONFLICT (id) DO NOTHING RETURNING id
            """, as: Int64.self)
        guard let id else { throw ArchiveLoad.RowIDTaken() }
        try await execute("SELECT setval(pg_get_serial_sequence('databases', 'id'), GREATEST(\(id), (SELECT last_value FROM databases_id_seq)))")
        return id
    }

    func insertArchivedZone(_ zone: ArchivedZone, _ load: ArchiveLoad) async throws -> Int64 {
        let id = try await value("""
            INSERT INTO zones (id, database_id, zone_name, change_sequence, purged_sequence, deleted, deleted_at)
            VALUES (COALESCE(\(load.keepsRowIDs ? zone.id : nil), nextval(pg_get_serial_sequence('zones', 'id'))), \(try load.database(zone.database)),
                    \(zone.name), \(load.sequence(zone.changeSequence)), \(load.sequence(zone.purgedSequence)), \(zone.deleted), \(zone.deletedAt))
            ON CONFLICT (id) DO NOTHING RETURNING id
            """, as: Int64.self)
        guard let id else { throw ArchiveLoad.RowIDTaken() }
        try await execute("SELECT setval(pg_get_serial_sequence('zones', 'id'), GREATEST(\(id), (SELECT last_value FROM zones_id_seq)))")
        return id
    }

    func insertAssetBlob(_ asset: ArchivedAsset) async throws {
        try await execute("""
            INSERT INTO asset_blobs (checksum, size, created_at) VALUES (\(asset.checksum), \(asset.size), \(asset.createdAt)) ON CONFLICT DO NOTHING
            """)
    }

    private static func environment(_ cell: PostgresCell) throws -> ContainerEnvironment {
        let text = try cell.decode(String.self)
        guard let environment = ContainerEnvironment(rawValue: text) else { throw TransferError("a row names the environment '\(text)'") }
        return environment
    }
}
