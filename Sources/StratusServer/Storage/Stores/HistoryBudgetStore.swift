import StratusCore

/// What the byte budget of history per zone (``HistoryService/enforceBudget(step:)``) reads and
/// evicts in the record log: the bytes of the versions it keeps, counted as their stored fields.
package protocol HistoryBudgetStore {
    /// The zones whose kept versions hold more than `bytes`, with how many they hold.
    func zonesOverHistoryBudget(bytes: Int64) async throws -> [(zoneRowID: Int64, bytes: Int64)]
    /// The zone's records with kept versions, the most versions first, at most `limit`: how many
    /// versions each has, their bytes, and whether the record is deleted now (its zone's deletion
    /// included).
    func recordsByKeptVersions(zoneRowID: Int64, limit: Int) async throws -> [KeptVersions]
    /// Removes the record's `count` oldest kept versions (their entries), and the files' hold of
    /// them. Returns when the youngest of them was replaced (ms), nil when none went.
    func evictOldestVersions(zoneRowID: Int64, recordName: String, count: Int) async throws -> Int64?
}

/// A record's kept versions in the record log (``HistoryBudgetStore``).
package struct KeptVersions: Sendable, Equatable {
    package var recordName: String
    package var versions: Int
    package var bytes: Int64
    /// Whether the record is deleted now: its last version is then never evicted.
    package var deleted: Bool

    package init(recordName: String, versions: Int, bytes: Int64, deleted: Bool) {
        self.recordName = recordName
        self.versions = versions
        self.bytes = bytes
        self.deleted = deleted
    }
}
