import StratusCore

/// The record-query plan, written once.
///
/// Each condition on a field becomes `record_name IN (SELECT record_name FROM record_index …)`
/// (`(zone_id, record_name) IN …` across zones), so the index drives the query through the
/// records table's primary key and the zone is not scanned. A sort key selects the field's
/// smallest value (a sentinel that sorts after every value stands for a missing one) and, where
/// values are stored as sort keys, its kind; rows come in the order of those columns, then the
/// record's name and zone, and the continuation is a keyset comparison on the same.
///
/// The drivers differ only in how `record_index.value` holds a value
/// (``SQLDialect/storesIndexSortKeys``): typed in SQLite, as ``IndexValue/sortKey`` bytes in
/// PostgreSQL.
extension QueryIndexStore where Self: SQLDatabase {
    package func replaceIndexEntries(zoneRowID: Int64, recordType: String, recordName: String, entries: [IndexEntry]) async throws {
        try await run("DELETE FROM record_index WHERE zone_id = \(zoneRowID) AND record_name = \(recordName)")
        guard !entries.isEmpty else { return }
        let sortKeys = dialect.storesIndexSortKeys
        let rows = entries.map { entry -> SQLStatement in
            let number: SQLStatement = sortKeys ? ", \(entry.value.number), \(entry.value.isReal)" : ""
            return "(\(zoneRowID), \(recordType), \(entry.field), \(dialect.indexValue(entry.value))\(number), \(recordName))"
        }
        try await run("""
            INSERT INTO record_index (zone_id, record_type, field_name, value\(unescaped: sortKeys ? ", number, is_real" : ""), record_name)
            VALUES \(SQLStatement(joining: rows, separator: ", ")) ON CONFLICT DO NOTHING
            """)
    }

    package func query(_ query: RecordQuery) async throws -> QueryPage {
        let plan = QueryPlan(query: query, dialect: dialect)
        var clauses = [plan.zoneTest(""), "record_type = \(query.recordType)", "deleted = \(literal: false)"]
        for condition in query.conditions {
            clauses.append(try plan.clause(condition))
        }
        let sortColumns = query.sort.map(plan.sortColumns)
        if let after = query.after, after.values.count == query.sort.count {
            clauses.append(plan.continuation(after: after, sortExpressions: sortColumns.map(\.value)))
        }
        // Rows are ordered by the selected sort columns' positions, so each sort expression runs once.
        var order: [String] = query.sort.enumerated().map { index, key in
            "\(RecordColumns.count + 1 + 2 * index) \(key.ascending ? "ASC" : "DESC")"
        }
        order += plan.oneZone ? ["record_name ASC"] : ["record_name ASC", "zone_id ASC"]
        let selected = SQLStatement(joining: sortColumns.map { ", \($0.value), \($0.kind)" }, separator: "")
        let rows = try await fetchRecords("""
            SELECT \(unescaped: RecordColumns.names)\(selected) FROM record_rows WHERE \(SQLStatement(joining: clauses, separator: " AND "))
            ORDER BY \(unescaped: order.joined(separator: ", ")) LIMIT \(query.limit)
            """, extraColumns: 2 * query.sort.count, maxBytes: query.maxBytes)
        return QueryPage(rows: zip(rows.records, rows.extra).map { record, extra -> (StoredRecord, RecordQuery.Position) in
            let values = stride(from: 0, to: extra.count, by: 2).map { IndexValue(selected: extra[$0], kind: extra[$0 + 1]) }
            return (record, RecordQuery.Position(values: values, recordName: record.recordName, zoneRowID: record.zoneRowID))
        }, cutShort: rows.cutShort)
    }
}

/// The pieces of one query's statement.
private struct QueryPlan {
    let query: RecordQuery
    let dialect: SQLDialect

    var oneZone: Bool { query.zoneRowIDs.count == 1 }
    /// The key a field condition's subquery answers.
    var key: String { oneZone ? "record_name" : "(zone_id, record_name)" }
    /// The columns of `record_index` that key is.
    var indexKey: String { oneZone ? "record_name" : "zone_id, record_name" }
    /// The index column that holds a value's number, for distances.
    var numberColumn: String { dialect.storesIndexSortKeys ? "number" : "value" }

    /// The zone condition on a table (`prefix` is its alias and a dot, or nothing). One zone keeps
    /// the single-zone plan: equality on the zone, index rows keyed by name.
    func zoneTest(_ prefix: String) -> SQLStatement {
        if let zone = query.zoneRowIDs.first, oneZone { return "\(unescaped: prefix)zone_id = \(zone)" }
        return "\(unescaped: prefix)zone_id IN (\(list: query.zoneRowIDs.isEmpty ? [-1] : query.zoneRowIDs))"
    }

    /// A value compared with a system column or a distance in meters.
    func columnValue(_ value: IndexValue) -> SQLStatement {
        switch value {
        case .integer(let integer): "\(integer)"
        case .real(let real): "\(real)"
        case .text(let text): "\(text)"
        case .missing: "NULL"
        }
    }

    func clause(_ condition: RecordQuery.Condition) throws -> SQLStatement {
        switch condition.source {
        case .field(let field):
            var all: SQLStatement = ""
            if case .containsAll(let required) = condition.test {
                all = " GROUP BY \(unescaped: indexKey) HAVING COUNT(DISTINCT value) = \(Set(required).count)"
            }
            return """
                \(unescaped: key) \(unescaped: condition.negated ? "NOT IN" : "IN") (SELECT \(unescaped: indexKey) FROM record_index
                WHERE \(zoneTest("")) AND record_type = \(query.recordType) AND field_name = \(field)
                AND \(test(condition.test, on: "value", bind: dialect.indexValue))\(all))
                """
        case .column(let column):
            let test = test(condition.test, on: column.expression, bind: columnValue)
            return condition.negated ? "NOT (\(test))" : test
        case .distance(let field, let latitude, let longitude):
            // Only "within": a latitude band through the index, then the exact distance.
            guard case .less(.real(let meters), _) = condition.test else {
                throw CloudKitError(.internalError, "a distance condition must bound the distance from above")
            }
            let band = meters / 111_000
            return """
                \(unescaped: key) IN (SELECT \(unescaped: oneZone ? "a.record_name" : "a.zone_id, a.record_name") FROM record_index a
                JOIN record_index b ON b.zone_id = a.zone_id AND b.record_type = a.record_type AND b.record_name = a.record_name
                AND b.field_name = \(QueryIndexing.longitudeKey(field))
                WHERE \(zoneTest("a.")) AND a.record_type = \(query.recordType) AND a.field_name = \(QueryIndexing.latitudeKey(field))
                AND a.value BETWEEN \(dialect.indexValue(.real(latitude - band))) AND \(dialect.indexValue(.real(latitude + band)))
                AND stratus_distance(a.\(unescaped: numberColumn), b.\(unescaped: numberColumn), \(latitude), \(longitude)) <= \(meters))
                """
        }
    }

    /// A test as SQL on `column`, its values bound by `bind`.
    private func test(_ test: RecordQuery.Test, on column: String, bind: (IndexValue) -> SQLStatement) -> SQLStatement {
        switch test {
        case .equals(let value): return "\(unescaped: column) = \(bind(value))"
        case .less(let value, let orEqual): return "\(unescaped: column) \(unescaped: orEqual ? "<=" : "<") \(bind(value))"
        case .greater(let value, let orEqual): return "\(unescaped: column) \(unescaped: orEqual ? ">=" : ">") \(bind(value))"
        case .oneOf(let values), .containsAll(let values):
            // No value to be among: nothing matches (and, negated, everything).
            guard !values.isEmpty else { return "\(literal: false)" }
            return "\(unescaped: column) IN (\(SQLStatement(joining: values.map(bind), separator: ", ")))"
        case .prefix(let prefix):
            return "(\(unescaped: column) >= \(bind(.text(prefix))) AND \(unescaped: column) < \(bind(.text(prefix + "\u{10FFFF}"))))"
        }
    }

    /// A sort key's two selected columns: its value, and the value's kind where values are sort keys.
    func sortColumns(_ sortKey: RecordQuery.SortKey) -> (value: SQLStatement, kind: SQLStatement) {
        switch sortKey.source {
        case .column(let column):
            return ("\(unescaped: column.expression)", "NULL")
        case .distance(let field, let latitude, let longitude):
            // A record without the location sorts last, at an infinite distance.
            return ("""
                COALESCE((SELECT stratus_distance(a.\(unescaped: numberColumn), b.\(unescaped: numberColumn), \(latitude), \(longitude))
                FROM record_index a JOIN record_index b ON b.zone_id = a.zone_id AND b.record_type = a.record_type
                AND b.record_name = a.record_name AND b.field_name = \(QueryIndexing.longitudeKey(field))
                WHERE a.zone_id = record_rows.zone_id AND a.record_type = record_rows.record_type AND a.record_name = record_rows.record_name
                AND a.field_name = \(QueryIndexing.latitudeKey(field))), \(Double.infinity))
                """, "NULL")
        case .field(let field):
            let smallest: SQLStatement = """
                FROM record_index i WHERE i.zone_id = record_rows.zone_id AND i.record_type = record_rows.record_type
                AND i.field_name = \(field) AND i.record_name = record_rows.record_name ORDER BY value LIMIT 1
                """
            return ("COALESCE((SELECT value \(smallest)), \(dialect.indexValue(.missing)))",
                    dialect.storesIndexSortKeys ? "(SELECT is_real \(smallest))" : "NULL")
        }
    }

    /// The keyset condition "strictly after `after`" in the query's order: the row's
    /// `(k1, …, kn, record_name, zone_id)` past the last row's, each sort key in its own direction.
    func continuation(after: RecordQuery.Position, sortExpressions: [SQLStatement]) -> SQLStatement {
        func value(_ index: Int) -> SQLStatement {
            switch query.sort[index].source {
            case .field: dialect.indexValue(after.values[index])
            case .column: columnValue(after.values[index])
            case .distance: "\(after.values[index].number ?? .infinity)"
            }
        }
        var alternatives: [SQLStatement] = []
        for position in 0...query.sort.count {
            var parts: [SQLStatement] = (0..<position).map { earlier -> SQLStatement in "\(sortExpressions[earlier]) = \(value(earlier))" }
            if position < query.sort.count {
                parts.append("\(sortExpressions[position]) \(unescaped: query.sort[position].ascending ? ">" : "<") \(value(position))")
            } else if oneZone {
                parts.append("record_name > \(after.recordName)")
            } else {
                parts.append("(record_name > \(after.recordName) OR (record_name = \(after.recordName) AND zone_id > \(after.zoneRowID)))")
            }
            alternatives.append("(\(SQLStatement(joining: parts, separator: " AND ")))")
        }
        return "(\(SQLStatement(joining: alternatives, separator: " OR ")))"
    }
}

extension RecordQuery.SystemColumn {
    /// The column as SQL over `record_rows`: a creator or modifier is its actor's user record name.
    var expression: String {
        switch self {
        case .createdBy, .modifiedBy: "(SELECT user_record_name FROM record_actors WHERE id = record_rows.\(rawValue))"
        case .recordName, .createdAt, .modifiedAt: rawValue
        }
    }
}

extension SQLDialect {
    /// A value as `record_index.value` holds it (see ``storesIndexSortKeys``).
    func indexValue(_ value: IndexValue) -> SQLStatement {
        if storesIndexSortKeys { return "\(value.sortKey)::bytea" }
        switch value {
        case .integer(let integer): return "\(integer)"
        case .real(let real): return "\(real)"
        case .text(let text): return "\(text)"
        case .missing: return "\([UInt8]())"
        }
    }
}

extension IndexValue {
    /// A sort value as a query selected it: typed, or a sort key beside its kind; a sentinel
    /// (an empty or missing key, an infinite distance) is `.missing`.
    init(selected value: SQLValue, kind: SQLValue) {
        switch value {
        case .integer(let integer): self = .integer(integer)
        case .real(let real): self = real.isInfinite ? .missing : .real(real)
        case .text(let text): self = .text(text)
        case .blob(let key): self = IndexValue(sortKey: key, isReal: kind == .boolean(true)) ?? .missing
        case .null, .boolean: self = .missing
        }
    }
}
