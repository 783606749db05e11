import StratusCore

/// Records, their tombstones and their reference edges.
package protocol RecordStore {
    /// The record or its tombstone.
    func record(zoneRowID: Int64, recordName: String) async throws -> StoredRecord?
    /// The records (or tombstones) of the zone with these names; missing names are left out.
    func records(zoneRowID: Int64, recordNames: [String]) async throws -> [StoredRecord]
    /// Inserts or overwrites the record (or tombstone) and its outgoing reference edges; with
    /// `replacingReferences`, the edges it had before are removed first (a new record has none).
    func saveRecord(_ record: StoredRecord, references: [StoredReference], replacingReferences: Bool) async throws
    /// Inserts a record whose name has no row in the zone yet, with its reference edges. Returns
    /// false, writing nothing, when a row (record or tombstone) of that name exists.
    func insertRecord(_ record: StoredRecord, references: [StoredReference]) async throws -> Bool
    /// Whether the store holds saves back and sends them together (a network database, where each
    /// statement is a round trip): then the names a batch creates are read up front, so that
    /// creates of free names become held saves. Otherwise each create is an
    /// ``insertRecord(_:references:)``, whose own uniqueness check tells whether the name was free.
    var holdsSaves: Bool { get }
    /// Edges pointing at `targetName` from live records of the zone.
    func references(zoneRowID: Int64, targetName: String) async throws -> [StoredReference]
    /// Records and tombstones changed after `sequence`, oldest first, leaving out tombstones at
    /// or before `horizon`: at most `limit`, and no more once their fields add up to over
    /// `maxBytes` with at least two read.
    func recordChanges(zoneRowID: Int64, after sequence: Int64, skippingDeletionsThrough horizon: Int64, limit: Int,
                       maxBytes: Int, recordTypes: [String]?) async throws -> [StoredRecord]
    /// Where the changes after `sequence` are, oldest first, as ``recordChanges(zoneRowID:after:skippingDeletionsThrough:limit:maxBytes:recordTypes:)``
    /// would read them, without their fields: at most `limit`, for a reader that filters before it
    /// reads (the public database's feed).
    func changePositions(zoneRowID: Int64, after sequence: Int64, skippingDeletionsThrough horizon: Int64, limit: Int,
                         recordTypes: [String]?) async throws -> [ChangePosition]
    /// The records and tombstones at these change sequences of the zone, oldest first, no more
    /// once their fields add up to over `maxBytes` with at least two read.
    func records(zoneRowID: Int64, sequences: [Int64], maxBytes: Int) async throws -> [StoredRecord]
    /// Every live record of a type in the container environment's zones, for rebuilding indexes.
    func liveRecords(containerID: String, environment: ContainerEnvironment, recordType: String) async throws -> [StoredRecord]
}
