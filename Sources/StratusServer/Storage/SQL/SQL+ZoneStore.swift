import StratusCore

/// ``ZoneStore``'s databases and zones in the SQL both drivers speak; the change sequence a
/// driver hands out from memory stays the driver's.
extension ZoneStore where Self: SQLDatabase {
    package func databaseID(_ key: DatabaseKey, create: Bool) async throws -> Int64? {
        if let row = try await fetchOne("""
            SELECT id FROM databases WHERE container_id = \(key.containerID) AND environment = \(key.environment.rawValue)
              AND scope = \(key.scope.rawValue) AND owner_record_name = \(key.ownerRecordName)
            """) {
            return try row.int64(0)
        }
        guard create else { return nil }
        return try await fetchOne("""
            INSERT INTO databases (container_id, environment, scope, owner_record_name)
            VALUES (\(key.containerID), \(key.environment.rawValue), \(key.scope.rawValue), \(key.ownerRecordName)) RETURNING id
            """)?.int64(0)
    }

    package func databaseKey(id: Int64) async throws -> DatabaseKey? {
        try await fetchOne("SELECT container_id, environment, scope, owner_record_name FROM databases WHERE id = \(id)").flatMap { row in
            guard let environment = ContainerEnvironment(rawValue: try row.string(1)), let scope = DatabaseScope(rawValue: try row.string(2)) else {
                return nil
            }
            return DatabaseKey(containerID: try row.string(0), environment: environment, scope: scope, ownerRecordName: try row.string(3))
        }
    }

    package func databaseIDs(containerID: String, environment: ContainerEnvironment) async throws -> [Int64] {
        try await fetch("SELECT id FROM databases WHERE container_id = \(containerID) AND environment = \(environment.rawValue) ORDER BY id")
            .map { try $0.int64(0) }
    }

    package func databasePurgedSequence(databaseID: Int64) async throws -> Int64 {
        try await fetchOne("SELECT purged_sequence FROM databases WHERE id = \(databaseID)")?.int64(0) ?? 0
    }

    package func liveZone(databaseID: Int64, zoneName: String) async throws -> StoredZone? {
        try await fetchOne("""
            SELECT \(unescaped: ZoneRows.columns) FROM zones WHERE database_id = \(databaseID) AND zone_name = \(zoneName) AND deleted = \(literal: false)
            """).map(ZoneRows.zone)
    }

    package func zone(rowID: Int64) async throws -> StoredZone? {
        try await fetchOne("SELECT \(unescaped: ZoneRows.columns) FROM zones WHERE id = \(rowID)").map(ZoneRows.zone)
    }

    package func liveZones(databaseID: Int64) async throws -> [StoredZone] {
        try await fetch("""
            SELECT \(unescaped: ZoneRows.columns) FROM zones WHERE database_id = \(databaseID) AND deleted = \(literal: false) ORDER BY zone_name
            """).map(ZoneRows.zone)
    }

    package func insertZone(databaseID: Int64, zoneName: String, sequence: Int64) async throws -> StoredZone {
        guard let rowID = try await fetchOne("""
            INSERT INTO zones (database_id, zone_name, change_sequence) VALUES (\(databaseID), \(zoneName), \(sequence)) RETURNING id
            """)?.int64(0) else { throw CloudKitError(.internalError, "the zone was not inserted") }
        return StoredZone(rowID: rowID, databaseID: databaseID, zoneName: zoneName, changeSequence: sequence, purgedSequence: 0, deleted: false)
    }

    package func deleteZone(rowID: Int64, sequence: Int64, at time: Int64) async throws {
        for table in ["record_rows", "record_references", "record_index", "asset_references"] {
            try await run("DELETE FROM \(unescaped: table) WHERE zone_id = \(rowID)")
        }
        try await run("UPDATE zones SET deleted = \(literal: true), change_sequence = \(sequence), deleted_at = \(time) WHERE id = \(rowID)")
    }

    package func setZoneChangeSequence(rowID: Int64, sequence: Int64) async throws {
        try await run("UPDATE zones SET change_sequence = \(sequence) WHERE id = \(rowID)")
    }

    package func zonesChanged(databaseID: Int64, after sequence: Int64, skippingDeletionsThrough horizon: Int64, limit: Int) async throws -> [StoredZone] {
        try await fetch("""
            SELECT \(unescaped: ZoneRows.columns) FROM zones WHERE database_id = \(databaseID) AND change_sequence > \(sequence)
              AND NOT (deleted = \(literal: true) AND change_sequence <= \(horizon))
            ORDER BY change_sequence LIMIT \(limit)
            """).map(ZoneRows.zone)
    }
}

/// How zone rows read.
enum ZoneRows {
    static let columns = "id, database_id, zone_name, change_sequence, purged_sequence, deleted"

    static func zone(_ row: SQLRow) throws -> StoredZone {
        StoredZone(rowID: try row.int64(0), databaseID: try row.int64(1), zoneName: try row.string(2), changeSequence: try row.int64(3),
                   purgedSequence: try row.int64(4), deleted: try row.bool(5))
    }
}
