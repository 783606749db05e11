import StratusCore

/// The record log (``RecordLogStore``), written once for both drivers.
///
/// `record_log` holds an entry per change, in row-id order: the change's place (`sequence`), time,
/// kind, actor and cause, and the version it replaced (`version_*`, `fields`, the stamps, `parent`, `share`);
/// `fields` is NULL where no version was replaced (a create) or it was evicted.
extension RecordLogStore where Self: SQLDatabase {
    package func appendRecordLog(_ entries: [RecordLogEntry]) async throws {
        for start in stride(from: 0, to: entries.count, by: Self.rowsPerInsert) {
            let rows = entries[start..<min(start + Self.rowsPerInsert, entries.count)].map { entry -> SQLStatement in "(\(list: entry.columnValues))" }
            try await run("""
                INSERT INTO record_log (\(unescaped: RecordLogColumns.names)) VALUES \(SQLStatement(joining: rows, separator: ", "))
                """)
        }
    }

    package func recordVersions(zoneRowID: Int64, recordName: String, before position: Int64?, limit: Int) async throws -> [RecordVersion] {
        let before: SQLStatement = position.map { "AND sequence < \($0)" } ?? ""
        return try await versions("""
            SELECT \(unescaped: RecordLogColumns.version) FROM record_log
            WHERE zone_id = \(zoneRowID) AND record_name = \(recordName) AND fields IS NOT NULL \(before)
            ORDER BY sequence DESC LIMIT \(limit)
            """)
    }

    package func recordVersion(zoneRowID: Int64, recordName: String, changeTag: String) async throws -> RecordVersion? {
        // A tag is its version's sequence in base 36 unless the log kept it (an archive's).
        let sequence = Int64(changeTag, radix: 36) ?? -1
        return try await versions("""
            SELECT \(unescaped: RecordLogColumns.version) FROM record_log
            WHERE zone_id = \(zoneRowID) AND record_name = \(recordName) AND fields IS NOT NULL
              AND (version_tag = \(changeTag) OR (version_tag IS NULL AND version_sequence = \(sequence)))
            ORDER BY sequence DESC LIMIT 1
            """).first
    }

    package func deletedRecords(zoneRowID: Int64, before position: Int64?, limit: Int) async throws -> [StoredRecord] {
        let before: SQLStatement = position.map { "AND sequence < \($0)" } ?? ""
        return try await fetchRecords("""
            SELECT \(unescaped: RecordColumns.names) FROM record_rows r
            WHERE zone_id = \(zoneRowID) AND deleted = \(literal: true) \(before)
              AND EXISTS (SELECT 1 FROM record_log l WHERE l.zone_id = r.zone_id AND l.record_name = r.record_name
                          AND l.sequence = r.sequence AND l.fields IS NOT NULL)
            ORDER BY sequence DESC LIMIT \(limit)
            """).records
    }

    package func cascadedDeletions(zoneRowID: Int64, cause: String, after sequence: Int64) async throws -> [StoredRecord] {
        try await fetchRecords("""
            SELECT \(unescaped: RecordColumns.names) FROM record_rows r
            WHERE zone_id = \(zoneRowID) AND deleted = \(literal: true) AND sequence > \(sequence)
              AND EXISTS (SELECT 1 FROM record_log l WHERE l.zone_id = r.zone_id AND l.record_name = r.record_name
                          AND l.sequence = r.sequence AND l.cause = \(cause) AND l.fields IS NOT NULL)
            ORDER BY sequence
            """).records
    }

    package func purgeRecordLog(before time: Int64, in scope: RecordLogScope, limit: Int) async throws -> Int {
        // The oldest entries have the lowest row ids: of the scope's first `limit`, those logged
        // before the time go. Fewer than `limit` going means the rest are newer (a clock set back
        // only leaves some for the next round).
        let zones: SQLStatement = switch scope {
        case .allBut(let containers) where containers.isEmpty: ""
        case .allBut(let containers): "WHERE zone_id NOT IN (\(Self.zonesOf(containers)))"
        case .only(let containers): "WHERE zone_id IN (\(Self.zonesOf(containers)))"
        }
        // An endpoint not disabled holds what it has not passed (``WebhookStore``).
        let purged = try await changedRowCount("""
            DELETE FROM record_log WHERE id IN (SELECT id FROM record_log \(zones) ORDER BY id LIMIT \(limit)) AND logged_at < \(time)
              AND id <= COALESCE((SELECT MIN(delivered_through) FROM webhook_endpoints
                                  WHERE state <> \(StoredWebhookEndpoint.State.disabled.rawValue)), id)
            RETURNING 1
            """)
        if purged > 0 { try await forgetFilesOfRemovedVersions(where: "") }
        return purged
    }

    /// The row ids of the containers' zones, deleted ones included.
    private static func zonesOf(_ containers: [String]) -> SQLStatement {
        "SELECT z.id FROM zones z JOIN databases d ON d.id = z.database_id WHERE d.container_id IN (\(list: containers))"
    }

    package func purgeRecordHistory(zoneRowID: Int64, recordName: String) async throws -> Int {
        try await run("DELETE FROM version_assets WHERE zone_id = \(zoneRowID) AND record_name = \(recordName)")
        let versions = try await fetchOne("""
            SELECT COUNT(*) FROM record_log WHERE zone_id = \(zoneRowID) AND record_name = \(recordName) AND fields IS NOT NULL
            """)?.int64(0) ?? 0
        try await run("DELETE FROM record_log WHERE zone_id = \(zoneRowID) AND record_name = \(recordName)")
        return Int(versions)
    }

    package func logZoneDeletion(zoneRowID: Int64, sequence: Int64, stamp: RecordStamp) async throws {
        let actor = RecordActors.id(of: stamp)
        try await storeActors([actor: RecordActor(stamp)])
        try await run("""
            INSERT INTO record_log (\(unescaped: RecordLogColumns.names))
            SELECT zone_id, record_name, \(sequence), \(stamp.timestamp), \(RecordLogEntry.Change.delete.rawValue), \(actor), NULL,
                   record_type, record_type, sequence, change_tag, 0, fields, created_at, created_by, modified_at, modified_by, parent, share
            FROM record_rows WHERE zone_id = \(zoneRowID) AND deleted = \(literal: false)
            """)
        try await run("""
            INSERT INTO version_assets (zone_id, record_name, sequence, checksum)
            SELECT zone_id, record_name, \(sequence), checksum FROM asset_references WHERE zone_id = \(zoneRowID)
            """)
        try await appendRecordLog([RecordLogEntry(zoneRowID: zoneRowID, recordName: RecordLogEntry.zoneEventName, recordType: "",
                                                  sequence: sequence, change: .zoneDelete, stamp: stamp, replaced: nil)])
    }

    package func logZoneCreation(zoneRowID: Int64, sequence: Int64, stamp: RecordStamp) async throws {
        try await storeActors([RecordActors.id(of: stamp): RecordActor(stamp)])
        try await appendRecordLog([RecordLogEntry(zoneRowID: zoneRowID, recordName: RecordLogEntry.zoneEventName, recordType: "",
                                                  sequence: sequence, change: .zoneCreate, stamp: stamp, replaced: nil)])
    }

    package func purgeZoneHistory(zoneRowID: Int64) async throws {
        for table in ["record_log", "version_assets"] {
            try await run("DELETE FROM \(unescaped: table) WHERE zone_id = \(zoneRowID)")
        }
    }

    package func purgeDatabaseHistory(databaseID: Int64) async throws {
        for table in ["record_log", "version_assets"] {
            try await run("DELETE FROM \(unescaped: table) WHERE zone_id IN (SELECT id FROM zones WHERE database_id = \(databaseID))")
        }
    }

    package func recordState(zoneRowID: Int64, recordName: String, at time: Int64) async throws -> RecordState {
        // The first change after the moment replaced the version current then.
        guard let first = try await fetchOne("""
            SELECT sequence, CASE WHEN fields IS NULL OR version_deleted = 1 THEN 1 ELSE 0 END FROM record_log
            WHERE zone_id = \(zoneRowID) AND record_name = \(recordName) AND logged_at > \(time) ORDER BY sequence LIMIT 1
            """) else { return .unchanged }
        guard try first.int64(1) == 0 else { return .absent }
        let versions = try await versions("""
            SELECT \(unescaped: RecordLogColumns.version) FROM record_log
            WHERE zone_id = \(zoneRowID) AND record_name = \(recordName) AND sequence = \(try first.int64(0))
            """)
        return versions.first.map { .version($0.record) } ?? .absent
    }

    package func recordNames(zoneRowIDs: [Int64], after name: String?, limit: Int) async throws -> [String] {
        let after: SQLStatement = name.map { "AND record_name > \($0)" } ?? ""
        return try await fetch("""
            SELECT record_name FROM record_rows WHERE zone_id IN (\(list: zoneRowIDs)) \(after)
            UNION SELECT record_name FROM record_log WHERE zone_id IN (\(list: zoneRowIDs)) AND record_name <> \(RecordLogEntry.zoneEventName) \(after)
            ORDER BY record_name LIMIT \(limit)
            """).map { try $0.string(0) }
    }

    package func zones(databaseID: Int64, zoneName: String) async throws -> [(zone: StoredZone, deletedAt: Int64?)] {
        try await fetch("""
            SELECT \(unescaped: ZoneRows.columns), deleted_at FROM zones WHERE database_id = \(databaseID) AND zone_name = \(zoneName) ORDER BY id
            """).map { row in (try ZoneRows.zone(row), try row.optionalInt64(6)) }
    }

    package func deletedZones(databaseID: Int64, limit: Int) async throws -> [(zone: StoredZone, deletedAt: Int64)] {
        try await fetch("""
            SELECT \(unescaped: ZoneRows.columns), deleted_at FROM zones WHERE database_id = \(databaseID) AND deleted = \(literal: true)
              AND EXISTS (SELECT 1 FROM record_log WHERE record_log.zone_id = zones.id AND fields IS NOT NULL)
            ORDER BY deleted_at DESC LIMIT \(limit)
            """).map { row in (try ZoneRows.zone(row), try row.optionalInt64(6) ?? 0) }
    }

    /// Entries an `INSERT` carries: 19 values each, well under either driver's parameter limit,
    /// and few statement texts (one per count up to this) in a driver's statement cache.
    private static var rowsPerInsert: Int { 50 }

    private func versions(_ statement: SQLStatement) async throws -> [RecordVersion] {
        let (records, extra, _) = try await fetchRecords(statement, extraColumns: 2)
        return zip(records, extra).map { record, extra in
            let position: Int64 = if case .integer(let value) = extra[0] { value } else { 0 }
            let cause: String? = if case .text(let value) = extra[1] { value } else { nil }
            return RecordVersion(record: record, position: position, cause: cause)
        }
    }
}

extension SQLDatabase {
    /// Removes the `version_assets` rows (those `condition` selects, a prefix ending in `AND`, or
    /// all) whose log entry is gone: the files' hold of versions a purge or the budget removed.
    func forgetFilesOfRemovedVersions(where condition: SQLStatement) async throws {
        try await run("""
            DELETE FROM version_assets WHERE \(condition) NOT EXISTS (
                SELECT 1 FROM record_log l WHERE l.zone_id = version_assets.zone_id AND l.record_name = version_assets.record_name
                                             AND l.sequence = version_assets.sequence)
            """)
    }
}

/// The columns an entry of `record_log` is written in, in ``RecordLogEntry/columnValues``' order.
package enum RecordLogColumns {
    package static let names = """
        zone_id, record_name, sequence, logged_at, change, actor, cause, record_type, version_type, version_sequence, version_tag,
        version_deleted, fields, created_at, created_by, modified_at, modified_by, parent, share
        """
    package static let count = 19
    /// A kept version as ``RecordColumns/names`` (a tombstone's row has no create key in the
    /// log), then the sequence of the change that replaced it and its cause.
    package static let version = """
        zone_id, record_name, version_type, version_tag, fields, created_at, created_by, modified_at, modified_by, parent, share,
        version_sequence, version_deleted = 1, CAST(NULL AS TEXT), sequence, cause
        """
}

extension RecordLogEntry {
    /// The values of ``RecordLogColumns/names``, in order, as a driver binds them.
    package var columnValues: [SQLValue] {
        let version = replaced
        return [.integer(zoneRowID), .text(recordName), .integer(sequence), .integer(stamp.timestamp), .integer(change.rawValue),
                .integer(RecordActors.id(of: stamp)), cause.sqlValue, .text(recordType), version?.recordType.sqlValue ?? .null,
                version.map { .integer($0.sequence) } ?? .null, version?.storedChangeTag.sqlValue ?? .null,
                version.map { .integer($0.deleted ? 1 : 0) } ?? .null, version.map { .blob($0.fieldsJSON) } ?? .null,
                version.map { .integer($0.created.timestamp) } ?? .null, version.map { .integer(RecordActors.id(of: $0.created)) } ?? .null,
                version.map { .integer($0.modified.timestamp) } ?? .null, version.map { .integer(RecordActors.id(of: $0.modified)) } ?? .null,
                version?.parent.sqlValue ?? .null, version?.share.sqlValue ?? .null]
    }
}
