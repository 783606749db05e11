import PostgresNIO
import StratusCore

/// Asset rows (the files themselves are in the blob store), and what backups need.
extension PostgresTransaction {
    func insertAssetUpload(_ upload: StoredAssetUpload) async throws {
        try await execute("""
            INSERT INTO asset_blobs (checksum, size, created_at) VALUES (\(upload.checksum), \(upload.size), \(upload.uploadedAt))
            ON CONFLICT DO NOTHING
            """)
        try await execute("""
            INSERT INTO asset_uploads (receipt_hash, database_id, zone_name, record_name, field_name, uploaded_by, checksum, size, uploaded_at)
            VALUES (\(upload.receiptHash), \(upload.databaseID), \(upload.zoneName), \(upload.recordName), \(upload.fieldName),
                    \(upload.uploadedBy), \(upload.checksum), \(upload.size), \(upload.uploadedAt))
            """)
    }

    func assetUpload(receiptHash: String) async throws -> StoredAssetUpload? {
        try await rows("""
            SELECT receipt_hash, database_id, zone_name, record_name, field_name, uploaded_by, checksum, size, uploaded_at
            FROM asset_uploads WHERE receipt_hash = \(receiptHash)
            """).first.map {
            StoredAssetUpload(receiptHash: try $0[0].decode(String.self), databaseID: try $0[1].decode(Int64.self),
                              zoneName: try $0[2].decode(String.self), recordName: try $0[3].decode(String.self),
                              fieldName: try $0[4].decode(String.self), uploadedBy: try $0[5].decode(String.self),
                              checksum: try $0[6].decode(String.self), size: try $0[7].decode(Int64.self), uploadedAt: try $0[8].decode(Int64.self))
        }
    }

    func assetReferences(zoneRowID: Int64, checksum: String, limit: Int) async throws -> (size: Int64, recordNames: [String])? {
        let rows = try await rows("""
            SELECT b.size, r.record_name FROM asset_references r JOIN asset_blobs b ON b.checksum = r.checksum
            WHERE r.checksum = \(checksum) AND r.zone_id = \(zoneRowID) LIMIT \(limit)
            """)
        guard let first = rows.first else { return nil }
        return (try first[0].decode(Int64.self), try rows.map { try $0[1].decode(String.self) })
    }

    func recordReferencesAsset(zoneRowID: Int64, recordName: String, checksum: String) async throws -> Bool {
        try await value("""
            SELECT 1 FROM asset_references WHERE zone_id = \(zoneRowID) AND record_name = \(recordName) AND checksum = \(checksum)
            """, as: Int32.self) != nil
    }

    func replaceAssetReferences(zoneRowID: Int64, recordName: String, checksums: Set<String>) async throws {
        try await execute("DELETE FROM asset_references WHERE zone_id = \(zoneRowID) AND record_name = \(recordName)")
        guard !checksums.isEmpty else { return }
        try await execute("""
            INSERT INTO asset_references (zone_id, record_name, checksum) SELECT \(zoneRowID), \(recordName), unnest(\(Array(checksums)))
            """)
    }

    func deleteAssetUploads(before time: Int64) async throws -> Int {
        try await changedRows("DELETE FROM asset_uploads WHERE uploaded_at < \(time) RETURNING 1")
    }

    func deleteUnreferencedAssetBlobs() async throws -> [String] {
        try await values("""
            DELETE FROM asset_blobs b
            WHERE NOT EXISTS (SELECT 1 FROM asset_references r WHERE r.checksum = b.checksum)
              AND NOT EXISTS (SELECT 1 FROM asset_uploads u WHERE u.checksum = b.checksum)
            RETURNING checksum
            """, as: String.self)
    }

    func assetBlobExists(checksum: String) async throws -> Bool {
        try await value("SELECT 1 FROM asset_blobs WHERE checksum = \(checksum)", as: Int32.self) != nil
    }

    // MARK: Backup and restore

    func setStoreEpoch(_ epoch: Int64) async throws {
        try await execute("UPDATE store_epoch SET epoch = \(epoch) WHERE id = 1")
    }

    func holdAssetCollection(holder: String, until expiresAt: Int64) async throws {
        try await execute("""
            INSERT INTO asset_collection_holds (holder, expires_at) VALUES (\(holder), \(expiresAt))
            ON CONFLICT (holder) DO UPDATE SET expires_at = EXCLUDED.expires_at
            """)
    }

    func releaseAssetCollection(holder: String) async throws {
        try await execute("DELETE FROM asset_collection_holds WHERE holder = \(holder)")
    }

    func isAssetCollectionHeld(at time: Int64) async throws -> Bool {
        try await value("SELECT 1 FROM asset_collection_holds WHERE expires_at > \(time) LIMIT 1", as: Int32.self) != nil
    }

    func assetBlobChecksums() async throws -> [String] {
        try await values("SELECT checksum FROM asset_blobs ORDER BY checksum", as: String.self)
    }
}
