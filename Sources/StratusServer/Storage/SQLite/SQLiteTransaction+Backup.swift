import GRDB

extension SQLiteTransaction {
    static func storeEpoch(in db: Database) throws -> Int64 {
        try Int64.fetchOne(db, sql: "SELECT epoch FROM store_epoch WHERE id = 1") ?? 0
    }

    func setStoreEpoch(_ epoch: Int64) throws {
        try db.execute(sql: "UPDATE store_epoch SET epoch = ? WHERE id = 1", arguments: [epoch])
    }

    func holdAssetCollection(holder: String, until expiresAt: Int64) throws {
        try db.execute(sql: "INSERT OR REPLACE INTO asset_collection_holds (holder, expires_at) VALUES (?, ?)",
                       arguments: [holder, expiresAt])
    }

    func releaseAssetCollection(holder: String) throws {
        try db.execute(sql: "DELETE FROM asset_collection_holds WHERE holder = ?", arguments: [holder])
    }

    func isAssetCollectionHeld(at time: Int64) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM asset_collection_holds WHERE expires_at > ?)", arguments: [time]) ?? false
    }

    func assetBlobChecksums() throws -> [String] {
        try String.fetchAll(db, sql: "SELECT checksum FROM asset_blobs ORDER BY checksum")
    }
}
