import GRDB

extension SQLiteTransaction {
    func insertAssetUpload(_ upload: StoredAssetUpload) throws {
        try db.execute(sql: "INSERT OR IGNORE INTO asset_blobs (checksum, size, created_at) VALUES (?, ?, ?)",
                       arguments: [upload.checksum, upload.size, upload.uploadedAt])
        try db.execute(sql: """
            INSERT INTO asset_uploads (receipt_hash, database_id, zone_name, record_name, field_name, uploaded_by, checksum, size, uploaded_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, arguments: [upload.receiptHash, upload.databaseID, upload.zoneName, upload.recordName, upload.fieldName,
                             upload.uploadedBy, upload.checksum, upload.size, upload.uploadedAt])
    }

    func assetUpload(receiptHash: String) throws -> StoredAssetUpload? {
        try Row.fetchOne(db.cachedStatement(sql: """
            SELECT receipt_hash, database_id, zone_name, record_name, field_name, uploaded_by, checksum, size, uploaded_at
            FROM asset_uploads WHERE receipt_hash = ?
            """), arguments: [receiptHash]).map {
            StoredAssetUpload(receiptHash: $0[0], databaseID: $0[1], zoneName: $0[2], recordName: $0[3], fieldName: $0[4],
                              uploadedBy: $0[5], checksum: $0[6], size: $0[7], uploadedAt: $0[8])
        }
    }

    func assetReferences(zoneRowID: Int64, checksum: String, limit: Int) throws -> (size: Int64, recordNames: [String])? {
        let rows = try Row.fetchAll(db.cachedStatement(sql: """
            SELECT b.size, r.record_name FROM asset_references r JOIN asset_blobs b ON b.checksum = r.checksum
            WHERE r.checksum = ? AND r.zone_id = ? LIMIT ?
            """), arguments: [checksum, zoneRowID, limit])
        guard let first = rows.first else { return nil }
        return (first[0], rows.map { $0[1] })
    }

    func recordReferencesAsset(zoneRowID: Int64, recordName: String, checksum: String) throws -> Bool {
        try Bool.fetchOne(db.cachedStatement(sql: """
            SELECT 1 FROM asset_references WHERE zone_id = ? AND record_name = ? AND checksum = ?
            """), arguments: [zoneRowID, recordName, checksum]) == true
    }

    func replaceAssetReferences(zoneRowID: Int64, recordName: String, checksums: Set<String>) throws {
        try db.cachedStatement(sql: "DELETE FROM asset_references WHERE zone_id = ? AND record_name = ?")
            .execute(arguments: [zoneRowID, recordName])
        let insert = try db.cachedStatement(sql: "INSERT INTO asset_references (zone_id, record_name, checksum) VALUES (?, ?, ?)")
        for checksum in checksums {
            try insert.execute(arguments: [zoneRowID, recordName, checksum])
        }
    }

    func deleteAssetUploads(before time: Int64) throws -> Int {
        try db.execute(sql: "DELETE FROM asset_uploads WHERE uploaded_at < ?", arguments: [time])
        return db.changesCount
    }

    func deleteUnreferencedAssetBlobs() throws -> [String] {
        let orphans = try String.fetchAll(db.cachedStatement(sql: """
            SELECT checksum FROM asset_blobs b
            WHERE NOT EXISTS (SELECT 1 FROM asset_references r WHERE r.checksum = b.checksum)
              AND NOT EXISTS (SELECT 1 FROM asset_uploads u WHERE u.checksum = b.checksum)
            """))
        let delete = try db.cachedStatement(sql: "DELETE FROM asset_blobs WHERE checksum = ?")
        for checksum in orphans { try delete.execute(arguments: [checksum]) }
        return orphans
    }

    func assetBlobExists(checksum: String) throws -> Bool {
        try Bool.fetchOne(db.cachedStatement(sql: "SELECT 1 FROM asset_blobs WHERE checksum = ?"), arguments: [checksum]) == true
    }
}
