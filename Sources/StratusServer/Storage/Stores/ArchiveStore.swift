/// A container's rows as an archive passes them out and loads them back (export, import,
/// copying a store).
package protocol ArchiveStore {
    /// How many items ``archiveItems(containerID:includingSecrets:includingHistory:_:)`` passes for the container.
    func archiveItemCount(containerID: String, includingSecrets: Bool, includingHistory: Bool) async throws -> Int
    /// Passes every row of the container to `emit` as ``ArchiveItem``s, kinds in the order of
    /// ``ArchiveItem/kinds``. Password hashes, sessions and APNs credentials and device tokens
    /// only with `includingSecrets`; the record log (history) and the files only its versions
    /// hold only with `includingHistory`; email codes and uploads not yet in a record never.
    /// (``loadArchiveItem(_:_:)`` stores them back.)
    func archiveItems(containerID: String, includingSecrets: Bool, includingHistory: Bool, _ emit: (ArchiveItem) throws -> Void) async throws
    /// Passes a zone's records and tombstones to `emit`, each with its reference edges and asset
    /// files, by record name, as they stream (a zone's records are never all in memory).
    func archiveRecords(zoneRowID: Int64, _ emit: (ArchiveItem) throws -> Void) async throws
    /// Inserts an archived database row, with its archived id when `load` keeps row ids (throwing
    /// ``ArchiveLoad/RowIDTaken`` when the store uses it), and returns its id in this store.
    func insertArchivedDatabase(_ database: ArchivedDatabase, containerID: String, _ load: ArchiveLoad) async throws -> Int64
    /// Inserts an archived zone row as ``insertArchivedDatabase(_:containerID:_:)`` does a database's.
    func insertArchivedZone(_ zone: ArchivedZone, _ load: ArchiveLoad) async throws -> Int64
    /// Appends an archived entry of the record log, naming its actors, with the files its
    /// version refers to.
    func insertArchivedLogEntry(_ entry: RecordLogEntry, assets: [String]) async throws
    /// Records an asset file's row (once per checksum).
    func insertAssetBlob(_ asset: ArchivedAsset) async throws
    /// Raises the change sequence to `value` when it is below.
    func advanceChangeSequence(to value: Int64) async throws
}
