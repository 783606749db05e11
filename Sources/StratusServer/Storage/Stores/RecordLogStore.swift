import StratusCore

/// The record log: every change of a record in commit order, with the version it replaced, kept
/// for the retention of history (docs/architecture.md, "The record log").
package protocol RecordLogStore {
    /// Appends the changes of a write, in the order they were made, in its transaction.
    func appendRecordLog(_ entries: [RecordLogEntry]) async throws
    /// The versions of a record the log keeps, newest first: those replaced by a change before
    /// `position` (all, without one), at most `limit`.
    func recordVersions(zoneRowID: Int64, recordName: String, before position: Int64?, limit: Int) async throws -> [RecordVersion]
    /// The kept version of a record with this change tag, if the log has it.
    func recordVersion(zoneRowID: Int64, recordName: String, changeTag: String) async throws -> RecordVersion?
    /// The zone's deleted records whose last live version the log keeps (the recycle bin), most
    /// recently deleted first: their tombstones, deleted before `position` (all, without one), at
    /// most `limit`.
    func deletedRecords(zoneRowID: Int64, before position: Int64?, limit: Int) async throws -> [StoredRecord]
    /// The tombstones of the records that `cause`'s deletion (its tombstone's `sequence`) took
    /// with it through `DELETE_SELF` references and that are still deleted: what undeleting
    /// `cause` brings back with it.
    func cascadedDeletions(zoneRowID: Int64, cause: String, after sequence: Int64) async throws -> [StoredRecord]
    /// Removes entries of the containers `scope` names logged before `time` (ms), and the files'
    /// hold of the versions they kept: of the oldest `limit` of those containers' entries, those
    /// older than `time`. Returns how many went (fewer than `limit`: the rest are newer).
    func purgeRecordLog(before time: Int64, in scope: RecordLogScope, limit: Int) async throws -> Int
    /// Removes every entry of a record (its owner's privacy purge). Returns how many versions went.
    func purgeRecordHistory(zoneRowID: Int64, recordName: String) async throws -> Int
    /// Logs the deletion of every live record of a zone that is being deleted, each keeping its
    /// version (and its files), then the zone's deletion, stamped `stamp` at `sequence`.
    func logZoneDeletion(zoneRowID: Int64, sequence: Int64, stamp: RecordStamp) async throws
    /// Logs a custom zone's creation (or its making again by a restore), stamped `stamp`, at the
    /// zone's first `sequence`.
    func logZoneCreation(zoneRowID: Int64, sequence: Int64, stamp: RecordStamp) async throws
    /// Removes every entry of a zone (it is deleted with its account or environment).
    func purgeZoneHistory(zoneRowID: Int64) async throws
    /// Removes every entry of the zones of a database, deleted ones included (its account is deleted).
    func purgeDatabaseHistory(databaseID: Int64) async throws
    /// What a record of the zone was at `time` (ms) by the log (``RecordState``).
    func recordState(zoneRowID: Int64, recordName: String, at time: Int64) async throws -> RecordState
    /// The names of the records the zones hold or held (rows and log entries) after `name`, in
    /// order, at most `limit`.
    func recordNames(zoneRowIDs: [Int64], after name: String?, limit: Int) async throws -> [String]
    /// The zones of the database with this name, the deleted ones not purged yet included, oldest
    /// first, each with when it was deleted.
    func zones(databaseID: Int64, zoneName: String) async throws -> [(zone: StoredZone, deletedAt: Int64?)]
    /// The database's deleted zones whose records' versions the log keeps, most recently deleted
    /// first, at most `limit`.
    func deletedZones(databaseID: Int64, limit: Int) async throws -> [(zone: StoredZone, deletedAt: Int64)]
}

/// The containers whose record log entries a purge by time looks at (each container keeps history
/// for its own number of days).
package enum RecordLogScope: Sendable, Equatable {
    /// Only these containers'.
    case only([String])
    /// Every container's but these (every container's, when none).
    case allBut([String])
}
