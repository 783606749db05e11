/// ``AssetStore`` in the SQL both drivers speak (the files themselves are in the blob store).
extension AssetStore where Self: SQLDatabase {
    package func insertAssetUpload(_ upload: StoredAssetUpload) async throws {
        try await run("""
            INSERT INTO asset_blobs (checksum, size, created_at) VALUES (\(upload.checksum), \(upload.size), \(upload.uploadedAt))
            ON CONFLICT DO NOTHING
            """)
        try await run("""
            INSERT INTO asset_uploads (receipt_hash, database_id, zone_name, record_name, field_name, uploaded_by, checksum, size, uploaded_at)
            VALUES (\(upload.receiptHash), \(upload.databaseID), \(upload.zoneName), \(upload.recordName), \(upload.fieldName),
                    \(upload.uploadedBy), \(upload.checksum), \(upload.size), \(upload.uploadedAt))
            """)
    }

    package func assetUpload(receiptHash: String) async throws -> StoredAssetUpload? {
        try await fetchOne("""
            SELECT receipt_hash, database_id, zone_name, record_name, field_name, uploaded_by, checksum, size, uploaded_at
            FROM asset_uploads WHERE receipt_hash = \(receiptHash)
            """).map {
            StoredAssetUpload(receiptHash: try $0.string(0), databaseID: try $0.int64(1), zoneName: try $0.string(2), recordName: try $0.string(3),
                              fieldName: try $0.string(4), uploadedBy: try $0.string(5), checksum: try $0.string(6), size: try $0.int64(7),
                              uploadedAt: try $0.int64(8))
        }
    }

    package func assetReferences(zoneRowID: Int64, fileChecksum: String, limit: Int) async throws -> (name: String, size: Int64, recordNames: [String])? {
        // The names that start with the checksum: itself, and with a key tag after a dot (`.`
        // sorts before `/`, and every checksum has the same length). Text compares bytewise.
        let rows = try await fetch("""
            SELECT r.checksum, b.size, r.record_name FROM asset_references r JOIN asset_blobs b ON b.checksum = r.checksum
            WHERE r.checksum >= \(fileChecksum) AND r.checksum < \(fileChecksum + "/") AND r.zone_id = \(zoneRowID)
            ORDER BY r.checksum LIMIT \(limit)
            """)
        guard let first = rows.first else { return nil }
        let name = try first.string(0)
        return (name, try first.int64(1), try rows.filter { try $0.string(0) == name }.map { try $0.string(2) })
    }

    package func recordReferencesAsset(zoneRowID: Int64, recordName: String, checksum: String) async throws -> Bool {
        try await fetchOne("""
            SELECT 1 FROM asset_references WHERE zone_id = \(zoneRowID) AND record_name = \(recordName) AND checksum = \(checksum)
            """) != nil
    }

    package func replaceAssetReferences(zoneRowID: Int64, recordName: String, checksums: Set<String>) async throws {
        try await run("DELETE FROM asset_references WHERE zone_id = \(zoneRowID) AND record_name = \(recordName)")
        guard !checksums.isEmpty else { return }
        var rows: SQLStatement = ""
        for (index, checksum) in checksums.sorted().enumerated() {
            rows = "\(rows)\(unescaped: index == 0 ? "" : ", ")(\(zoneRowID), \(recordName), \(checksum))"
        }
        try await run("INSERT INTO asset_references (zone_id, record_name, checksum) VALUES \(rows)")
    }

    package func deleteAssetUploads(before time: Int64) async throws -> Int {
        try await changedRowCount("DELETE FROM asset_uploads WHERE uploaded_at < \(time) RETURNING 1")
    }

    package func deleteUnreferencedAssetBlobs() async throws -> [String] {
        try await fetch("""
            DELETE FROM asset_blobs
            WHERE NOT EXISTS (SELECT 1 FROM asset_references r WHERE r.checksum = asset_blobs.checksum)
              AND NOT EXISTS (SELECT 1 FROM version_assets v WHERE v.checksum = asset_blobs.checksum)
              AND NOT EXISTS (SELECT 1 FROM asset_uploads u WHERE u.checksum = asset_blobs.checksum)
            RETURNING checksum
            """).map { try $0.string(0) }
    }

    package func assetBlobExists(checksum: String) async throws -> Bool {
        try await fetchOne("SELECT 1 FROM asset_blobs WHERE checksum = \(checksum)") != nil
    }

    package func assetBlobChecksums() async throws -> [String] {
        try await fetch("SELECT checksum FROM asset_blobs ORDER BY checksum").map { try $0.string(0) }
    }

    package func keepAssetReferences(zoneRowID: Int64, recordName: String, sequence: Int64) async throws {
        try await run("""
            INSERT INTO version_assets (zone_id, record_name, sequence, checksum)
            SELECT zone_id, record_name, \(sequence), checksum FROM asset_references WHERE zone_id = \(zoneRowID) AND record_name = \(recordName)
            """)
    }

    package func versionPosition(zoneRowID: Int64, recordName: String, referringTo checksum: String) async throws -> Int64? {
        try await fetchOne("""
            SELECT sequence FROM version_assets WHERE zone_id = \(zoneRowID) AND record_name = \(recordName) AND checksum = \(checksum)
            ORDER BY sequence DESC LIMIT 1
            """).map { try $0.int64(0) }
    }
}
