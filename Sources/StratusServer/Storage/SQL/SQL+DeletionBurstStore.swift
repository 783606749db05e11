import StratusCore

/// ``DeletionBurstStore`` in the SQL both drivers speak.
extension DeletionBurstStore where Self: SQLDatabase {
    package func countDeletions(_ count: Int, zoneRowID: Int64, actor stamp: RecordStamp, at time: Int64, window: Int64, countingFrom: Int,
                                alarming: @Sendable (DeletionBurst) -> Bool) async throws -> DeletionBurst {
        let actor = RecordActors.id(of: stamp)
        var burst = DeletionBurst(startedAt: time, deleted: count, zoneRecords: nil, alarmedAt: nil)
        if let row = try await fetchOne("""
            SELECT started_at, deleted, zone_records, alarmed_at FROM deletion_bursts WHERE zone_id = \(zoneRowID) AND actor = \(actor)
            """), try row.int64(0) > time - window {
            burst = DeletionBurst(startedAt: try row.int64(0), deleted: Int(try row.int64(1)) + count,
                                  zoneRecords: try row.optionalInt64(2).map(Int.init), alarmedAt: try row.optionalInt64(3))
        }
        if burst.zoneRecords == nil, burst.deleted >= countingFrom {
            let live = try await fetchOne("SELECT COUNT(*) FROM record_rows WHERE zone_id = \(zoneRowID) AND deleted = \(literal: false)")?.int64(0) ?? 0
            burst.zoneRecords = Int(live) + burst.deleted
        }
        if burst.alarmedAt == nil, alarming(burst) { burst.alarmedAt = time }
        try await run("""
            INSERT INTO deletion_bursts (zone_id, actor, started_at, deleted, zone_records, alarmed_at)
            VALUES (\(zoneRowID), \(actor), \(burst.startedAt), \(burst.deleted), \(burst.zoneRecords), \(burst.alarmedAt))
            ON CONFLICT (zone_id, actor) DO UPDATE SET started_at = excluded.started_at, deleted = excluded.deleted,
                zone_records = excluded.zone_records, alarmed_at = excluded.alarmed_at
            """)
        return burst
    }

    package func purgeDeletionBursts(startedBefore time: Int64) async throws {
        try await run("DELETE FROM deletion_bursts WHERE started_at < \(time)")
    }
}
