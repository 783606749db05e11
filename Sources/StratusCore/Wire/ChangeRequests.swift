/// The body of `changes/zone`: one entry per zone, each with its own token and overrides.
public struct ZoneChangesRequest: Codable, Sendable, Equatable {
    /// One zone to fetch changes from; its keys override the request-level ones.
    public struct ZoneQuery: Codable, Sendable, Equatable {
        public var zoneID: ZoneID
        public var syncToken: String?
        public var resultsLimit: Int?
        public var desiredKeys: [String]?
        public var desiredRecordTypes: [String]?

        public init(zoneID: ZoneID, syncToken: String? = nil, resultsLimit: Int? = nil, desiredKeys: [String]? = nil) {
            self.zoneID = zoneID
            self.syncToken = syncToken
            self.resultsLimit = resultsLimit
            self.desiredKeys = desiredKeys
        }
    }

    public var zones: [ZoneQuery]
    public var resultsLimit: Int?
    public var desiredKeys: [String]?
    public var desiredRecordTypes: [String]?

    public init(zones: [ZoneQuery], resultsLimit: Int? = nil, desiredKeys: [String]? = nil) {
        self.zones = zones
        self.resultsLimit = resultsLimit
        self.desiredKeys = desiredKeys
    }
}

/// The changes of one zone since a token: changed records and tombstones (`deleted: true`),
/// the token to pass next time, and whether more changes wait.
public struct ZoneChanges: Codable, Sendable, Equatable {
    public var zoneID: ZoneID
    public var syncToken: String
    public var records: [Record]
    public var moreComing: Bool

    public init(zoneID: ZoneID, syncToken: String, records: [Record], moreComing: Bool) {
        self.zoneID = zoneID
        self.syncToken = syncToken
        self.records = records
        self.moreComing = moreComing
    }
}

/// An entry of `changes/zone`'s `zones`: the zone's changes, or why they could not be fetched.
public typealias ZoneChangesResult = ItemResult<ZoneChanges, ZoneError>

extension ItemResult where Success == ZoneChanges {
    /// The changes, when this result is one.
    public var changes: ZoneChanges? { value }
}

/// The response of `changes/zone`.
public struct ZoneChangesResponse: Codable, Sendable, Equatable {
    public var zones: [ZoneChangesResult]

    public init(zones: [ZoneChangesResult]) { self.zones = zones }
}

/// The body of the older `records/changes`: one zone's changes.
public struct RecordsChangesRequest: Codable, Sendable, Equatable {
    public var zoneID: ZoneID?
    public var syncToken: String?
    public var resultsLimit: Int?
    public var desiredKeys: [String]?

    public init(zoneID: ZoneID?, syncToken: String? = nil, resultsLimit: Int? = nil, desiredKeys: [String]? = nil) {
        self.zoneID = zoneID
        self.syncToken = syncToken
        self.resultsLimit = resultsLimit
        self.desiredKeys = desiredKeys
    }
}

/// The response of `records/changes`.
public struct RecordsChangesResponse: Codable, Sendable, Equatable {
    public var records: [Record]
    public var syncToken: String
    public var moreComing: Bool
    public var reverse: Bool

    public init(_ changes: ZoneChanges) {
        records = changes.records
        syncToken = changes.syncToken
        moreComing = changes.moreComing
        reverse = false
    }
}

/// The body of `changes/database`.
public struct DatabaseChangesRequest: Codable, Sendable, Equatable {
    public var syncToken: String?
    public var resultsLimit: Int?

    public init(syncToken: String? = nil, resultsLimit: Int? = nil) {
        self.syncToken = syncToken
        self.resultsLimit = resultsLimit
    }
}

/// The response of `changes/database`: zones created, changed or deleted (`deleted: true`) since
/// the token.
public struct DatabaseChangesResponse: Codable, Sendable, Equatable {
    public var zones: [Zone]
    public var syncToken: String
    public var moreComing: Bool

    public init(zones: [Zone], syncToken: String, moreComing: Bool) {
        self.zones = zones
        self.syncToken = syncToken
        self.moreComing = moreComing
    }
}

/// The body of `zones/changes`, the older form of `changes/database`: the same feed, whose token
/// is named `metaSyncToken` (the two endpoints' tokens are interchangeable).
public struct ZonesChangesRequest: Codable, Sendable, Equatable {
    public var metaSyncToken: String?
    public var resultsLimit: Int?

    public init(metaSyncToken: String? = nil, resultsLimit: Int? = nil) {
        self.metaSyncToken = metaSyncToken
        self.resultsLimit = resultsLimit
    }
}

/// The response of `zones/changes`: ``DatabaseChangesResponse`` with its token named `metaSyncToken`.
public struct ZonesChangesResponse: Codable, Sendable, Equatable {
    public var zones: [Zone]
    public var metaSyncToken: String
    public var moreComing: Bool

    public init(_ changes: DatabaseChangesResponse) {
        zones = changes.zones
        metaSyncToken = changes.syncToken
        moreComing = changes.moreComing
    }
}
