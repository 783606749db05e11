/// What a `records/modify` operation does (CloudKit's `operationType`).
package enum RecordOperationType: String, Codable, Sendable, CaseIterable {
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
    package var requiresChangeTag: Bool { self == .update || self == .replace || self == .delete }
    /// Whether the operation removes the record.
    package var isDelete: Bool { self == .delete || self == .forceDelete }
}

/// One entry of `records/modify`'s `operations`.
package struct RecordOperation: Codable, Sendable, Equatable {
    package var operationType: RecordOperationType
    package var record: Record
    package var desiredKeys: [String]?
    /// A Stratus extension for `create`: a key the client chose for this create, so that the
    /// server recognises it when it is sent again after its answer was lost. The record keeps the
    /// key; a create carrying the key of a record deleted since fails with `NOT_FOUND` instead
    /// of bringing the record back. At most ``maxCreateKeyLength`` characters (Unicode scalars).
    package var createKey: String?
    /// Set when the operation's record could not be read (a field value that does not parse as
    /// the type it names, malformed BYTES): the operation fails alone with this error, its
    /// siblings go on (as CloudKit fails one record of a batch). Not part of the wire.
    package var unreadable: CloudKitError?

    /// The longest ``createKey`` the server accepts, in Unicode scalars.
    package static let maxCreateKeyLength = 128

    private enum CodingKeys: String, CodingKey {
        case operationType, record, desiredKeys, createKey
    }

    package init(_ operationType: RecordOperationType, _ record: Record, desiredKeys: [String]? = nil, createKey: String? = nil) {
        self.operationType = operationType
        self.record = record
        self.desiredKeys = desiredKeys
        self.createKey = createKey
    }

    package init(from decoder: any Decoder) throws {
        try self.init(decodingTreeFrom: decoder)
    }
}

/// The body of `records/modify`.
package struct RecordsModifyRequest: Codable, Sendable, Equatable {
    package var operations: [RecordOperation]
    package var zoneID: ZoneID?
    /// Defaults to true: in a custom zone, one failure fails the whole batch.
    package var atomic: Bool?
    package var desiredKeys: [String]?
    package var numbersAsStrings: Bool?

    package init(operations: [RecordOperation], zoneID: ZoneID? = nil, atomic: Bool? = nil, desiredKeys: [String]? = nil) {
        self.operations = operations
        self.zoneID = zoneID
        self.atomic = atomic
        self.desiredKeys = desiredKeys
    }

    package init(from decoder: any Decoder) throws {
        try self.init(decodingTreeFrom: decoder)
    }
}

/// The response of `records/modify` and `records/lookup`: one result per requested item, in order.
package struct RecordsResponse: Codable, Sendable, Equatable {
    package var records: [RecordResult]

    package init(records: [RecordResult]) { self.records = records }
}

/// The body of `records/lookup`.
package struct RecordsLookupRequest: Codable, Sendable, Equatable {
    package struct Item: Codable, Sendable, Equatable {
        package var recordName: String
        package var desiredKeys: [String]?

        package init(recordName: String, desiredKeys: [String]? = nil) {
            self.recordName = recordName
            self.desiredKeys = desiredKeys
        }
    }

    package var records: [Item]
    package var zoneID: ZoneID?
    package var desiredKeys: [String]?

    package init(records: [Item], zoneID: ZoneID? = nil, desiredKeys: [String]? = nil) {
        self.records = records
        self.zoneID = zoneID
        self.desiredKeys = desiredKeys
    }
}
