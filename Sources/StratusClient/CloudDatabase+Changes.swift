import StratusCore

/// A page of a database's zone changes (CloudKit's `databaseChanges(since:)`).
public struct DatabaseChanges: Sendable {
    /// Zones created or holding changed records.
    public var modifications: [ZoneID]
    /// Zones deleted.
    public var deletions: [ZoneID]
    /// Why each deleted zone went: deleted by its owner, or (in the shared database) access ended.
    public var deletionReasons: [ZoneID: ZoneDeletionReason] = [:]
    /// The token to fetch from next time.
    public var changeToken: ServerChangeToken
    /// Whether another page follows: fetch again from ``changeToken``.
    public var moreComing: Bool
}

/// A page of one zone's record changes (CloudKit's `recordZoneChanges(inZoneWith:since:)`).
public struct RecordZoneChanges: Sendable {
    /// A record deleted on the server.
    public struct Deletion: Sendable, Hashable {
        /// The deleted record's ID.
        public var recordID: RecordID
        /// The deleted record's type.
        public var recordType: String

        /// A deletion from its parts.
        public init(recordID: RecordID, recordType: String) {
            self.recordID = recordID
            self.recordType = recordType
        }
    }

    /// The zone the changes are in.
    public var zoneID: ZoneID
    /// Records created or changed, as the server now has them.
    public var modifications: [CloudRecord]
    /// Records deleted on the server.
    public var deletions: [Deletion]
    /// The token to fetch from next time.
    public var changeToken: ServerChangeToken
    /// Whether another page follows: fetch again from ``changeToken``.
    public var moreComing: Bool

    package init(zoneID: ZoneID, modifications: [CloudRecord], deletions: [Deletion], changeToken: ServerChangeToken, moreComing: Bool) {
        self.zoneID = zoneID
        self.modifications = modifications
        self.deletions = deletions
        self.changeToken = changeToken
        self.moreComing = moreComing
    }
}

extension CloudDatabase {
    /// One page of zones changed after `token` (all zones when nil). An expired token throws
    /// ``CloudError/Code-swift.enum/changeTokenExpired``: fetch again from nil.
    public func databaseChanges(since token: ServerChangeToken?, resultsLimit: Int? = nil) async throws -> DatabaseChanges {
        let response = try await post("changes/database", DatabaseChangesRequest(syncToken: token?.rawValue, resultsLimit: resultsLimit),
                                      as: DatabaseChangesResponse.self)
        var changes = DatabaseChanges(modifications: response.zones.filter { $0.deleted != true }.map { normalized($0.zoneID) },
                                      deletions: response.zones.filter { $0.deleted == true }.map { normalized($0.zoneID) },
                                      changeToken: ServerChangeToken(rawValue: response.syncToken), moreComing: response.moreComing)
        for zone in response.zones where zone.deleted == true {
            changes.deletionReasons[normalized(zone.zoneID)] = zone.deletionReason ?? .zoneDeleted
        }
        return changes
    }

    /// One page of a zone's records changed after `token` (every record when nil), oldest change
    /// first. Assets are downloaded when the container has an asset cache.
    public func recordZoneChanges(inZoneWith zoneID: ZoneID, since token: ServerChangeToken?, desiredKeys: [String]? = nil,
                                  resultsLimit: Int? = nil) async throws -> RecordZoneChanges {
        let zoneID = normalized(zoneID)
        let request = ZoneChangesRequest(zones: [.init(zoneID: zoneID, syncToken: token?.rawValue, resultsLimit: resultsLimit, desiredKeys: desiredKeys)])
        guard let answer = try await post("changes/zone", request, as: ZoneChangesResponse.self).zones.first else {
            throw CloudError(.internalError, "changes/zone answered no zone")
        }
        guard let changes = answer.changes else {
            let error = answer.error
            throw CloudError(server: error?.serverErrorCode ?? .internalError, reason: error?.reason ?? "no changes", retryAfter: nil)
        }
        var page = RecordZoneChanges(zoneID: zoneID, modifications: [], deletions: [],
                                     changeToken: ServerChangeToken(rawValue: changes.syncToken), moreComing: changes.moreComing)
        page.modifications.reserveCapacity(changes.records.count)
        for record in changes.records {
            if record.deleted == true, let name = record.recordName {
                page.deletions.append(.init(recordID: RecordID(recordName: name, zoneID: zoneID), recordType: record.recordType ?? ""))
            } else {
                let fetched = try CloudRecord(wire: record, zoneID: zoneID)
                page.modifications.append(container.assetCacheDirectory == nil ? fetched : try await downloadingAssets(of: fetched))
            }
        }
        return page
    }
}
