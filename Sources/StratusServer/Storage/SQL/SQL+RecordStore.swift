import StratusCore

/// The reads of ``RecordStore``, written once; saving a record stays each driver's fast path
/// (SQLite's kept statements, PostgreSQL's held writes).
extension RecordStore where Self: SQLDatabase {
    package func record(zoneRowID: Int64, recordName: String) async throws -> StoredRecord? {
        try await fetchRecords("""
            SELECT \(unescaped: RecordColumns.names) FROM record_rows WHERE zone_id = \(zoneRowID) AND record_name = \(recordName)
            """).records.first
    }

    package func records(zoneRowID: Int64, recordNames: [String]) async throws -> [StoredRecord] {
        var records: [StoredRecord] = []
        for start in stride(from: 0, to: recordNames.count, by: 500) {
            let names = Array(recordNames[start..<min(start + 500, recordNames.count)])
            records += try await fetchRecords("""
                SELECT \(unescaped: RecordColumns.names) FROM record_rows WHERE zone_id = \(zoneRowID) AND record_name IN (\(list: names))
                """).records
        }
        return records
    }

    package func references(zoneRowID: Int64, targetName: String) async throws -> [StoredReference] {
        try await fetch("""
            SELECT source_name, target_name, action FROM record_references WHERE zone_id = \(zoneRowID) AND target_name = \(targetName)
            """).compactMap { row in
            guard let action = Reference.Action(rawValue: try row.string(2)) else { return nil }
            return StoredReference(sourceName: try row.string(0), targetName: try row.string(1), action: action)
        }
    }

    package func recordChanges(zoneRowID: Int64, after sequence: Int64, skippingDeletionsThrough horizon: Int64, limit: Int,
                               maxBytes: Int, recordTypes: [String]?) async throws -> [StoredRecord] {
        if let setting = dialect.changeFeedSetting { try await run("\(unescaped: setting)") }
        // The statement walks `records_changes` in order and stops at the limit.
        return try await fetchRecords("""
            SELECT \(unescaped: RecordColumns.names) FROM record_rows WHERE zone_id = \(zoneRowID) AND sequence > \(sequence)
            \(Self.changeFilters(after: sequence, skippingDeletionsThrough: horizon, recordTypes: recordTypes)) ORDER BY sequence LIMIT \(limit)
            """, maxBytes: maxBytes).records
    }

    package func changePositions(zoneRowID: Int64, after sequence: Int64, skippingDeletionsThrough horizon: Int64, limit: Int,
                                 recordTypes: [String]?) async throws -> [ChangePosition] {
        if let setting = dialect.changeFeedSetting { try await run("\(unescaped: setting)") }
        let rows = try await fetch("""
            SELECT sequence, record_type, created_by FROM record_rows WHERE zone_id = \(zoneRowID) AND sequence > \(sequence)
            \(Self.changeFilters(after: sequence, skippingDeletionsThrough: horizon, recordTypes: recordTypes)) ORDER BY sequence LIMIT \(limit)
            """)
        let creators = try await actors(named: try rows.map { try $0.int64(2) })
        return try rows.map { row in
            ChangePosition(sequence: try row.int64(0), recordType: try row.string(1), creator: creators[try row.int64(2)]?.userRecordName)
        }
    }

    package func records(zoneRowID: Int64, sequences: [Int64], maxBytes: Int) async throws -> [StoredRecord] {
        guard let last = sequences.last else { return [] }
        // The list padded to a power of two with its last value, so that the statement's text
        // takes one of a few forms and each driver's statement cache stays small.
        var padded = sequences
        while padded.count & (padded.count - 1) != 0 { padded.append(last) }
        return try await fetchRecords("""
            SELECT \(unescaped: RecordColumns.names) FROM record_rows WHERE zone_id = \(zoneRowID) AND sequence IN (\(list: padded))
            ORDER BY sequence
            """, maxBytes: maxBytes).records
    }

    /// A change feed's conditions past the zone and the sequence: no deletion at or before the
    /// first sync's horizon, only the desired types.
    private static func changeFilters(after sequence: Int64, skippingDeletionsThrough horizon: Int64, recordTypes: [String]?) -> SQLStatement {
        var filters: [SQLStatement] = []
        if horizon > sequence { filters.append("NOT (deleted = \(literal: true) AND sequence <= \(horizon))") }
        if let types = recordTypes, !types.isEmpty {
            filters.append("record_type IN (\(list: types))")
        }
        return SQLStatement(joining: filters.map { "AND \($0)" }, separator: " ")
    }

    package func liveRecords(containerID: String, environment: ContainerEnvironment, recordType: String) async throws -> [StoredRecord] {
        try await fetchRecords("""
            SELECT \(unescaped: RecordColumns.names) FROM record_rows WHERE record_type = \(recordType) AND deleted = \(literal: false) AND zone_id IN (
                SELECT zones.id FROM zones JOIN databases ON databases.id = zones.database_id
                WHERE databases.container_id = \(containerID) AND databases.environment = \(environment.rawValue)
                AND zones.deleted = \(literal: false))
            """).records
    }
}
