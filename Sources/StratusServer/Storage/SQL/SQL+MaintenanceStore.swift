/// ``MaintenanceStore`` in the SQL both drivers speak.
extension MaintenanceStore where Self: SQLDatabase {
    package func setStoreEpoch(_ epoch: Int64) async throws {
        try await run("UPDATE store_epoch SET epoch = \(epoch) WHERE id = 1")
    }

    package func holdAssetCollection(holder: String, until expiresAt: Int64) async throws {
        try await run("""
            INSERT INTO asset_collection_holds (holder, expires_at) VALUES (\(holder), \(expiresAt))
            ON CONFLICT (holder) DO UPDATE SET expires_at = EXCLUDED.expires_at
            """)
    }

    package func releaseAssetCollection(holder: String) async throws {
        try await run("DELETE FROM asset_collection_holds WHERE holder = \(holder)")
    }

    package func isAssetCollectionHeld(at time: Int64) async throws -> Bool {
        try await fetchOne("SELECT 1 FROM asset_collection_holds WHERE expires_at > \(time) LIMIT 1") != nil
    }

    package func purgeTombstones(before time: Int64) async throws -> Int {
        try await run("""
            UPDATE zones SET purged_sequence = \(function: .greatest)(purged_sequence, (
                SELECT MAX(sequence) FROM record_rows WHERE zone_id = zones.id AND deleted = \(literal: true) AND modified_at < \(time)))
            WHERE deleted = \(literal: false)
              AND EXISTS (SELECT 1 FROM record_rows WHERE zone_id = zones.id AND deleted = \(literal: true) AND modified_at < \(time))
            """)
        var purged = try await changedRowCount("DELETE FROM record_rows WHERE deleted = \(literal: true) AND modified_at < \(time) RETURNING 1")
        try await run("""
            UPDATE databases SET purged_sequence = \(function: .greatest)(purged_sequence, (
                SELECT MAX(change_sequence) FROM zones WHERE database_id = databases.id AND deleted = \(literal: true) AND deleted_at < \(time)))
            WHERE EXISTS (SELECT 1 FROM zones WHERE database_id = databases.id AND deleted = \(literal: true) AND deleted_at < \(time))
            """)
        // The zone with the highest id stays, deleted or not: SQLite gives a new row the highest
        // id plus one (PostgreSQL's identity sequence never reuses one), so no zone ever gets the
        // id of a purged one, whose tokens would then pass for the new zone's and skip its first
        // changes.
        purged += try await changedRowCount("""
            DELETE FROM zones WHERE deleted = \(literal: true) AND deleted_at < \(time) AND id < (SELECT MAX(id) FROM zones) RETURNING 1
            """)
        return purged
    }
}
