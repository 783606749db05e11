import GRDB
import StratusCore

/// A container's rows as archive items, and archive items back into rows.
extension SQLiteTransaction {
    /// A zone's records and tombstones, each with its reference edges and asset files, read as
    /// they stream (a zone's records are never all in memory).
    func archiveRecords(zoneRowID: Int64, _ emit: (ArchiveItem) throws -> Void) throws {
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


    /// Inserts a row whose id the load may keep; an id the store already uses is ``ArchiveLoad/RowIDTaken``.
    private func insertKeepingRowID(_ load: ArchiveLoad, sql: String, arguments: StatementArguments) throws {
        do {
            try db.execute(sql: sql, arguments: arguments)
        } catch let error as DatabaseError where load.keepsRowIDs && error.extendedResultCode == .SQLITE_CONSTRAINT_PRIMARYKEY {
            throw ArchiveLoad.RowIDTaken()
        }
    }
}
