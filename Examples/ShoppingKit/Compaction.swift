/// Journal compaction (Shopping UK's rules): among the entries old enough, an item that was added
/// and then checked (and not unchecked since) or deleted is dropped with all its entries — unless a
/// remaining item is placed after it. Only entries older than the cutoff are ever removed.
public enum Compaction {
    /// How old an entry must be before a compaction may remove it.
    public static let minimumAge: Int64 = 14 * 24 * 3600 * 1000
    /// How often one device compacts at most.
    public static let interval: Int64 = 30 * 60 * 1000

    /// The entries a compaction removes, of those older than `cutoff`.
    public static func removable(_ entries: [JournalEntry], before cutoff: Int64) -> [JournalEntry] {
        let old = entries.filter { $0.timestamp < cutoff }.sorted(by: JournalEntry.order)
        let newerTouch = Set(entries.filter { $0.timestamp >= cutoff }.compactMap(\.itemID))
        var byItem: [String: [JournalEntry]] = [:]
        for entry in old { if let item = entry.itemID { byItem[item, default: []].append(entry) } }
        var candidates = Set<String>()
        for (item, itemEntries) in byItem where !newerTouch.contains(item) {
            guard itemEntries.first?.kind == .add, let last = itemEntries.last(where: { $0.kind != .add }) else { continue }
            if last.kind == .delete || last.kind == .check { candidates.insert(item) }
        }
        // An item another kept item follows stays, to hold that item's place.
        var changed = true
        while changed {
            changed = false
            for entry in entries where entry.kind == .add {
                guard let after = entry.after, let item = entry.itemID, candidates.contains(after), !candidates.contains(item) else { continue }
                candidates.remove(after)
                changed = true
            }
        }
        return old.filter { $0.itemID.map(candidates.contains) ?? false }
    }
}
