import NIOCore
import PostgresNIO
import StratusCore

/// A container's rows as archive items, and the rows of an archive whose ids a load keeps.
extension PostgresTransaction {
    /// A zone's records and tombstones, each with its reference edges and asset files, read as
    /// they stream (a zone's records are never all in memory).
    func archiveRecords(zoneRowID: Int64, _ emit: (ArchiveItem) throws -> Void) async throws {
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

}
