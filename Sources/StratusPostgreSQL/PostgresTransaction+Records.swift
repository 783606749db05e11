import NIOCore
import PostgresNIO
import StratusCore
import StratusServer

/// Record rows as PostgreSQL decodes and saves them (the reads are written once: `SQL+RecordStore`).
extension PostgresTransaction {
    /// A row of ``RecordColumns/names``, its actors by id.
    static func record(_ row: PostgresRandomAccessRow) throws -> (StoredRecord, RowActors) {
        let fields = try row[4].decode(ByteBuffer.self)
        return (StoredRecord(zoneRowID: try row[0].decode(Int64.self), recordName: try row[1].decode(String.self),
                             recordType: try row[2].decode(String.self), storedChangeTag: try row[3].decode(String?.self),
                             fieldsJSON: Array(fields.readableBytesView), createdAt: try row[5].decode(Int64.self),
                             modifiedAt: try row[7].decode(Int64.self), parent: try row[9].decode(String?.self),
                             share: try row[10].decode(String?.self), sequence: try row[11].decode(Int64.self),
                             deleted: try row[12].decode(Bool.self), createKey: try row[13].decode(String?.self)),
                RowActors(created: try row[6].decode(Int64.self), modified: try row[8].decode(Int64.self)))
    }

    /// Saves wait in ``HeldRecordWrites`` and travel together.
    var holdsSaves: Bool { true }

    /// Held back (``HeldRecordWrites``) and sent with the saves around it.
    func saveRecord(_ record: StoredRecord, references: [StoredReference], replacingReferences: Bool) async throws {
        if held.holds(record) { try await sendHeldWrites() }
        held.append(HeldRecordWrites.Save(record: record, references: references, replacingReferences: replacingReferences))
    }

    func insertRecord(_ record: StoredRecord, references: [StoredReference]) async throws -> Bool {
        try await storeActors(of: [record])
        var binds = PostgresBindings(capacity: RecordColumns.count)
        for value in record.columnValues { binds.append(value) }
        let inserted = try await changedRows(PostgresQuery(unsafeSQL: Self.insertRecordSQL + "ON CONFLICT (zone_id, record_name) DO NOTHING RETURNING 1",
                                                           binds: binds))
        guard inserted > 0 else { return false }
        try await insert(references, zoneRowID: record.zoneRowID)
        return true
    }

    /// The conflict clause of a save: the new row replaces the old one's every column.
    static let overwriteOnConflict = """
        ON CONFLICT (zone_id, record_name) DO UPDATE SET
            record_type = EXCLUDED.record_type, change_tag = EXCLUDED.change_tag, fields = EXCLUDED.fields,
            created_at = EXCLUDED.created_at, created_by = EXCLUDED.created_by,
            modified_at = EXCLUDED.modified_at, modified_by = EXCLUDED.modified_by,
            parent = EXCLUDED.parent, share = EXCLUDED.share, sequence = EXCLUDED.sequence, deleted = EXCLUDED.deleted,
            create_key = EXCLUDED.create_key
        """

    private static let insertRecordSQL = """
        INSERT INTO record_rows (\(RecordColumns.names)) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)\n
        """

    private func insert(_ references: [StoredReference], zoneRowID: Int64) async throws {
        guard !references.isEmpty else { return }
        try await execute("""
            INSERT INTO record_references (zone_id, target_name, source_name, action)
            SELECT \(zoneRowID), * FROM unnest(\(references.map(\.targetName)), \(references.map(\.sourceName)), \(references.map(\.action.rawValue)))
            ON CONFLICT DO NOTHING
            """)
    }
}
