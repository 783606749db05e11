/// An archive being loaded into a store: where its rows went, and how its change sequences move.
///
/// Into an empty store, rows keep their ids and sequences (``keepsRowIDs``, a zero
/// ``sequenceOffset``), so the change tokens devices hold stay valid. Into a store that has data,
/// rows get new ids and every sequence moves past the store's: the tokens of the archive's store
/// name rows and positions this store does not have, and devices start their sync again.
package struct ArchiveLoad: Sendable {
    /// The container being loaded; the archive's rows all belong to it.
    package let containerID: String
    /// Added to every change sequence the archive holds.
    package let sequenceOffset: Int64
    /// Whether databases and zones keep their archive ids.
    package let keepsRowIDs: Bool
    /// Rows loaded so far, by kind.
    package private(set) var counts: [String: Int] = [:]
    private var databaseIDs: [Int64: Int64] = [:]
    private var zoneIDs: [Int64: Int64] = [:]

    package init(containerID: String, sequenceOffset: Int64, keepsRowIDs: Bool) {
        self.containerID = containerID
        self.sequenceOffset = sequenceOffset
        self.keepsRowIDs = keepsRowIDs
    }

    /// A sequence of the archive, as this store numbers it.
    package func sequence(_ archived: Int64) -> Int64 { archived + sequenceOffset }

    /// The store's id of the archive's database `id`; an archive naming one it never listed is damaged.
    package func database(_ id: Int64) throws -> Int64 {
        guard let mapped = databaseIDs[id] else { throw TransferError("a row names database \(id), which the archive does not list before it") }
        return mapped
    }

    package func zone(_ id: Int64) throws -> Int64 {
        guard let mapped = zoneIDs[id] else { throw TransferError("a row names zone \(id), which the archive does not list before it") }
        return mapped
    }

    package mutating func loaded(database id: Int64, as mapped: Int64) { databaseIDs[id] = mapped }
    package mutating func loaded(zone id: Int64, as mapped: Int64) { zoneIDs[id] = mapped }
    package mutating func count(_ item: ArchiveItem) { counts[item.kind, default: 0] += 1 }

    /// Thrown by a load keeping row ids when the store already uses one of them: the load starts
    /// again, giving rows new ids.
    package struct RowIDTaken: Error {}
}
