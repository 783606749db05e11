import StratusCore

/// ``HistoryBudgetStore`` in the SQL both drivers speak.
extension HistoryBudgetStore where Self: SQLDatabase {
    package func zonesOverHistoryBudget(bytes: Int64) async throws -> [(zoneRowID: Int64, bytes: Int64)] {
        try await fetch("""
            SELECT zone_id, SUM(LENGTH(fields)) FROM record_log WHERE fields IS NOT NULL
            GROUP BY zone_id HAVING SUM(LENGTH(fields)) > \(bytes) ORDER BY zone_id
            """).map { (try $0.int64(0), try $0.int64(1)) }
    }

    package func recordsByKeptVersions(zoneRowID: Int64, limit: Int) async throws -> [KeptVersions] {
        // A record without a row lost it with its zone's deletion: it counts as deleted.
        try await fetch("""
            SELECT l.record_name, COUNT(*), SUM(LENGTH(l.fields)),
                   MAX(CASE WHEN r.record_name IS NULL OR r.deleted = \(literal: true) THEN 1 ELSE 0 END)
            FROM record_log l LEFT JOIN record_rows r ON r.zone_id = l.zone_id AND r.record_name = l.record_name
            WHERE l.zone_id = \(zoneRowID) AND l.fields IS NOT NULL
            GROUP BY l.record_name ORDER BY COUNT(*) DESC, l.record_name LIMIT \(limit)
            """).map {
            KeptVersions(recordName: try $0.string(0), versions: Int(try $0.int64(1)), bytes: try $0.int64(2), deleted: try $0.int64(3) == 1)
        }
    }

    package func evictOldestVersions(zoneRowID: Int64, recordName: String, count: Int) async throws -> Int64? {
        let evicted = try await fetch("""
            DELETE FROM record_log WHERE id IN (
                SELECT id FROM record_log WHERE zone_id = \(zoneRowID) AND record_name = \(recordName) AND fields IS NOT NULL
                ORDER BY sequence LIMIT \(count))
            RETURNING logged_at
            """).map { try $0.int64(0) }
        guard let youngest = evicted.max() else { return nil }
        try await forgetFilesOfRemovedVersions(where: "zone_id = \(zoneRowID) AND record_name = \(recordName) AND")
        return youngest
    }
}
