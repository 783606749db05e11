import StratusCore

/// Decides in memory whether a changed record matches a query subscription's filters, with the
/// comparators `records/query` offers.
enum SubscriptionMatcher {
    static func matches(_ filters: [QueryFilter], recordName: String, fields: [String: FieldValue]) -> Bool {
        filters.allSatisfy { filter in
            let value: FieldValue? = if filter.systemFieldName == "___recordID" || filter.fieldName == "___recordID" {
                .string(recordName)
            } else {
                filter.fieldName.flatMap { fields[$0] }
            }
            return matches(filter, value)
        }
    }

    private static func matches(_ filter: QueryFilter, _ value: FieldValue?) -> Bool {
        let wanted = filter.fieldValue.value
        let have = value.map(QueryIndexing.values) ?? []
        let wantedValues = wanted.map(comparable) ?? []
        func compare(_ test: (Double, Double) -> Bool, _ textTest: (String, String) -> Bool) -> Bool {
            guard let first = wantedValues.first else { return false }
            return have.contains { order($0, first, test, textTest) }
        }
        switch filter.comparator {
        case .equals: return !wantedValues.isEmpty && have.contains { wantedValues.contains($0) }
        case .notEquals: return !have.contains { wantedValues.contains($0) }
        case .lessThan: return compare(<, <)
        case .lessThanOrEquals: return compare(<=, <=)
        case .greaterThan: return compare(>, >)
        case .greaterThanOrEquals: return compare(>=, >=)
        case .in, .listContainsAny: return have.contains { wantedValues.contains($0) }
        case .notIn, .notListContainsAny: return !have.contains { wantedValues.contains($0) }
        case .listContains: return have.contains { wantedValues.contains($0) }
        case .notListContains: return !have.contains { wantedValues.contains($0) }
        case .listContainsAll: return wantedValues.allSatisfy(have.contains)
        case .notListContainsAll: return !wantedValues.allSatisfy(have.contains)
        case .beginsWith, .listMemberBeginsWith: return have.contains { prefixed($0, wanted) }
        case .notBeginsWith, .notListMemberBeginsWith: return !have.contains { prefixed($0, wanted) }
        case .containsAllTokens, .containsAnyTokens:
            guard case .string(let text)? = value, case .string(let query)? = wanted else { return false }
            let words = Set(QueryIndexing.tokens(text))
            let asked = QueryIndexing.tokens(query)
            return filter.comparator == .containsAllTokens ? asked.allSatisfy(words.contains) : asked.contains(where: words.contains)
        case .near:
            guard case .location(let here)? = value, case .location(let center)? = wanted, let distance = filter.distance else { return false }
            return QueryIndexing.greatCircleMeters(here.latitude, here.longitude, center.latitude, center.longitude) <= distance
        }
    }

    /// A filter value as index values; a reference compares by record name, a list by its elements.
    private static func comparable(_ value: FieldValue) -> [IndexValue] {
        QueryIndexing.values(value).map { value in
            if case .real(let number) = value, number.rounded() == number, let exact = Int64(exactly: number) { return .integer(exact) }
            return value
        }
    }

    private static func order(_ left: IndexValue, _ right: IndexValue, _ test: (Double, Double) -> Bool,
                              _ textTest: (String, String) -> Bool) -> Bool {
        switch (left, right) {
        case (.text(let a), .text(let b)): textTest(a, b)
        case (.integer(let a), .integer(let b)): test(Double(a), Double(b))
        case (.integer(let a), .real(let b)): test(Double(a), b)
        case (.real(let a), .integer(let b)): test(a, Double(b))
        case (.real(let a), .real(let b)): test(a, b)
        default: false
        }
    }

    private static func prefixed(_ value: IndexValue, _ wanted: FieldValue?) -> Bool {
        guard case .text(let text) = value, case .string(let prefix)? = wanted else { return false }
        return text.hasPrefix(prefix)
    }
}
