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
    public var fieldValue: RecordField
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
    public var relativeLocation: RecordField?

    public init(fieldName: String? = nil, systemFieldName: String? = nil, ascending: Bool = true) {
        self.fieldName = fieldName
        self.systemFieldName = systemFieldName
        self.ascending = ascending
    }
}

/// What to find: records of a type matching every filter, in the sort order (CloudKit's Query Dictionary).
public struct Query: Codable, Sendable, Equatable {
    public var recordType: String
    public var filterBy: [QueryFilter]?
    public var sortBy: [QuerySort]?

    public init(recordType: String, filterBy: [QueryFilter]? = nil, sortBy: [QuerySort]? = nil) {
        self.recordType = recordType
        self.filterBy = filterBy
        self.sortBy = sortBy
    }
}

/// The body of `records/query`.
public struct RecordsQueryRequest: Codable, Sendable, Equatable {
    public var query: Query
    public var zoneID: ZoneID?
    public var resultsLimit: Int?
    /// From the previous page's response; continues that query where it stopped.
    public var continuationMarker: String?
    public var desiredKeys: [String]?
    /// Without `zoneID`: `true` searches every zone of the database (each record then carries its
    /// `zoneID`), `false` or absent the default zone only. Ignored when `zoneID` is set.
    public var zoneWide: Bool?

    public init(query: Query, zoneID: ZoneID? = nil, resultsLimit: Int? = nil, continuationMarker: String? = nil,
                desiredKeys: [String]? = nil, zoneWide: Bool? = nil) {
        self.query = query
        self.zoneID = zoneID
        self.resultsLimit = resultsLimit
        self.continuationMarker = continuationMarker
        self.desiredKeys = desiredKeys
        self.zoneWide = zoneWide
    }

    /// Whether the query searches every zone of the database.
    public var searchesEveryZone: Bool { zoneID == nil && zoneWide == true }
}

/// The response of `records/query`: a page of records and, when more match, the marker for the next page.
public struct RecordsQueryResponse: Codable, Sendable, Equatable {
    public var records: [Record]
    public var continuationMarker: String?

    public init(records: [Record], continuationMarker: String?) {
        self.records = records
        self.continuationMarker = continuationMarker
    }
}
