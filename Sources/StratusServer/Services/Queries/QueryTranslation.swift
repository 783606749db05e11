import StratusCore

/// Turns CloudKit's filter and sort dictionaries into index conditions, checking that each
/// comparator fits its field's type and that the field is indexed for it.
enum QueryTranslation {
    /// The system fields a query may name, by their schema names and their `systemFieldName`s.
    private static let systemFields: [String: (RecordQuery.SystemColumn, FieldType)] = [
        "___recordID": (.recordName, .scalar(.string)), "recordName": (.recordName, .scalar(.string)),
        "___createTime": (.createdAt, .scalar(.timestamp)), "createdTimestamp": (.createdAt, .scalar(.timestamp)),
        "___modTime": (.modifiedAt, .scalar(.timestamp)), "modifiedTimestamp": (.modifiedAt, .scalar(.timestamp)),
        "___createdBy": (.createdBy, .scalar(.string)), "createdUserRecordName": (.createdBy, .scalar(.string)),
        "___modifiedBy": (.modifiedBy, .scalar(.string)), "modifiedUserRecordName": (.modifiedBy, .scalar(.string)),
    ]

    static func conditions(for filter: QueryFilter, in schema: RecordTypeSchema) throws(CloudKitError) -> [RecordQuery.Condition] {
        if filter.comparator == .containsAllTokens || filter.comparator == .containsAnyTokens {
            return try tokenConditions(for: filter, in: schema)
        }
        let (source, type, name) = try resolve(filter.fieldName, filter.systemFieldName, in: schema, needing: .queryable)
        guard let value = filter.fieldValue.value else { throw .badRequest("filter on '\(name)' needs a fieldValue") }
        let comparator = filter.comparator
        func mismatch() -> CloudKitError {
            .badRequest("\(comparator.rawValue) does not apply to field '\(name)' of type \(type) with a \(value.type) value")
        }
        func scalar(_ expected: ScalarType) throws(CloudKitError) -> IndexValue {
            let compared = if case .column = source { systemValue(value) } else { value }
            guard let coerced = SchemaCheck.coerce(compared, to: .scalar(expected)), let indexed = QueryIndexing.values(coerced).first else {
                throw mismatch()
            }
            return indexed
        }
        func list(_ element: ScalarType) throws(CloudKitError) -> [IndexValue] {
            guard case .list = value, let coerced = SchemaCheck.coerce(value, to: .list(element)) else { throw mismatch() }
            return QueryIndexing.values(coerced)
        }
        func prefix() throws(CloudKitError) -> String {
            guard case .string(let text) = value else { throw mismatch() }
            return text
        }
        func condition(_ test: RecordQuery.Test, negated: Bool = false) -> [RecordQuery.Condition] {
            [RecordQuery.Condition(source: source, test: test, negated: negated)]
        }

        switch (comparator, type) {
        case (.equals, .scalar(let element)), (.notEquals, .scalar(let element)):
            return condition(.equals(try scalar(element)), negated: comparator == .notEquals)
        case (.lessThan, .scalar(let element)), (.lessThanOrEquals, .scalar(let element)),
             (.greaterThan, .scalar(let element)), (.greaterThanOrEquals, .scalar(let element)):
            guard [.string, .int64, .double, .timestamp].contains(element) else { throw mismatch() }
            let bound = try scalar(element)
            switch comparator {
            case .lessThan: return condition(.less(bound, orEqual: false))
            case .lessThanOrEquals: return condition(.less(bound, orEqual: true))
            case .greaterThan: return condition(.greater(bound, orEqual: false))
            default: return condition(.greater(bound, orEqual: true))
            }
        case (.in, .scalar(let element)), (.notIn, .scalar(let element)):
            return condition(.oneOf(try list(element)), negated: comparator == .notIn)
        case (.beginsWith, .scalar(.string)), (.notBeginsWith, .scalar(.string)):
            return condition(.prefix(try prefix()), negated: comparator == .notBeginsWith)
        case (.listContains, .list(let element)), (.notListContains, .list(let element)):
            return condition(.equals(try scalar(element)), negated: comparator == .notListContains)
        case (.listContainsAny, .list(let element)), (.notListContainsAny, .list(let element)):
            return condition(.oneOf(try list(element)), negated: comparator == .notListContainsAny)
        case (.listContainsAll, .list(let element)), (.notListContainsAll, .list(let element)):
            return condition(.containsAll(try list(element)), negated: comparator == .notListContainsAll)
        case (.listMemberBeginsWith, .list(.string)), (.notListMemberBeginsWith, .list(.string)):
            return condition(.prefix(try prefix()), negated: comparator == .notListMemberBeginsWith)
        case (.near, .scalar(.location)):
            guard case .location(let point) = value, case .field(let field) = source else { throw mismatch() }
            guard let meters = filter.distance, meters >= 0, meters.isFinite else { throw .badRequest("NEAR needs a distance in meters") }
            return [RecordQuery.Condition(source: .distance(field: field, latitude: point.latitude, longitude: point.longitude),
                                          test: .less(.real(meters), orEqual: true), negated: false)]
        default:
            throw mismatch()
        }
    }

    /// `CONTAINS_ALL_TOKENS` / `CONTAINS_ANY_TOKENS` on a `SEARCHABLE` string field: every (or
    /// any) word of the value among the field's words, ignoring case.
    private static func tokenConditions(for filter: QueryFilter, in schema: RecordTypeSchema) throws(CloudKitError) -> [RecordQuery.Condition] {
        let (_, type, name) = try resolve(filter.fieldName, nil, in: schema, needing: .searchable)
        guard type == .scalar(.string), case .string(let text)? = filter.fieldValue.value else {
            throw .badRequest("\(filter.comparator.rawValue) applies to STRING fields with a STRING value; '\(name)' is \(type)")
        }
        let words = Array(Set(QueryIndexing.tokens(text))).map(IndexValue.text)
        guard !words.isEmpty else { throw .badRequest("\(filter.comparator.rawValue) needs at least one word") }
        let test: RecordQuery.Test = filter.comparator == .containsAllTokens ? .containsAll(words) : .oneOf(words)
        return [RecordQuery.Condition(source: .field(QueryIndexing.tokenKey(name)), test: test, negated: false)]
    }

    static func sortKey(for sort: QuerySort, in schema: RecordTypeSchema) throws(CloudKitError) -> RecordQuery.SortKey {
        let (source, type, name) = try resolve(sort.fieldName, sort.systemFieldName, in: schema, needing: .sortable)
        if let relative = sort.relativeLocation {
            guard type == .scalar(.location), case .location(let point)? = relative.value, case .field(let field) = source else {
                throw .badRequest("relativeLocation sorts a LOCATION field by distance from a LOCATION value")
            }
            return RecordQuery.SortKey(source: .distance(field: field, latitude: point.latitude, longitude: point.longitude),
                                       ascending: sort.ascending ?? true)
        }
        switch type {
        case .scalar(.string), .scalar(.int64), .scalar(.double), .scalar(.timestamp), .scalar(.reference): break
        default: throw .badRequest("field '\(name)' of type \(type) cannot be sorted")
        }
        return RecordQuery.SortKey(source: source, ascending: sort.ascending ?? true)
    }

    /// The source, type and name of a filter's or sort's field; a record field must exist in the
    /// schema with the index the use needs.
    private static func resolve(_ fieldName: String?, _ systemFieldName: String?, in schema: RecordTypeSchema,
                                needing index: FieldIndexes) throws(CloudKitError) -> (RecordQuery.Source, FieldType, String) {
        if let name = systemFieldName ?? fieldName.flatMap({ systemFields[$0] == nil ? nil : $0 }) {
            guard let (column, type) = systemFields[name] else { throw .badRequest("unknown systemFieldName '\(name)'") }
            return (.column(column), type, name)
        }
        guard let name = fieldName else { throw .badRequest("a filter or sort needs a fieldName or systemFieldName") }
        guard let field = schema.fields[name] else {
            throw .badRequest("record type '\(schema.name)' has no field '\(name)'")
        }
        guard !field.isEncrypted else {
            throw .badRequest("field '\(schema.name).\(name)' is \(field.typeName): an encrypted field cannot be filtered or sorted (the server cannot read it)")
        }
        guard field.indexes.contains(index) else {
            let flag = index == .sortable ? "SORTABLE" : index == .searchable ? "SEARCHABLE" : "QUERYABLE"
            throw .badRequest("field '\(schema.name).\(name)' is not marked \(flag)")
        }
        return (.field(name), field.type, name)
    }

    /// Reference values (for `createdUserRecordName` and reference fields) compare by record name.
    private static func systemValue(_ value: FieldValue) -> FieldValue {
        if case .reference(let reference) = value { return .string(reference.recordName) }
        return value
    }
}
