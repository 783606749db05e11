/// What a `records/modify` operation does (CloudKit's `operationType`).
public enum RecordOperationType: String, Codable, Sendable, CaseIterable {
    /// Create; fails with `EXISTS` if the record exists.
    case create
    /// Change the given fields; needs the current `recordChangeTag`.
    case update
    /// Change the given fields whatever the tag; creates the record if missing.
    case forceUpdate
    /// Replace all fields (omitted ones become null); needs the current tag.
    case replace
    /// Replace all fields whatever the tag; creates the record if missing.
    case forceReplace
    /// Delete; needs the current tag.
    case delete
    /// Delete whatever the tag.
    case forceDelete

    /// Whether the operation must carry the record's current change tag.
    public var requiresChangeTag: Bool { self == .update || self == .replace || self == .delete }
    /// Whether the operation removes the record.
    public var isDelete: Bool { self == .delete || self == .forceDelete }
}

/// One entry of `records/modify`'s `operations`.
public struct RecordOperation: Codable, Sendable, Equatable {
    public var operationType: RecordOperationType
    public var record: Record
    public var desiredKeys: [String]?
    /// A Stratus extension for `create`: a key the client chose for this create, so that the
    /// server recognises it when it is sent again after its answer was lost. The record keeps the
    /// key; a create carrying the key of a record deleted since fails with `NOT_FOUND` instead
    /// of bringing the record back. At most ``maxCreateKeyLength`` characters (Unicode scalars).
    public var createKey: String?

    /// The longest ``createKey`` the server accepts, in Unicode scalars.
    public static let maxCreateKeyLength = 128

    public init(_ operationType: RecordOperationType, _ record: Record, desiredKeys: [String]? = nil, createKey: String? = nil) {
        self.operationType = operationType
        self.record = record
        self.desiredKeys = desiredKeys
        self.createKey = createKey
    }

    public init(from decoder: any Decoder) throws {
        try self.init(decodingTreeFrom: decoder)
    }
}

/// The body of `records/modify`.
public struct RecordsModifyRequest: Codable, Sendable, Equatable {
    public var operations: [RecordOperation]
    public var zoneID: ZoneID?
    /// Defaults to true: in a custom zone, one failure fails the whole batch.
    public var atomic: Bool?
    public var desiredKeys: [String]?
    public var numbersAsStrings: Bool?

    public init(operations: [RecordOperation], zoneID: ZoneID? = nil, atomic: Bool? = nil, desiredKeys: [String]? = nil) {
        self.operations = operations
        self.zoneID = zoneID
        self.atomic = atomic
        self.desiredKeys = desiredKeys
    }

    public init(from decoder: any Decoder) throws {
        try self.init(decodingTreeFrom: decoder)
    }
}

/// The response of `records/modify` and `records/lookup`: one result per requested item, in order.
public struct RecordsResponse: Codable, Sendable, Equatable {
    public var records: [RecordResult]

    public init(records: [RecordResult]) { self.records = records }
}

/// The body of `records/lookup`.
public struct RecordsLookupRequest: Codable, Sendable, Equatable {
    public struct Item: Codable, Sendable, Equatable {
        public var recordName: String
        public var desiredKeys: [String]?

        public init(recordName: String, desiredKeys: [String]? = nil) {
            self.recordName = recordName
            self.desiredKeys = desiredKeys
        }
    }

    public var records: [Item]
    public var zoneID: ZoneID?
    public var desiredKeys: [String]?

    public init(records: [Item], zoneID: ZoneID? = nil, desiredKeys: [String]? = nil) {
        self.records = records
        self.zoneID = zoneID
        self.desiredKeys = desiredKeys
    }
}
