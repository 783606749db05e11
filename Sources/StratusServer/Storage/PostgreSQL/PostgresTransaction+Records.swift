import NIOCore
import PostgresNIO
import StratusCore

/// Records, their reference edges and change feeds.
extension PostgresTransaction {
    static let recordColumns = """
        zone_id, record_name, record_type, change_tag, fields, created_at, created_by, created_device,
        modified_at, modified_by, modified_device, parent, share, sequence, deleted, create_key
        """

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

    /// The records a query selects (``recordColumns`` first); with `maxBytes`, reading stops once
    /// their fields add up to more than that and two rows are read (the one past the limit tells
    /// that more come).
    func fetchRecords(_ query: PostgresQuery, maxBytes: Int = .max) async throws -> [StoredRecord] {
        var records: [StoredRecord] = []
        var bytes = 0
        for try await row in try await self.query(query) {
            let record = try Self.record(row.makeRandomAccess())
            records.append(record)
            bytes += record.fieldsJSON.count
            // The rest of the result is read and dropped by the row sequence's end.
            if bytes > maxBytes && records.count >= 2 { break }
        }
        return records
    }

    func record(zoneRowID: Int64, recordName: String) async throws -> StoredRecord? {
        try await fetchRecords("""
            SELECT \(unescaped: Self.recordColumns) FROM records WHERE zone_id = \(zoneRowID) AND record_name = \(recordName)
            """).first
    }

    func records(zoneRowID: Int64, recordNames: [String]) async throws -> [StoredRecord] {
        try await fetchRecords("""
            SELECT \(unescaped: Self.recordColumns) FROM records WHERE zone_id = \(zoneRowID) AND record_name = ANY(\(recordNames))
            """)
    }

    /// Held back (``HeldRecordWrites``) and sent with the saves around it.
    func saveRecord(_ record: StoredRecord, references: [StoredReference], replacingReferences: Bool) async throws {
        if held.holds(record) { try await sendHeldWrites() }
        held.append(HeldRecordWrites.Save(record: record, references: references, replacingReferences: replacingReferences))
    }

    func insertRecord(_ record: StoredRecord, references: [StoredReference]) async throws -> Bool {
        var binds = PostgresBindings(capacity: 16)
        Self.bind(record, to: &binds)
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

    /// Appends the record's ``recordColumns`` to `binds`, in order.
    static func bind(_ record: StoredRecord, to binds: inout PostgresBindings) {
        binds.append(record.zoneRowID)
        binds.append(record.recordName)
        binds.append(record.recordType)
        binds.append(record.changeTag)
        binds.append(ByteBuffer(bytes: record.fieldsJSON))
        binds.append(record.created.timestamp)
        binds.append(record.created.userRecordName)
        binds.append(record.created.deviceID)
        binds.append(record.modified.timestamp)
        binds.append(record.modified.userRecordName)
        binds.append(record.modified.deviceID)
        binds.append(record.parent)
        binds.append(record.share)
        binds.append(record.sequence)
        binds.append(record.deleted)
        binds.append(record.createKey)
    }

    private static let insertRecordSQL = """
        INSERT INTO records (\(recordColumns)) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)\n
        """

    private func insert(_ references: [StoredReference], zoneRowID: Int64) async throws {
        guard !references.isEmpty else { return }
        try await execute("""
            INSERT INTO record_references (zone_id, target_name, source_name, action)
            SELECT \(zoneRowID), * FROM unnest(\(references.map(\.targetName)), \(references.map(\.sourceName)), \(references.map(\.action.rawValue)))
            ON CONFLICT DO NOTHING
            """)
    }

    func recordChanges(zoneRowID: Int64, after sequence: Int64, skippingDeletionsThrough horizon: Int64, limit: Int,
                       maxBytes: Int, recordTypes: [String]?) async throws -> [StoredRecord] {
        let types = recordTypes ?? []
        // Walk `records_changes` in order and stop at the limit. Right after a burst of writes,
        // before autovacuum analyzes the table, the planner believes a zone holds a few dozen
        // rows and picks a bitmap scan that reads and sorts every row after the token instead
        // (measured: 9.6 ms a page at 40,000 records, against 0.5 ms), so a feed read in pages
        // grew with the square of its length.
        try await execute("SET LOCAL enable_bitmapscan = off")
        return try await fetchRecords("""
            SELECT \(unescaped: Self.recordColumns) FROM records WHERE zone_id = \(zoneRowID) AND sequence > \(sequence)
              AND NOT (deleted AND sequence <= \(horizon)) AND (\(types.isEmpty) OR record_type = ANY(\(types)))
            ORDER BY sequence LIMIT \(Int64(limit))
            """, maxBytes: maxBytes)
    }
}
