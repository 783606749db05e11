/// A record zone as the server reports it (CloudKit's Zone Dictionary).
public struct Zone: Codable, Sendable, Equatable {
    public var zoneID: ZoneID
    /// The zone's current point in its change history; pass it to `changes/zone` later.
    public var syncToken: String?
    /// Whether batches saved in this zone are applied all-or-nothing. False for default zones.
    public var atomic: Bool?
    /// *Extension*: set in `changes/database` results when the zone was deleted.
    public var deleted: Bool?
    /// *Extension*: with `deleted`, why the zone went away from this database.
    public var deletionReason: ZoneDeletionReason?

    public init(zoneID: ZoneID, syncToken: String? = nil, atomic: Bool? = nil, deleted: Bool? = nil,
                deletionReason: ZoneDeletionReason? = nil) {
        self.zoneID = zoneID
        self.syncToken = syncToken
        self.atomic = atomic
        self.deleted = deleted
        self.deletionReason = deletionReason
    }
}

/// *Extension*: why a zone left a database's change feed.
public enum ZoneDeletionReason: String, Codable, Sendable, Hashable {
    /// The owner deleted the zone.
    case zoneDeleted = "ZONE_DELETED"
    /// The caller lost access to another user's zone: sharing stopped, they were removed, or they left.
    case accessEnded = "ACCESS_ENDED"
}
