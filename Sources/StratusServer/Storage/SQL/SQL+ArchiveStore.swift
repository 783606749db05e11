import StratusCore

/// ``ArchiveStore``'s export in the SQL both drivers speak: the policy of what an archive holds
/// (secrets only when asked, email codes and pending uploads never) is written here once. A
/// driver inserts the rows whose ids a load keeps.
extension ArchiveStore where Self: SQLDatabase & ContainerStore & AccountStore & ServerKeyStore & APNsStore & SchemaStore & ShareStore & SubscriptionStore & AuditStore & PasskeyStore & OpenIDStore & RecordLogStore & WebhookStore {
    package func insertArchivedDatabase(_ database: ArchivedDatabase, containerID: String, _ load: ArchiveLoad) async throws -> Int64 {
        try await insertKeepingRowID(into: "databases", """
            INSERT INTO databases (id, container_id, environment, scope, owner_record_name, purged_sequence)
            VALUES (\(rowID: load.keepsRowIDs ? database.id : nil, of: "databases"), \(containerID), \(database.environment.rawValue),
                    \(database.scope.rawValue), \(database.owner), \(load.sequence(database.purgedSequence)))
            ON CONFLICT (id) DO NOTHING RETURNING id
            """)
    }

    package func insertArchivedZone(_ zone: ArchivedZone, _ load: ArchiveLoad) async throws -> Int64 {
        try await insertKeepingRowID(into: "zones", """
            INSERT INTO zones (id, database_id, zone_name, change_sequence, purged_sequence, deleted, deleted_at)
            VALUES (\(rowID: load.keepsRowIDs ? zone.id : nil, of: "zones"), \(try load.database(zone.database)), \(zone.name),
                    \(load.sequence(zone.changeSequence)), \(load.sequence(zone.purgedSequence)), \(zone.deleted), \(zone.deletedAt))
            ON CONFLICT (id) DO NOTHING RETURNING id
            """)
    }

    /// Runs an insert of a row whose id a load may keep (``ArchiveLoad/RowIDTaken`` when the store
    /// uses it) and returns the row's id. Where ids come from a sequence, the sequence moves past
    /// a kept one, so that a row numbered later does not take it.
    private func insertKeepingRowID(into table: String, _ insert: SQLStatement) async throws -> Int64 {
        guard let id = try await fetchOne(insert).map({ try $0.int64(0) }) else { throw ArchiveLoad.RowIDTaken() }
        if dialect.numbersRowIDsBySequence {
            try await run("""
                SELECT setval(pg_get_serial_sequence('\(unescaped: table)', 'id'),
                              \(function: .greatest)(\(id), (SELECT last_value FROM \(unescaped: table)_id_seq)))
                """)
        }
        return id
    }

    package func archiveItemCount(containerID: String, includingSecrets: Bool, includingHistory: Bool) async throws -> Int {
        // The container line, then a schema line per environment, then one line per row.
        let inContainer = Self.zones(of: containerID)
        let secrets: SQLStatement = includingSecrets ? """
              + (SELECT COUNT(*) FROM sessions WHERE container_id = \(containerID))
              + (SELECT COUNT(*) FROM apns_credentials WHERE container_id = \(containerID))
              + (SELECT COUNT(*) FROM apns_tokens WHERE container_id = \(containerID))
              + (SELECT COUNT(*) FROM webhook_endpoints WHERE container_id = \(containerID))
            """ : ""
        let history: SQLStatement = includingHistory ? "+ (SELECT COUNT(*) FROM record_log WHERE zone_id IN (\(inContainer)))" : ""
        return try await fetchOne("""
            SELECT \(unescaped: String(1 + ContainerEnvironment.allCases.count))
              + (SELECT COUNT(*) FROM users WHERE container_id = \(containerID))
              + (SELECT COUNT(*) FROM user_roles WHERE container_id = \(containerID))
              + (SELECT COUNT(*) FROM passkeys WHERE container_id = \(containerID))
              + (SELECT COUNT(*) FROM openid_identities WHERE container_id = \(containerID))
              + (SELECT COUNT(*) FROM server_keys WHERE container_id = \(containerID))
              + (SELECT COUNT(*) FROM databases WHERE container_id = \(containerID))
              + (SELECT COUNT(*) FROM zones WHERE id IN (\(inContainer)))
              + (SELECT COUNT(*) FROM (\(Self.archivedFiles(inContainer, includingHistory: includingHistory))) AS files)
              + (SELECT COUNT(*) FROM record_rows WHERE zone_id IN (\(inContainer)))
              + (SELECT COUNT(*) FROM shares WHERE zone_id IN (\(inContainer)))
              + (SELECT COUNT(*) FROM shared_zones WHERE zone_id IN (\(inContainer)))
              + (SELECT COUNT(*) FROM subscriptions WHERE database_id IN (SELECT id FROM databases WHERE container_id = \(containerID)))
              + (SELECT COUNT(*) FROM audit_log WHERE container_id = \(containerID))
            \(secrets)
            \(history)
            """)?.int(0) ?? 0
    }

    package func archiveItems(containerID: String, includingSecrets: Bool, includingHistory: Bool, _ emit: (ArchiveItem) throws -> Void) async throws {
        guard let container = try await container(id: containerID) else { throw TransferError("there is no container '\(containerID)'") }
        try emit(.container(container))
        for environment in ContainerEnvironment.allCases {
            try emit(.schema(environment, try await schema(containerID: containerID, environment: environment)))
        }
        for user in try await containerUsers(containerID) {
            try emit(.user(ArchivedUser(userRecordName: user.userRecordName, username: user.username,
                                        passwordHash: includingSecrets ? user.passwordHash : nil, createdAt: user.createdAt,
                                        email: user.email, discoverable: user.discoverable, emailVerified: user.emailVerified,
                                        disabledAt: user.disabledAt, apple: user.apple)))
        }
        for row in try await fetch("""
            SELECT environment, user_record_name, role FROM user_roles WHERE container_id = \(containerID) ORDER BY environment, user_record_name, role
            """) {
            try emit(.userRole(ArchivedUserRole(environment: try Self.environment(row, 0), user: try row.string(1), role: try row.string(2))))
        }
        for passkey in try await passkeys(containerID: containerID) { try emit(.passkey(passkey)) }
        for identity in try await openIDIdentities(containerID: containerID) { try emit(.openIDIdentity(identity)) }
        for key in try await serverKeys(containerID: containerID) { try emit(.serverKey(key)) }
        if includingSecrets {
            for row in try await fetch("""
                SELECT token_hash, user_record_name, environment, expires_at, created_at, last_used_at, proven_at, device, client_address
                FROM sessions WHERE container_id = \(containerID) ORDER BY token_hash
                """) {
                try emit(.session(StoredSession(tokenHash: try row.string(0), userRecordName: try row.string(1), containerID: containerID,
                                                environment: try Self.environment(row, 2), expiresAt: try row.int64(3), createdAt: try row.int64(4),
                                                lastUsedAt: try row.int64(5), provenAt: try row.int64(6), device: try row.string(7),
                                                clientAddress: try row.string(8))))
            }
            if let credentials = try await apnsCredentials(containerID: containerID) { try emit(.apnsCredentials(credentials)) }
            for row in try await fetch("""
                SELECT apns_token, environment, user_record_name, apns_environment, registered_at, session_hash FROM apns_tokens
                WHERE container_id = \(containerID) ORDER BY apns_token
                """) {
                try emit(.apnsToken(StoredAPNsToken(containerID: containerID, environment: try Self.environment(row, 1), user: try row.string(2),
                                                    token: try row.string(0), apnsEnvironment: try Self.environment(row, 3),
                                                    registeredAt: try row.int64(4), sessionHash: try row.optionalString(5))))
            }
        }
        let databases = try await fetch("""
            SELECT id, environment, scope, owner_record_name, purged_sequence FROM databases WHERE container_id = \(containerID) ORDER BY id
            """)
        for row in databases {
            guard let scope = DatabaseScope(rawValue: try row.string(2)) else {
                throw TransferError("database \(try row.int64(0)) has the scope \(try row.string(2))")
            }
            try emit(.database(ArchivedDatabase(id: try row.int64(0), environment: try Self.environment(row, 1), scope: scope,
                                                owner: try row.string(3), purgedSequence: try row.int64(4))))
        }
        let zones = try await fetch("""
            SELECT z.id, z.database_id, z.zone_name, z.change_sequence, z.purged_sequence, z.deleted, z.deleted_at
            FROM zones z JOIN databases d ON d.id = z.database_id WHERE d.container_id = \(containerID) ORDER BY z.id
            """).map {
            ArchivedZone(id: try $0.int64(0), database: try $0.int64(1), name: try $0.string(2), changeSequence: try $0.int64(3),
                         purgedSequence: try $0.int64(4), deleted: try $0.bool(5), deletedAt: try $0.optionalInt64(6))
        }
        for zone in zones { try emit(.zone(zone)) }
        let inContainer = Self.zones(of: containerID)
        for row in try await fetch("""
            SELECT checksum, size, created_at FROM asset_blobs WHERE checksum IN (\(Self.archivedFiles(inContainer, includingHistory: includingHistory)))
            ORDER BY checksum
            """) {
            try emit(.asset(ArchivedAsset(checksum: try row.string(0), size: try row.int64(1), createdAt: try row.int64(2))))
        }
        for zone in zones { try await archiveRecords(zoneRowID: zone.id, emit) }
        if includingHistory {
            for zone in zones { try await archiveRecordLog(zoneRowID: zone.id, emit) }
        }
        for zone in zones {
            for share in try await shares(zoneRowID: zone.id) { try emit(.share(share)) }
        }
        for zone in zones {
            for row in try await fetch("""
                SELECT user_record_name, active, sequence FROM shared_zones WHERE zone_id = \(zone.id) ORDER BY user_record_name
                """) {
                try emit(.sharedZone(ArchivedSharedZone(user: try row.string(0), zone: zone.id, active: try row.bool(1), sequence: try row.int64(2))))
            }
        }
        for row in databases {
            for subscription in try await subscriptions(databaseID: try row.int64(0), owner: nil) { try emit(.subscription(subscription)) }
        }
        for row in try await fetch("SELECT at, actor, origin, action, detail FROM audit_log WHERE container_id = \(containerID) ORDER BY id") {
            try emit(.auditEntry(StoredAuditEntry(at: try row.int64(0), actor: try row.string(1), origin: try row.string(2), action: try row.string(3),
                                                  containerID: containerID, detail: try row.string(4))))
        }
        if includingSecrets {
            for endpoint in try await webhookEndpoints(containerID: containerID) { try emit(.webhookEndpoint(ArchivedWebhookEndpoint(endpoint))) }
        }
    }

    /// Reads the zone's records by name a page at a time, each page's edges and files in two
    /// statements more.
    package func archiveRecords(zoneRowID: Int64, _ emit: (ArchiveItem) throws -> Void) async throws {
        var after: SQLStatement = ""
        while true {
            let page = try await fetchRecords("""
                SELECT \(unescaped: RecordColumns.names) FROM record_rows WHERE zone_id = \(zoneRowID) \(after) ORDER BY record_name LIMIT 200
                """).records
            guard let last = page.last else { return }
            let names = page.map(\.recordName)
            var edges: [String: [ArchivedReference]] = [:]
            for row in try await fetch("""
                SELECT source_name, target_name, action FROM record_references WHERE zone_id = \(zoneRowID) AND source_name IN (\(list: names))
                ORDER BY source_name, target_name, action
                """) {
                let source = try row.string(0), action = try row.string(2)
                guard let action = Reference.Action(rawValue: action) else { throw TransferError("a reference of \(source) has the action \(action)") }
                edges[source, default: []].append(ArchivedReference(target: try row.string(1), action: action))
            }
            var assets: [String: [String]] = [:]
            for row in try await fetch("""
                SELECT record_name, checksum FROM asset_references WHERE zone_id = \(zoneRowID) AND record_name IN (\(list: names))
                ORDER BY record_name, checksum
                """) {
                assets[try row.string(0), default: []].append(try row.string(1))
            }
            for record in page {
                try emit(.record(Self.archived(record, references: edges[record.recordName] ?? [], assets: assets[record.recordName] ?? [])))
            }
            after = "AND record_name > \(last.recordName)"
        }
    }

    private static func archived(_ record: StoredRecord, references: [ArchivedReference], assets: [String]) -> ArchivedRecord {
        ArchivedRecord(zone: record.zoneRowID, recordName: record.recordName, recordType: record.recordType, changeTag: record.changeTag,
                       fields: record.fieldsJSON, created: record.created, modified: record.modified, parent: record.parent, share: record.share,
                       sequence: record.sequence, deleted: record.deleted, createKey: record.createKey, references: references, assets: assets)
    }

    /// The ids of the container's zones.
    private static func zones(of containerID: String) -> SQLStatement {
        "SELECT z.id FROM zones z JOIN databases d ON d.id = z.database_id WHERE d.container_id = \(containerID)"
    }

    /// The checksums of the files an archive holds: those the zones' records refer to, and with
    /// history those their kept versions do.
    private static func archivedFiles(_ zones: SQLStatement, includingHistory: Bool) -> SQLStatement {
        let records: SQLStatement = "SELECT checksum FROM asset_references WHERE zone_id IN (\(zones))"
        return includingHistory ? "\(records) UNION SELECT checksum FROM version_assets WHERE zone_id IN (\(zones))"
            : "SELECT DISTINCT checksum FROM asset_references WHERE zone_id IN (\(zones))"
    }

    /// Reads the zone's record log in the order it was written, a page at a time: the entries,
    /// then their versions and the versions' files in two statements more.
    private func archiveRecordLog(zoneRowID: Int64, _ emit: (ArchiveItem) throws -> Void) async throws {
        var after: Int64 = 0
        while true {
            let page = try await fetch("""
                SELECT id, record_name, record_type, sequence, change, logged_at, actor, cause FROM record_log
                WHERE zone_id = \(zoneRowID) AND id > \(after) ORDER BY id LIMIT 200
                """)
            guard let last = page.last else { return }
            let ids = try page.map { try $0.int64(0) }
            let (versions, extra, _) = try await fetchRecords("""
                SELECT \(unescaped: RecordLogColumns.version), id FROM record_log
                WHERE zone_id = \(zoneRowID) AND id IN (\(list: ids)) AND fields IS NOT NULL
                """, extraColumns: 3)
            var byID: [Int64: StoredRecord] = [:]
            for (version, values) in zip(versions, extra) {
                if case .integer(let id) = values[2] { byID[id] = version }
            }
            let sequences = try page.map { try $0.int64(3) }
            var files: [String: [String]] = [:]
            for row in try await fetch("""
                SELECT record_name, sequence, checksum FROM version_assets
                WHERE zone_id = \(zoneRowID) AND sequence BETWEEN \(sequences.min() ?? 0) AND \(sequences.max() ?? 0)
                ORDER BY record_name, sequence, checksum
                """) {
                files["\(try row.int64(1)) \(try row.string(0))", default: []].append(try row.string(2))
            }
            let actors = try await actors(named: try page.map { try $0.int64(6) })
            for row in page {
                let (name, sequence, actorID) = (try row.string(1), try row.int64(3), try row.int64(6))
                guard let actor = actors[actorID] else { throw TransferError("a log entry of \(name) names an unknown actor") }
                let version = byID[try row.int64(0)]
                try emit(.logEntry(ArchivedLogEntry(
                    zone: zoneRowID, recordName: name, recordType: try row.string(2), sequence: sequence, change: try row.int64(4),
                    stamp: RecordStamp(timestamp: try row.int64(5), userRecordName: actor.userRecordName, deviceID: actor.deviceID),
                    cause: try row.optionalString(7),
                    version: version.map { Self.archived($0, references: [], assets: files["\(sequence) \(name)"] ?? []) })))
            }
            after = try last.int64(0)
        }
    }

    package func insertArchivedLogEntry(_ entry: RecordLogEntry, assets: [String]) async throws {
        var actors = [RecordActors.id(of: entry.stamp): RecordActor(entry.stamp)]
        if let version = entry.replaced {
            for stamp in [version.created, version.modified] { actors[RecordActors.id(of: stamp)] = RecordActor(stamp) }
        }
        try await storeActors(actors)
        try await appendRecordLog([entry])
        guard !assets.isEmpty else { return }
        let rows = assets.map { checksum -> SQLStatement in "(\(entry.zoneRowID), \(entry.recordName), \(entry.sequence), \(checksum))" }
        try await run("""
            INSERT INTO version_assets (zone_id, record_name, sequence, checksum) VALUES \(SQLStatement(joining: rows, separator: ", "))
            """)
    }

    package func insertAssetBlob(_ asset: ArchivedAsset) async throws {
        try await run("""
            INSERT INTO asset_blobs (checksum, size, created_at) VALUES (\(asset.checksum), \(asset.size), \(asset.createdAt)) ON CONFLICT DO NOTHING
            """)
    }

    private static func environment(_ row: SQLRow, _ column: Int) throws -> ContainerEnvironment {
        let text = try row.string(column)
        guard let environment = ContainerEnvironment(rawValue: text) else { throw TransferError("a row names the environment '\(text)'") }
        return environment
    }
}
