import StratusCore

/// Databases, their zones, and the one monotonic change sequence that orders every change.
package protocol ZoneStore {
    /// The last change sequence committed (or allocated by this transaction).
    func currentChangeSequence() async throws -> Int64
    /// Allocates the next number of the one monotonic change sequence.
    func nextChangeSequence() async throws -> Int64
    /// The database's row id; with `create`, made on first use.
    func databaseID(_ key: DatabaseKey, create: Bool) async throws -> Int64?
    /// The key of a database row.
    func databaseKey(id: Int64) async throws -> DatabaseKey?
    /// The row ids of an environment's databases (public, and each user's private and shared).
    func databaseIDs(containerID: String, environment: ContainerEnvironment) async throws -> [Int64]
    /// Database-change tokens older than this have missed purged zone tombstones.
    func databasePurgedSequence(databaseID: Int64) async throws -> Int64
    func liveZone(databaseID: Int64, zoneName: String) async throws -> StoredZone?
    func zone(rowID: Int64) async throws -> StoredZone?
    func liveZones(databaseID: Int64) async throws -> [StoredZone]
    func insertZone(databaseID: Int64, zoneName: String, sequence: Int64) async throws -> StoredZone
    /// Turns the zone into a tombstone at `sequence`, deleted at `time` (ms; the purge counts its
    /// age from it), and removes its records.
    func deleteZone(rowID: Int64, sequence: Int64, at time: Int64) async throws
    func setZoneChangeSequence(rowID: Int64, sequence: Int64) async throws
    /// Zones (live or deleted) whose change sequence is after `sequence`, oldest first; zones
    /// deleted at or before `horizon` are left out.
    func zonesChanged(databaseID: Int64, after sequence: Int64, skippingDeletionsThrough horizon: Int64, limit: Int) async throws -> [StoredZone]
}
