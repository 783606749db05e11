import NIOCore
import PostgresNIO
import StratusCore

/// Index rows and the SQL that queries them: the plan of ``SQLiteTransaction``'s queries (each
/// field condition a `record_name IN (SELECT … FROM record_index …)`, sort keys the field's
/// smallest value, a keyset continuation), over index values stored as sort keys
/// (``IndexValue/sortKey``).
extension PostgresTransaction {
    func replaceIndexEntries(zoneRowID: Int64, recordType: String, recordName: String, entries: [IndexEntry]) async throws {
        try await execute("DELETE FROM record_index WHERE zone_id = \(zoneRowID) AND record_name = \(recordName)")
        guard !entries.isEmpty else { return }
        try await execute("""
            INSERT INTO record_index (zone_id, record_type, field_name, value, number, is_real, record_name)
            SELECT \(zoneRowID), \(recordType), e.field_name, e.value, e.number, e.is_real, \(recordName)
            FROM unnest(\(entries.map(\.field)), \(entries.map { ByteBuffer(bytes: $0.value.sortKey) }),
                        \(entries.map { $0.value.number ?? .nan }), \(entries.map(\.value.isReal))) AS e(field_name, value, number, is_real)
            ON CONFLICT DO NOTHING
            """)
    }

    func liveRecords(containerID: String, environment: ContainerEnvironment, recordType: String) async throws -> [StoredRecord] {
        try await fetchRecords("""
            SELECT \(unescaped: Self.recordColumns) FROM records WHERE record_type = \(recordType) AND NOT deleted AND zone_id IN (
                SELECT zones.id FROM zones JOIN databases ON databases.id = zones.database_id
                WHERE databases.container_id = \(containerID) AND databases.environment = \(environment.rawValue) AND NOT zones.deleted)
            """)
    }

    func query(_ query: RecordQuery) async throws -> QueryPage {
        var sql = QueryText()
        let oneZone = query.zoneRowIDs.count == 1
        let zones = sql.bind(query.zoneRowIDs)
        let zoneTest = "zone_id = ANY(\(zones))"
        let key = oneZone ? "record_name" : "(zone_id, record_name)"
        let indexKey = oneZone ? "record_name" : "zone_id, record_name"
        let recordType = sql.bind(query.recordType)
        var clauses = [zoneTest, "record_type = \(recordType)", "NOT deleted"]
        for condition in query.conditions {
            switch condition.source {
            case .field(let field):
                let test = Self.test(condition.test, on: "value", &sql)
                var all = ""
                if case .containsAll(let required) = condition.test {
                    all = " GROUP BY \(indexKey) HAVING COUNT(DISTINCT value) = \(Set(required).count)"
                }
                clauses.append("\(key) \(condition.negated ? "NOT IN" : "IN") (SELECT \(indexKey) FROM record_index "
                               + "WHERE \(zoneTest) AND record_type = \(recordType) AND field_name = \(sql.bind(field)) AND \(test)\(all))")
            case .column(let column):
                let test = Self.test(condition.test, on: column.rawValue, &sql)
                clauses.append(condition.negated ? "NOT (\(test))" : test)
            case .distance(let field, let latitude, let longitude):
                // Only "within": a latitude band through the index, then the exact distance.
                guard case .less(.real(let meters), _) = condition.test else {
                    throw CloudKitError(.internalError, "a distance condition must bound the distance from above")
                }
                let band = meters / 111_000
                clauses.append("""
                    \(key) IN (SELECT \(oneZone ? "a.record_name" : "a.zone_id, a.record_name") FROM record_index a JOIN record_index b
                    ON b.zone_id = a.zone_id AND b.record_type = a.record_type AND b.record_name = a.record_name
                    AND b.field_name = \(sql.bind(QueryIndexing.longitudeKey(field)))
                    WHERE a.\(zoneTest) AND a.record_type = \(recordType) AND a.field_name = \(sql.bind(QueryIndexing.latitudeKey(field)))
                    AND a.value BETWEEN \(sql.bind(IndexValue.real(latitude - band))) AND \(sql.bind(IndexValue.real(latitude + band)))
                    AND stratus_distance(a.number, b.number, \(sql.bind(latitude)), \(sql.bind(longitude))) <= \(sql.bind(meters)))
                    """)
            }
        }
        // Each sort key selects its value's key bytes and whether it is a real (distances: the meters).
        var sortExpressions: [String] = []
        var sortKinds: [String] = []
        for sortKey in query.sort {
            switch sortKey.source {
            case .column(let column):
                sortExpressions.append(column.rawValue)
                sortKinds.append("NULL::boolean")
            case .distance(let field, let latitude, let longitude):
                sortExpressions.append("""
                    COALESCE((SELECT stratus_distance(a.number, b.number, \(sql.bind(latitude)), \(sql.bind(longitude))) FROM record_index a \
                    JOIN record_index b ON b.zone_id = a.zone_id AND b.record_type = a.record_type AND b.record_name = a.record_name \
                    AND b.field_name = \(sql.bind(QueryIndexing.longitudeKey(field))) WHERE a.zone_id = records.zone_id \
                    AND a.record_type = records.record_type AND a.record_name = records.record_name \
                    AND a.field_name = \(sql.bind(QueryIndexing.latitudeKey(field)))), 'Infinity'::float8)
                    """)
                sortKinds.append("NULL::boolean")
            case .field(let field):
                let name = sql.bind(field)
                let smallest = "FROM record_index i WHERE i.zone_id = records.zone_id AND i.record_type = records.record_type "
                    + "AND i.field_name = \(name) AND i.record_name = records.record_name"
                sortExpressions.append("COALESCE((SELECT value \(smallest) ORDER BY value LIMIT 1), '\\x02'::bytea)")
                sortKinds.append("(SELECT is_real \(smallest) ORDER BY value LIMIT 1)")
            }
        }
        if let after = query.after, after.values.count == query.sort.count {
            clauses.append(query.continuation(after: after, sortExpressions: sortExpressions,
                                              bindSortValue: { Self.bindSortValue($1, for: query.sort[$0], &sql) },
                                              bindName: { sql.bind($0) }, bindZone: { sql.bind($0) }))
        }
        let order = zip(sortExpressions, query.sort).map { "\($0) \($1.ascending ? "ASC" : "DESC")" }
            + (oneZone ? ["record_name ASC"] : ["record_name ASC", "zone_id ASC"])
        let selected = ([Self.recordColumns] + zip(sortExpressions, sortKinds).map { "\($0), \($1)" }).joined(separator: ", ")
        sql.text = "SELECT \(selected) FROM records WHERE \(clauses.joined(separator: " AND ")) ORDER BY \(order.joined(separator: ", ")) "
            + "LIMIT \(sql.bind(Int64(query.limit)))"

        var page = QueryPage(rows: [])
        var bytes = 0
        for try await row in try await self.query(sql.query) {
            let cells = row.makeRandomAccess()
            let record = try Self.record(cells)
            var sortValues: [IndexValue] = []
            for (index, sortKey) in query.sort.enumerated() {
                sortValues.append(try Self.sortValue(cells, at: 16 + 2 * index, for: sortKey))
            }
            page.rows.append((record, RecordQuery.Position(values: sortValues, recordName: record.recordName, zoneRowID: record.zoneRowID)))
            bytes += record.fieldsJSON.count
            if bytes > query.maxBytes && page.rows.count >= 2 {
                page.cutShort = true
                break
            }
        }
        return page
    }

    /// A test as SQL on `column` (`value`, an index row's key, or a system column).
    private static func test(_ test: RecordQuery.Test, on column: String, _ sql: inout QueryText) -> String {
        func bind(_ value: IndexValue) -> String { column == "value" ? sql.bind(value) : sql.bindColumnValue(value) }
        switch test {
        case .equals(let value): return "\(column) = \(bind(value))"
        case .less(let value, let orEqual): return "\(column) \(orEqual ? "<=" : "<") \(bind(value))"
        case .greater(let value, let orEqual): return "\(column) \(orEqual ? ">=" : ">") \(bind(value))"
        case .oneOf(let values), .containsAll(let values):
            var placeholders: [String] = []
            for value in values.isEmpty ? [.missing] : values { placeholders.append(bind(value)) }
            return "\(column) IN (\(placeholders.joined(separator: ", ")))"
        case .prefix(let prefix):
            return "(\(column) >= \(bind(.text(prefix))) AND \(column) < \(bind(.text(prefix + "\u{10FFFF}"))))"
        }
    }

    /// A continuation's sort value bound as the sort expression compares it.
    private static func bindSortValue(_ value: IndexValue, for key: RecordQuery.SortKey, _ sql: inout QueryText) -> String {
        switch key.source {
        case .field: sql.bind(value)
        case .column, .distance: sql.bindColumnValue(value)
        }
    }

    /// The sort value a row carries at `column` (followed by its kind column).
    private static func sortValue(_ cells: PostgresRandomAccessRow, at column: Int, for key: RecordQuery.SortKey) throws -> IndexValue {
        switch key.source {
        case .field:
            let bytes = try cells[column].decode(ByteBuffer.self)
            return IndexValue(sortKey: Array(bytes.readableBytesView), isReal: try cells[column + 1].decode(Bool?.self) ?? false) ?? .missing
        case .distance:
            let meters = try cells[column].decode(Double.self)
            return meters.isInfinite ? .missing : .real(meters)
        case .column(let systemColumn):
            switch systemColumn {
            case .recordName, .createdBy, .modifiedBy: return .text(try cells[column].decode(String.self))
            case .createdAt, .modifiedAt: return .integer(try cells[column].decode(Int64.self))
            }
        }
    }
}

/// SQL text being built with its bound parameters (`$1`, `$2`, …).
struct QueryText {
    var text = ""
    private var binds = PostgresBindings()

    var query: PostgresQuery { PostgresQuery(unsafeSQL: text, binds: binds) }

    /// Binds a value and returns its placeholder.
    mutating func bind(_ value: some PostgresDynamicTypeEncodable) -> String {
        binds.append(value)
        return "$\(binds.count)"
    }

    /// An index value as a sort key (compared with `record_index.value`).
    mutating func bind(_ value: IndexValue) -> String {
        bind(ByteBuffer(bytes: value.sortKey)) + "::bytea"
    }

    /// An index value as a system column or a distance compares it: text or a number.
    mutating func bindColumnValue(_ value: IndexValue) -> String {
        switch value {
        case .integer(let integer): bind(integer)
        case .real(let real): bind(real)
        case .text(let text): bind(text)
        case .missing: "NULL"
        }
    }
}
