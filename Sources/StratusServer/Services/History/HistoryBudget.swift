import StratusCore

/// History's byte budget per zone (`--history-zone-mb`): when a zone's kept versions hold more,
/// the oldest versions of its most-edited records go first. Every record is cut down to the same
/// number of kept versions — the largest number that frees enough — so a record edited a
/// thousand times loses its old versions before a record edited twice loses any; a deleted
/// record's last version (what undelete brings back) is never evicted, a live record's may be
/// once every record is down to one.
enum HistoryBudget {
    /// How many of each record's oldest versions go to free `excess` bytes (each record's versions
    /// counted at their average size), for `records` as ``HistoryBudgetStore/recordsByKeptVersions(zoneRowID:limit:)``
    /// lists them, the most versions first. Frees less when even that cannot free `excess`.
    static func evictions(_ records: [KeptVersions], excess: Int64) -> [(recordName: String, count: Int)] {
        guard excess > 0, let most = records.first?.versions else { return [] }
        func kept(_ record: KeptVersions, cap: Int) -> Int { max(cap, record.deleted ? 1 : 0) }
        func freed(cap: Int) -> Int64 {
            records.reduce(0) { sum, record in
                let going = record.versions - kept(record, cap: cap)
                return going > 0 ? sum + record.bytes * Int64(going) / Int64(record.versions) : sum
            }
        }
        // The largest cap that frees enough: freed bytes only grow as the cap falls.
        var (low, high) = (0, most)
        while low < high {
            let middle = (low + high + 1) / 2
            if freed(cap: middle) >= excess { low = middle } else { high = middle - 1 }
        }
        return records.compactMap { record in
            let going = record.versions - kept(record, cap: low)
            return going > 0 ? (record.recordName, going) : nil
        }
    }
}
