import GRDB
import StratusCore

/// A container's rows as archive items, and archive items back into rows.
extension SQLiteTransaction {
    func archiveItemCount(containerID: String, includingSecrets: Bool) throws -> Int {
        // The container line, then a schema line per environment, then one line per row.
        let inContainer = "SELECT z.id FROM zones z JOIN databases d ON d.id = z.database_id WHERE d.container_id = ?1"
        var sql = """
            SELECT \(1 + ContainerEnvironment.allCases.count)
              + (SELECT COUNT(*) FROM users WHERE container_id = ?1)
              + (SELECT COUNT(*) FROM user_roles WHERE container_id = ?1)
              + (SELECT COUNT(*) FROM server_keys WHERE container_id = ?1)
              + (SELECT COUNT(*) FROM databases WHERE container_id = ?1)
              + (SELECT COUNT(*) FROM zones WHERE id IN (\(inContainer)))
              + (SELECT COUNT(DISTINCT checksum) FROM asset_references WHERE zone_id IN (\(inContainer)))
              + (SELECT COUNT(*) FROM records WHERE zone_id IN (\(inContainer)))
              + (SELECT COUNT(*) FROM shares WHERE zone_id IN (\(inContainer)))
              + (SELECT COUNT(*) FROM shared_zones WHERE zone_id IN (\(inContainer)))
              + (SELECT COUNT(*) FROM subscriptions WHERE database_id IN (SELECT id FROM databases WHERE container_id = ?1))
            """
        if includingSecrets {
            sql += """

                  + (SELECT COUNT(*) FROM sessions WHERE container_id = ?1)
                  + (SELECT COUNT(*) FROM apns_credentials WHERE container_id = ?1)
                  + (SELECT COUNT(*) FROM apns_tokens WHERE container_id = ?1)
                """
        }
        return try Int.fetchOne(db, sql: sql, arguments: [containerID]) ?? 0
    }

    func archiveItems(containerID: String, includingSecrets: Bool, _ emit: (ArchiveItem) throws -> Void) throws {
        guard let container = try container(id: containerID) else { throw TransferError("there is no container '\(containerID)'") }
        let arguments: StatementArguments = [containerID]
        try emit(.container(container))
        for environment in ContainerEnvironment.allCases {
            try emit(.schema(environment, try schema(containerID: containerID, environment: environment)))
        }
        for user in try Row.fetchAll(db, sql: "SELECT \(Self.userColumns) FROM users WHERE container_id = ? ORDER BY user_record_name",
                                     arguments: arguments).map(Self.user) {
            try emit(.user(ArchivedUser(userRecordName: user.userRecordName, username: user.username,
                                        passwordHash: includingSecrets ? user.passwordHash : nil, createdAt: user.createdAt,
                                        email: user.email, discoverable: user.discoverable, emailVerified: user.emailVerified,
                                        disabledAt: user.disabledAt)))
        }
        for row in try Row.fetchAll(db, sql: """
            SELECT environment, user_record_name, role FROM user_roles WHERE container_id = ? ORDER BY environment, user_record_name, role
            """, arguments: arguments) {
            try emit(.userRole(ArchivedUserRole(environment: try Self.environment(row[0]), user: row[1], role: row[2])))
        }
        for key in try serverKeys(containerID: containerID) { try emit(.serverKey(key)) }
        if includingSecrets {
            for row in try Row.fetchAll(db, sql: """
                SELECT token_hash, user_record_name, environment, expires_at FROM sessions WHERE container_id = ? ORDER BY token_hash
                """, arguments: arguments) {
                try emit(.session(StoredSession(tokenHash: row[0], userRecordName: row[1], containerID: containerID,
                                                environment: try Self.environment(row[2]), expiresAt: row[3])))
            }
            if let credentials = try apnsCredentials(containerID: containerID) { try emit(.apnsCredentials(credentials)) }
            for row in try Row.fetchAll(db, sql: """
                SELECT apns_token, environment, user_record_name, apns_environment, registered_at, session_hash FROM apns_tokens
                WHERE container_id = ? ORDER BY apns_token
                """, arguments: arguments) {
                try emit(.apnsToken(StoredAPNsToken(containerID: containerID, environment: try Self.environment(row[1]), user: row[2],
                                                    token: row[0], apnsEnvironment: try Self.environment(row[3]), registeredAt: row[4],
                                                    sessionHash: row[5])))
            }
        }
        let databases = try Row.fetchAll(db, sql: """
            SELECT id, environment, scope, owner_record_name, purged_sequence FROM databases WHERE container_id = ? ORDER BY id
            """, arguments: arguments)
        for row in databases {
            guard let scope = DatabaseScope(rawValue: row[2]) else { throw TransferError("database \(row[0] as Int64) has the scope \(row[2] as String)") }
            try emit(.database(ArchivedDatabase(id: row[0], environment: try Self.environment(row[1]), scope: scope, owner: row[3],
                                                purgedSequence: row[4])))
        }
        let zones = try Row.fetchAll(db, sql: """
            SELECT z.id, z.database_id, z.zone_name, z.change_sequence, z.purged_sequence, z.deleted, z.deleted_at
            FROM zones z JOIN databases d ON d.id = z.database_id WHERE d.container_id = ? ORDER BY z.id
            """, arguments: arguments).map {
            ArchivedZone(id: $0[0], database: $0[1], name: $0[2], changeSequence: $0[3], purgedSequence: $0[4], deleted: $0[5], deletedAt: $0[6])
        }
        for zone in zones { try emit(.zone(zone)) }
        for row in try Row.fetchAll(db, sql: """
            SELECT checksum, size, created_at FROM asset_blobs WHERE checksum IN (
                SELECT r.checksum FROM asset_references r JOIN zones z ON z.id = r.zone_id JOIN databases d ON d.id = z.database_id
                WHERE d.container_id = ?)
            ORDER BY checksum
            """, arguments: arguments) {
            try emit(.asset(ArchivedAsset(checksum: row[0], size: row[1], createdAt: row[2])))
        }
        for zone in zones {
            try archiveRecords(zoneRowID: zone.id, emit)
        }
        for zone in zones {
            for share in try shares(zoneRowID: zone.id) { try emit(.share(share)) }
        }
        for zone in zones {
            for row in try Row.fetchAll(db.cachedStatement(sql: """
                SELECT user_record_name, active, sequence FROM shared_zones WHERE zone_id = ? ORDER BY user_record_name
                """), arguments: [zone.id]) {
                try emit(.sharedZone(ArchivedSharedZone(user: row[0], zone: zone.id, active: row[1], sequence: row[2])))
            }
        }
        for database in databases {
            let subscriptions = try subscriptions(databaseID: database[0], owner: nil)
                .sorted { ($0.owner, $0.subscription.subscriptionID) < ($1.owner, $1.subscription.subscriptionID) }
            for subscription in subscriptions { try emit(.subscription(subscription)) }
        }
    }

    /// A zone's records and tombstones, each with its reference edges and asset files, read as
    /// they stream (a zone's records are never all in memory).
    private func archiveRecords(zoneRowID: Int64, _ emit: (ArchiveItem) throws -> Void) throws {
        var records = DirectStatement(try db.cachedStatement(sql: """
            SELECT \(Self.recordColumns) FROM records WHERE zone_id = ? ORDER BY record_name
            """))
        records.bind(zoneRowID)
        let references = try db.cachedStatement(sql: """
            SELECT target_name, action FROM record_references WHERE zone_id = ? AND source_name = ? ORDER BY target_name, action
            """)
        let assets = try db.cachedStatement(sql: "SELECT checksum FROM asset_references WHERE zone_id = ? AND record_name = ? ORDER BY checksum")
        while try records.next(in: db) {
            let record = Self.record(records)
            let edges = try Row.fetchAll(references, arguments: [zoneRowID, record.recordName]).map { row in
                guard let action = Reference.Action(rawValue: row[1]) else { throw TransferError("a reference of \(record.recordName) has the action \(row[1] as String)") }
                return ArchivedReference(target: row[0], action: action)
            }
            try emit(.record(ArchivedRecord(
                zone: zoneRowID, recordName: record.recordName, recordType: record.recordType, changeTag: record.changeTag,
                fields: record.fieldsJSON, created: record.created, modified: record.modified, parent: record.parent, share: record.share,
                sequence: record.sequence, deleted: record.deleted, createKey: record.createKey, references: edges,
                assets: try String.fetchAll(assets, arguments: [zoneRowID, record.recordName]))))
        }
    }

    func insertArchivedDatabase(_ database: ArchivedDatabase, containerID: String, _ load: ArchiveLoad) throws -> Int64 {
        try insertKeepingRowID(load, sql: """
            INSERT INTO databases (id, container_id, environment, scope, owner_record_name, purged_sequence) VALUES (?, ?, ?, ?, ?, ?)
            """, arguments: [load.keepsRowIDs ? database.id : nil, containerID, database.environment.rawValue, database.scope.rawValue,
                             database.owner, load.sequence(database.purgedSequence)])
        return db.lastInsertedRowID
    }

    func insertArchivedZone(_ zone: ArchivedZone, _ load: ArchiveLoad) throws -> Int64 {
        try insertKeepingRowID(load, sql: """
            INSERT INTO zones (id, database_id, zone_name, change_sequence, purged_sequence, deleted, deleted_at)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """, arguments: [load.keepsRowIDs ? zone.id : nil, try load.database(zone.database), zone.name,
                             load.sequence(zone.changeSequence), load.sequence(zone.purgedSequence), zone.deleted, zone.deletedAt])
        return db.lastInsertedRowID
    }

    func insertAssetBlob(_ asset: ArchivedAsset) throws {
        try db.execute(sql: "INSERT OR IGNORE INTO asset_blobs (checksum, size, created_at) VALUES (?, ?, ?)",
                       arguments: [asset.checksum, asset.size, asset.createdAt])
    }

    /// Inserts a row whose id the load may keep; an id the store already uses is ``ArchiveLoad/RowIDTaken``.
    private func insertKeepingRowID(_ load: ArchiveLoad, sql: String, arguments: StatementArguments) throws {
        do {
            try db.execute(sql: sql, arguments: arguments)
        } catch let error as DatabaseError where load.keepsRowIDs && error.extendedResultCode == .SQLITE_CONSTRAINT_PRIMARYKEY {
            throw ArchiveLoad.RowIDTaken()
        }
    }

    private static func environment(_ text: String) throws -> ContainerEnvironment {
        guard let environment = ContainerEnvironment(rawValue: text) else { throw TransferError("a row names the environment '\(text)'") }
        return environment
    }
}
