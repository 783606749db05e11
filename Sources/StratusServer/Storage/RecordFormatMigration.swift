import StratusCore

/// The move to record format 2, written once for both drivers: the rows of `records_format_1` (the
/// old `records`, renamed by the migration that starts the move) copied into `record_rows`, in
/// steps of at most ``rowsPerStep`` rows.
///
/// Format 1 kept every version's creator and modifier as text, user and device each, and (on
/// SQLite) the whole row in the primary key's tree, where a new record name lands wherever it
/// sorts. Format 2 keeps them as ``RecordActors`` ids, leaves out a change tag its sequence gives,
/// and (on SQLite) appends rows in the order they are written, found by name and by change through
/// two narrow indexes.
///
/// Each step is its own transaction and moves the mark in `record_format_migration` with the rows
/// it copied, so a migration cut off (the process killed, a power cut) resumes after the last step that
/// committed, and no row is copied twice or skipped. The driver runs steps until one copies
/// nothing, then the migration that drops the old table.
package enum RecordFormatMigration {
    /// Rows a step copies: a transaction of about a megabyte of typical rows.
    package static let rowsPerStep = 2_000

    /// The format-1 columns a step reads, in order.
    private static let oldColumns = """
        zone_id, record_name, record_type, change_tag, fields, created_at, created_by, created_device,
        modified_at, modified_by, modified_device, parent, share, sequence, deleted, create_key
        """

    /// Copies the rows after the mark, at most `limit`, and moves the mark past them. Returns how
    /// many it copied: none once every row is across (or no move is under way).
    package static func step(in db: some SQLDatabase, limit: Int = rowsPerStep) async throws -> Int {
        guard let mark = try await db.fetchOne("SELECT zone_id, record_name FROM record_format_migration WHERE id = 1") else { return 0 }
        let after: SQLStatement = if let zone = try mark.optionalInt64(0), let name = try mark.optionalString(1) {
            "WHERE zone_id > \(zone) OR (zone_id = \(zone) AND record_name > \(name))"
        } else {
            ""
        }
        let rows = try await db.fetch("""
            SELECT \(unescaped: oldColumns) FROM records_format_1 \(after) ORDER BY zone_id, record_name LIMIT \(limit)
            """)
        guard let last = rows.last else { return 0 }
        let records = try rows.map { row in
            StoredRecord(zoneRowID: try row.int64(0), recordName: try row.string(1), recordType: try row.string(2), changeTag: try row.string(3),
                         fieldsJSON: try row.bytes(4),
                         created: RecordStamp(timestamp: try row.int64(5), userRecordName: try row.string(6), deviceID: try row.string(7)),
                         modified: RecordStamp(timestamp: try row.int64(8), userRecordName: try row.string(9), deviceID: try row.string(10)),
                         parent: try row.optionalString(11), share: try row.optionalString(12), sequence: try row.int64(13),
                         deleted: try row.bool(14), createKey: try row.optionalString(15))
        }
        try await db.storeActors(of: records)
        for start in stride(from: 0, to: records.count, by: 500) {
            let values = records[start..<min(start + 500, records.count)].map { record in
                "(\(SQLStatement(joining: record.columnValues.map { "\($0)" }, separator: ", ")))" as SQLStatement
            }
            try await db.run("INSERT INTO record_rows (\(unescaped: RecordColumns.names)) VALUES \(SQLStatement(joining: values, separator: ", "))")
        }
        try await db.run("UPDATE record_format_migration SET zone_id = \(try last.int64(0)), record_name = \(try last.string(1)) WHERE id = 1")
        return records.count
    }
}
