import PostgresNIO

/// The archived rows whose ids a load keeps, inserted past PostgreSQL's id sequences.
extension PostgresTransaction {
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
