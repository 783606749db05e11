import StratusCore

/// A value as index rows hold it; SQLite orders integers and reals together, then text.
package enum IndexValue: Sendable, Hashable {
    case integer(Int64)
    case real(Double)
    case text(String)
    /// Sorts after every value: stands for "no value" in sort keys.
    case missing
}

/// One index row's content: a field and one of its values (a list field has one per element).
package struct IndexEntry: Sendable, Hashable {
    package var field: String
    package var value: IndexValue
}

/// A query as storage runs it: conditions over index rows or system columns, sort keys, and the
/// keyset of the last row already returned.
package struct RecordQuery: Sendable {
    /// What a condition or sort key reads.
    package enum Source: Sendable, Hashable {
        /// A field's index rows.
        case field(String)
        /// A system column of the records table.
        case column(SystemColumn)
        /// The distance in meters from a point to a LOCATION field's value.
        case distance(field: String, latitude: Double, longitude: Double)
    }

    /// The records table's queryable system columns.
    package enum SystemColumn: String, Sendable {
        case recordName = "record_name", createdAt = "created_at", modifiedAt = "modified_at"
        case createdBy = "created_by", modifiedBy = "modified_by"
    }

    /// How a condition compares.
    package enum Test: Sendable, Hashable {
        case equals(IndexValue)
        case less(IndexValue, orEqual: Bool)
        case greater(IndexValue, orEqual: Bool)
        case oneOf([IndexValue])
        case prefix(String)
        /// Every one of the values is present (list fields).
        case containsAll([IndexValue])
    }

    /// Matches records with a value passing the test (or, negated, records with none).
    package struct Condition: Sendable, Hashable {
        package var source: Source
        package var test: Test
        package var negated: Bool
    }

    package struct SortKey: Sendable, Hashable {
        package var source: Source
        package var ascending: Bool
    }

    /// The position of a row in the query's order: its sort values, then its name and zone.
    package struct Position: Sendable {
        package var values: [IndexValue]
        package var recordName: String
        package var zoneRowID: Int64
    }

    /// The zones searched: one, or every zone of a database (a `zoneWide` query).
    package var zoneRowIDs: [Int64]
    package var recordType: String
    package var conditions: [Condition] = []
    package var sort: [SortKey] = []
    /// The last row returned, to continue after it.
    package var after: Position?
    package var limit: Int
    /// Stop once the rows' fields add up to more than this (with at least two rows read).
    package var maxBytes = Int.max

    package init(zoneRowIDs: [Int64], recordType: String, limit: Int) {
        self.zoneRowIDs = zoneRowIDs
        self.recordType = recordType
        self.limit = limit
    }
}

/// A page of query results: rows with the sort values of each (for continuation markers).
package struct QueryPage: Sendable {
    package var rows: [(record: StoredRecord, position: RecordQuery.Position)]
    /// Whether reading stopped at `maxBytes` before `limit` rows or the last match.
    package var cutShort = false
}

extension RecordQuery {
    /// The keyset condition "strictly after `after`" in the query's order, as SQL: the row's
    /// `(k1, …, kn, record_name, zone_id)` past the last row's, each sort key in its own
    /// direction. Both backends build it here; each binds values its own way, and the binding
    /// closures are called in the order their placeholders appear in the text.
    ///
    /// - Parameters:
    ///   - sortExpressions: the SQL of each sort key, in ``sort``'s order.
    ///   - bindSortValue: the placeholder of the last row's value for the sort key at an index.
    ///   - bindName: the placeholder of a record name.
    ///   - bindZone: the placeholder of a zone's row id.
    func continuation(after: Position, sortExpressions: [String], bindSortValue: (Int, IndexValue) -> String,
                      bindName: (String) -> String, bindZone: (Int64) -> String) -> String {
        var alternatives: [String] = []
        for position in 0...sort.count {
            var parts: [String] = []
            for earlier in 0..<position {
                parts.append("\(sortExpressions[earlier]) = \(bindSortValue(earlier, after.values[earlier]))")
            }
            if position < sort.count {
                let value = bindSortValue(position, after.values[position])
                parts.append("\(sortExpressions[position]) \(sort[position].ascending ? ">" : "<") \(value)")
            } else if zoneRowIDs.count == 1 {
                parts.append("record_name > \(bindName(after.recordName))")
            } else {
                let first = bindName(after.recordName)
                let second = bindName(after.recordName)
                parts.append("(record_name > \(first) OR (record_name = \(second) AND zone_id > \(bindZone(after.zoneRowID))))")
            }
            alternatives.append("(" + parts.joined(separator: " AND ") + ")")
        }
        return "(" + alternatives.joined(separator: " OR ") + ")"
    }
}
