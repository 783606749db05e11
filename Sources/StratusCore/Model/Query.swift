import Foundation

/// A `records/query` comparator, spelled as CloudKit spells it.
public enum QueryComparator: String, Codable, Sendable, CaseIterable {
    case equals = "EQUALS", notEquals = "NOT_EQUALS"
    case lessThan = "LESS_THAN", lessThanOrEquals = "LESS_THAN_OR_EQUALS"
    case greaterThan = "GREATER_THAN", greaterThanOrEquals = "GREATER_THAN_OR_EQUALS"
    case `in` = "IN", notIn = "NOT_IN"
    case beginsWith = "BEGINS_WITH", notBeginsWith = "NOT_BEGINS_WITH"
    case containsAllTokens = "CONTAINS_ALL_TOKENS", containsAnyTokens = "CONTAINS_ANY_TOKENS"
    case listContains = "LIST_CONTAINS", notListContains = "NOT_LIST_CONTAINS"
    case listContainsAny = "LIST_CONTAINS_ANY", notListContainsAny = "NOT_LIST_CONTAINS_ANY"
    case listContainsAll = "LIST_CONTAINS_ALL", notListContainsAll = "NOT_LIST_CONTAINS_ALL"
    case listMemberBeginsWith = "LIST_MEMBER_BEGINS_WITH", notListMemberBeginsWith = "NOT_LIST_MEMBER_BEGINS_WITH"
    case near = "NEAR"
}

/// One condition of a query (CloudKit's Filter Dictionary): a field or a system field, a
/// comparator and a value.
public struct QueryFilter: Codable, Sendable, Equatable {
    public var comparator: QueryComparator
    public var fieldName: String?
    /// A system field: `recordName`, `createdTimestamp`, `modifiedTimestamp`, `createdUserRecordName`, `modifiedUserRecordName`.
    public var systemFieldName: String?
    package var fieldValue: RecordField
    /// Meters, for `NEAR`.
    public var distance: Double?

    public init(_ comparator: QueryComparator, fieldName: String? = nil, systemFieldName: String? = nil, _ value: FieldValue, distance: Double? = nil) {
        self.comparator = comparator
        self.fieldName = fieldName
        self.systemFieldName = systemFieldName
        self.fieldValue = RecordField(value)
        self.distance = distance
    }
}

/// One sort key of a query (CloudKit's Sort Descriptor Dictionary).
public struct QuerySort: Codable, Sendable, Equatable {
    public var fieldName: String?
    public var systemFieldName: String?
    /// Defaults to true.
    public var ascending: Bool?
    package var relativeLocation: RecordField?

    public init(fieldName: String? = nil, systemFieldName: String? = nil, ascending: Bool = true) {
        self.fieldName = fieldName
        self.systemFieldName = systemFieldName
        self.ascending = ascending
    }
}

/// What to find: records of a type matching every filter, in the sort order (CloudKit's `CKQuery`;
/// on the wire, its Query Dictionary).
public struct CloudQuery: Codable, Sendable, Equatable {
    public var recordType: String
    public var filterBy: [QueryFilter]?
    public var sortBy: [QuerySort]?

    public init(recordType: String, filterBy: [QueryFilter]? = nil, sortBy: [QuerySort]? = nil) {
        self.recordType = recordType
        self.filterBy = filterBy
        self.sortBy = sortBy
    }
}

extension QueryFilter {
    /// The value the field is compared with.
    public var value: FieldValue? { fieldValue.value }
}
