/// The body of `changes/zone`: one entry per zone, each with its own token and overrides.
package struct ZoneChangesRequest: Codable, Sendable, Equatable {
    /// One zone to fetch changes from; its keys override the request-level ones.
    package struct ZoneQuery: Codable, Sendable, Equatable {
        package var zoneID: ZoneID
        package var syncToken: String?
        package var resultsLimit: Int?
        package var desiredKeys: [String]?
        package var desiredRecordTypes: [String]?

        package init(zoneID: ZoneID, syncToken: String? = nil, resultsLimit: Int? = nil, desiredKeys: [String]? = nil) {
            self.zoneID = zoneID
            self.syncToken = syncToken
            self.resultsLimit = resultsLimit
            self.desiredKeys = desiredKeys
        }

        package init(from decoder: any Decoder) throws {
            try self.init(decodingTreeFrom: decoder)
        }
    }

    package var zones: [ZoneQuery]
    package var resultsLimit: Int?
    package var desiredKeys: [String]?
    package var desiredRecordTypes: [String]?

    package init(zones: [ZoneQuery], resultsLimit: Int? = nil, desiredKeys: [String]? = nil) {
        self.zones = zones
        self.resultsLimit = resultsLimit
        self.desiredKeys = desiredKeys
    }

    package init(from decoder: any Decoder) throws {
        try self.init(decodingTreeFrom: decoder)
    }
}

/// The changes of one zone since a token: changed records and tombstones (`deleted: true`),
/// the token to pass next time, and whether more changes wait.
package struct ZoneChanges: Codable, Sendable, Equatable {
    package var zoneID: ZoneID
    package var syncToken: String
    package var records: [Record]
    package var moreComing: Bool

    package init(zoneID: ZoneID, syncToken: String, records: [Record], moreComing: Bool) {
        self.zoneID = zoneID
        self.syncToken = syncToken
        self.records = records
        self.moreComing = moreComing
    }
}

/// An entry of `changes/zone`'s `zones`: the zone's changes, or why they could not be fetched.
package typealias ZoneChangesResult = ItemResult<ZoneChanges, ZoneError>

extension ItemResult where Success == ZoneChanges {
    /// The changes, when this result is one.
    package var changes: ZoneChanges? { value }
}

/// The response of `changes/zone`.
package struct ZoneChangesResponse: Codable, Sendable, Equatable {
    package var zones: [ZoneChangesResult]

    package init(zones: [ZoneChangesResult]) { self.zones = zones }
}

/// The body of the older `records/changes`: one zone's changes.
package struct RecordsChangesRequest: Codable, Sendable, Equatable {
    package var zoneID: ZoneID?
    package var syncToken: String?
    package var resultsLimit: Int?
    package var desiredKeys: [String]?

    package init(zoneID: ZoneID?, syncToken: String? = nil, resultsLimit: Int? = nil, desiredKeys: [String]? = nil) {
        self.zoneID = zoneID
        self.syncToken = syncToken
        self.resultsLimit = resultsLimit
        self.desiredKeys = desiredKeys
    }
}

/// The response of `records/changes`.
package struct RecordsChangesResponse: Codable, Sendable, Equatable {
    package var records: [Record]
    package var syncToken: String
    package var moreComing: Bool
    package var reverse: Bool

    package init(_ changes: ZoneChanges) {
        records = changes.records
        syncToken = changes.syncToken
        moreComing = changes.moreComing
        reverse = false
    }
}

/// The body of `changes/database`.
package struct DatabaseChangesRequest: Codable, Sendable, Equatable {
    package var syncToken: String?
    package var resultsLimit: Int?

    package init(syncToken: String? = nil, resultsLimit: Int? = nil) {
        self.syncToken = syncToken
        self.resultsLimit = resultsLimit
    }
}

/// The response of `changes/database`: zones created, changed or deleted (`deleted: true`) since
/// the token.
package struct DatabaseChangesResponse: Codable, Sendable, Equatable {
    package var zones: [Zone]
    package var syncToken: String
    package var moreComing: Bool

    package init(zones: [Zone], syncToken: String, moreComing: Bool) {
        self.zones = zones
        self.syncToken = syncToken
        self.moreComing = moreComing
    }
}

/// The body of `zones/changes`, the older form of `changes/database`: the same feed, whose token
/// is named `metaSyncToken` (the two endpoints' tokens are interchangeable).
package struct ZonesChangesRequest: Codable, Sendable, Equatable {
    package var metaSyncToken: String?
    package var resultsLimit: Int?

    package init(metaSyncToken: String? = nil, resultsLimit: Int? = nil) {
        self.metaSyncToken = metaSyncToken
        self.resultsLimit = resultsLimit
    }
}

/// The response of `zones/changes`: ``DatabaseChangesResponse`` with its token named `metaSyncToken`.
package struct ZonesChangesResponse: Codable, Sendable, Equatable {
    package var zones: [Zone]
    package var metaSyncToken: String
    package var moreComing: Bool

    package init(_ changes: DatabaseChangesResponse) {
        zones = changes.zones
        metaSyncToken = changes.syncToken
        moreComing = changes.moreComing
    }
}
