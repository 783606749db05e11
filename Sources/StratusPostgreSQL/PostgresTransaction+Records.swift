import NIOCore
import PostgresNIO
import StratusCore
import StratusServer

/// Record rows as PostgreSQL decodes and saves them (the reads are written once: `SQL+RecordStore`).
extension PostgresTransaction {
    static func record(_ row: PostgresRandomAccessRow) throws -> StoredRecord {
        let fields = try row[4].decode(ByteBuffer.self)
        return StoredRecord(
            zoneRowID: try row[0].decode(Int64.self), recordName: try row[1].decode(String.self), recordType: try row[2].decode(String.self),
            changeTag: try row[3].decode(String.self), fieldsJSON: Array(fields.readableBytesView),
            created: RecordStamp(timestamp: try row[5].decode(Int64.self), userRecordName: try row[6].decode(String.self),
                                 deviceID: try row[7].decode(String.self)),
            modified: RecordStamp(timestamp: try row[8].decode(Int64.self), userRecordName: try row[9].decode(String.self),
                                  deviceID: try row[10].decode(String.self)),
            parent: try row[11].decode(String?.self), share: try row[12].decode(String?.self), sequence: try row[13].decode(Int64.self),
            deleted: try row[14].decode(Bool.self), createKey: try row[15].decode(String?.self))
    }

    /// Saves wait in ``HeldRecordWrites`` and travel together.
    var holdsSaves: Bool { true }

    /// Held back (``HeldRecordWrites``) and sent with the saves around it.
    func saveRecord(_ record: StoredRecord, references: [StoredReference], replacingReferences: Bool) async throws {
        if held.holds(record) { try await sendHeldWrites() }
        held.append(HeldRecordWrites.Save(record: record, references: references, replacingReferences: replacingReferences))
    }

    func insertRecord(_ record: StoredRecord, references: [StoredReference]) async throws -> Bool {
        var binds = PostgresBindings(capacity: 16)
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
            created_at = EXCLUDED.created_at, created_by = EXCLUDED.created_by, created_device = EXCLUDED.created_device,
            modified_at = EXCLUDED.modified_at, modified_by = EXCLUDED.modified_by, modified_device = EXCLUDED.modified_device,
            parent = EXCLUDED.parent, share = EXCLUDED.share, sequence = EXCLUDED.sequence, deleted = EXCLUDED.deleted,
            create_key = EXCLUDED.create_key
        """

    private static let insertRecordSQL = """
        INSERT INTO records (\(RecordColumns.names)) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)\n
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
