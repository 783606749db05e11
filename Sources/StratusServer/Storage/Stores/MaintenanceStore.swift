/// What maintenance, backup and restore need: the store's epoch, holds on asset collection, and
/// the tombstone purge.
package protocol MaintenanceStore {
    /// The epoch this transaction's store was opened with (see ``StratusStorage/epoch``).
    var storeEpoch: Int64 { get }
    /// Gives the store a new epoch (a restore does, in a store no server has open).
    func setStoreEpoch(_ epoch: Int64) async throws
    /// Holds asset collection off until `expiresAt` (ms): a backup is copying files.
    func holdAssetCollection(holder: String, until expiresAt: Int64) async throws
    func releaseAssetCollection(holder: String) async throws
    func isAssetCollectionHeld(at time: Int64) async throws -> Bool
    /// Removes record and zone tombstones last changed before `time` (ms), advancing the purged
    /// sequences so older tokens expire. Returns how many tombstones went.
    func purgeTombstones(before time: Int64) async throws -> Int
}
