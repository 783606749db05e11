import Foundation
import GRDB
import StratusCore

extension IndexValue: DatabaseValueConvertible {
    package var databaseValue: DatabaseValue {
        switch self {
        case .integer(let number): number.databaseValue
        case .real(let number): number.databaseValue
        case .text(let text): text.databaseValue
        case .missing: Data().databaseValue
        }
    }

    package static func fromDatabaseValue(_ value: DatabaseValue) -> IndexValue? {
        switch value.storage {
        case .int64(let number): .integer(number)
        case .double(let number): .real(number)
        case .string(let text): .text(text)
        case .blob: .missing
        case .null: nil
        }
    }
}

/// Index rows and the SQL that queries them.
///
/// Each condition on a field becomes `record_name IN (SELECT record_name FROM record_index …)`
/// (`(zone_id, record_name) IN …` across zones), so the index drives the query through the
/// records table's primary key and the zone is not scanned. Sort keys read the field's smallest
/// value (a sentinel blob, which sorts after every value, stands for a missing one); the
/// continuation is a keyset comparison on them, then on the record's name and zone.
extension SQLiteTransaction {
    func replaceIndexEntries(zoneRowID: Int64, recordType: String, recordName: String, entries: [IndexEntry]) throws {
        try db.cachedStatement(sql: "DELETE FROM record_index WHERE zone_id = ? AND record_name = ?")
            .execute(arguments: [zoneRowID, recordName])
        guard !entries.isEmpty else { return }
        let insert = try db.cachedStatement(sql: """
            INSERT OR IGNORE INTO record_index (zone_id, record_type, field_name, value, record_name) VALUES (?, ?, ?, ?, ?)
            """)
        for entry in entries {
            try insert.execute(arguments: [zoneRowID, recordType, entry.field, entry.value, recordName])
        }
    }

    func liveRecords(containerID: String, environment: ContainerEnvironment, recordType: String) throws -> [StoredRecord] {
        try fetchRecords("""
            SELECT \(Self.recordColumns) FROM records WHERE record_type = ? AND deleted = 0 AND zone_id IN (
                SELECT zones.id FROM zones JOIN databases ON databases.id = zones.database_id
                WHERE databases.container_id = ? AND databases.environment = ? AND zones.deleted = 0)
            """) { statement in
            statement.bind(recordType)
            statement.bind(containerID)
            statement.bind(environment.rawValue)
        }
    }

    func query(_ query: RecordQuery) throws -> QueryPage {
        var arguments = StatementArguments()
        // One zone keeps the single-zone plan: equality on the zone, index rows keyed by name.
        let oneZone = query.zoneRowIDs.count == 1
        let zoneTest = oneZone ? "zone_id = ?" : "zone_id IN (\(databaseQuestionMarks(count: max(query.zoneRowIDs.count, 1))))"
        let zones = StatementArguments((query.zoneRowIDs.isEmpty ? [-1] : query.zoneRowIDs).map { $0 as (any DatabaseValueConvertible)? })
        let key = oneZone ? "record_name" : "(zone_id, record_name)"
        let indexKey = oneZone ? "record_name" : "zone_id, record_name"
        var clauses = [zoneTest, "record_type = ?", "deleted = 0"]
        arguments += zones
        arguments += [query.recordType]
        for condition in query.conditions {
            let (test, values) = Self.sql(condition.test, on: "value")
            switch condition.source {
            case .field(let field):
                var all = ""
                if case .containsAll(let required) = condition.test {
                    all = " GROUP BY \(indexKey) HAVING COUNT(DISTINCT value) = \(Set(required).count)"
                }
                clauses.append("\(key) \(condition.negated ? "NOT IN" : "IN") (SELECT \(indexKey) FROM record_index "
                               + "WHERE \(zoneTest) AND record_type = ? AND field_name = ? AND \(test)\(all))")
                arguments += zones
                arguments += [query.recordType, field]
            case .column(let column):
                let (columnTest, _) = Self.sql(condition.test, on: column.rawValue)
                clauses.append(condition.negated ? "NOT (\(columnTest))" : columnTest)
            case .distance(let field, let latitude, let longitude):
                // Only "within": a latitude band through the index, then the exact distance.
                guard case .less(.real(let meters), _) = condition.test else {
                    throw CloudKitError(.internalError, "a distance condition must bound the distance from above")
                }
                let band = meters / 111_000
                clauses.append("""
                    \(key) IN (SELECT \(oneZone ? "a.record_name" : "a.zone_id, a.record_name") FROM record_index a JOIN record_index b
                    ON b.zone_id = a.zone_id AND b.record_type = a.record_type AND b.record_name = a.record_name AND b.field_name = ?
                    WHERE a.\(zoneTest) AND a.record_type = ? AND a.field_name = ? AND a.value BETWEEN ? AND ?
                    AND stratus_distance(a.value, b.value, ?, ?) <= ?)
                    """)
                arguments += [QueryIndexing.longitudeKey(field)]
                arguments += zones
                arguments += [query.recordType, QueryIndexing.latitudeKey(field), latitude - band, latitude + band, latitude, longitude, meters]
                continue
            }
            arguments += StatementArguments(values)
        }
        let sortExpressions = query.sort.map { key -> String in
            switch key.source {
            case .column(let column): column.rawValue
            case .distance(let field, let latitude, let longitude):
                "COALESCE((SELECT stratus_distance(a.value, b.value, \(latitude), \(longitude)) FROM record_index a JOIN record_index b "
                    + "ON b.zone_id = a.zone_id AND b.record_type = a.record_type AND b.record_name = a.record_name "
                    + "AND b.field_name = \(Self.literal(QueryIndexing.longitudeKey(field))) WHERE a.zone_id = records.zone_id "
                    + "AND a.record_type = records.record_type AND a.record_name = records.record_name "
                    + "AND a.field_name = \(Self.literal(QueryIndexing.latitudeKey(field)))), x'')"
            case .field(let field):
                "COALESCE((SELECT MIN(value) FROM record_index i WHERE i.zone_id = records.zone_id AND i.record_type = records.record_type "
                    + "AND i.field_name = \(Self.literal(field)) AND i.record_name = records.record_name), x'')"
            }
        }
        if let after = query.after, after.values.count == query.sort.count {
            clauses.append(query.continuation(after: after, sortExpressions: sortExpressions,
                                              bindSortValue: { _, value in arguments += [value]; return "?" },
                                              bindName: { arguments += [$0]; return "?" },
                                              bindZone: { arguments += [$0]; return "?" }))
        }
        let order = zip(sortExpressions, query.sort).map { "\($0) \($1.ascending ? "ASC" : "DESC")" } + (oneZone ? ["record_name ASC"] : ["record_name ASC", "zone_id ASC"])
        let selected = ([Self.recordColumns] + sortExpressions).joined(separator: ", ")
        let sql = "SELECT \(selected) FROM records WHERE \(clauses.joined(separator: " AND ")) ORDER BY \(order.joined(separator: ", ")) LIMIT ?"
        arguments += [query.limit]

        var page = QueryPage(rows: [])
        let statement = try db.cachedStatement(sql: sql)
        try statement.setArguments(arguments)
        let rows = DirectStatement(bound: statement)
        var bytes = 0
        while try rows.next(in: db) {
            let sortValues = (0..<query.sort.count).map { rows.indexValue(Int32(Self.recordColumnCount + $0)) }
            let record = Self.record(rows)
            page.rows.append((record, RecordQuery.Position(values: sortValues, recordName: record.recordName, zoneRowID: record.zoneRowID)))
            bytes += record.fieldsJSON.count
            if bytes > query.maxBytes && page.rows.count >= 2 {
                rows.reset()
                page.cutShort = true
                break
            }
        }
        return page
    }

    /// `stratus_distance(lat1, lon1, lat2, lon2)`: great-circle meters between two points.
    static let distanceFunction = DatabaseFunction("stratus_distance", argumentCount: 4, pure: true) { values in
        let numbers = values.compactMap { Double.fromDatabaseValue($0) }
        guard numbers.count == 4 else { return nil }
        return QueryIndexing.greatCircleMeters(numbers[0], numbers[1], numbers[2], numbers[3])
    }

    /// A test as SQL on `column`, with its arguments.
    private static func sql(_ test: RecordQuery.Test, on column: String) -> (String, [IndexValue]) {
        switch test {
        case .equals(let value): ("\(column) = ?", [value])
        case .less(let value, let orEqual): ("\(column) \(orEqual ? "<=" : "<") ?", [value])
        case .greater(let value, let orEqual): ("\(column) \(orEqual ? ">=" : ">") ?", [value])
        case .oneOf(let values), .containsAll(let values):
            ("\(column) IN (\(databaseQuestionMarks(count: max(values.count, 1))))", values.isEmpty ? [.missing] : values)
        case .prefix(let prefix): ("(\(column) >= ? AND \(column) < ?)", [.text(prefix), .text(prefix + "\u{10FFFF}")])
        }
    }

    private static func literal(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
    }
}
