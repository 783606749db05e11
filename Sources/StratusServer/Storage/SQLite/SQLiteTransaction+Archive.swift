import GRDB

/// The archived rows whose ids a load keeps, inserted as SQLite assigns ids.
extension SQLiteTransaction {
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


    /// Inserts a row whose id the load may keep; an id the store already uses is ``ArchiveLoad/RowIDTaken``.
    private func insertKeepingRowID(_ load: ArchiveLoad, sql: String, arguments: StatementArguments) throws {
        do {
            try db.execute(sql: sql, arguments: arguments)
        } catch let error as DatabaseError where load.keepsRowIDs && error.extendedResultCode == .SQLITE_CONSTRAINT_PRIMARYKEY {
            throw ArchiveLoad.RowIDTaken()
        }
    }
}
