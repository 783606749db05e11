/// Shares, their participants, and the zones that enter and leave each user's shared database.
package protocol ShareStore {
    func share(zoneRowID: Int64, recordName: String) async throws -> StoredShare?
    func share(shortGUID: String) async throws -> StoredShare?
    func shares(zoneRowID: Int64) async throws -> [StoredShare]
    /// Creates or replaces a share and its participants.
    func saveShare(_ share: StoredShare) async throws
    func deleteShare(zoneRowID: Int64, recordName: String) async throws
    /// The shares of a zone in which the user is an accepted participant.
    func acceptedShares(zoneRowID: Int64, user: String) async throws -> [StoredShare]
    /// Whether the user is an accepted participant of any share of the zone.
    func isAcceptedParticipant(zoneRowID: Int64, user: String) async throws -> Bool
    /// The zones with a share the user is a participant of (invited or accepted).
    func zonesSharedWith(user: String) async throws -> [Int64]
    /// Records that a zone entered (`active`) or left a user's shared database at `sequence`.
    func setSharedZone(user: String, zoneRowID: Int64, active: Bool, sequence: Int64) async throws
    /// The zones that entered or left a user's shared database after `sequence`, oldest first;
    /// those that left at or before `horizon` are left out.
    func sharedZoneChanges(user: String, after sequence: Int64, skippingDeparturesThrough horizon: Int64, limit: Int) async throws -> [SharedZoneEntry]
    /// The zones now in a user's shared database.
    func activeSharedZones(user: String) async throws -> [SharedZoneEntry]
    /// Users with the zone in their shared database now.
    func sharedZoneMembers(zoneRowID: Int64) async throws -> [String]
}
