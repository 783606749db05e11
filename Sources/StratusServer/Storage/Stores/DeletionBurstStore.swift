import StratusCore

/// Each device's burst of deletions in a zone, which the loss alarm counts (``LossAlarm``), in
/// the database so that every instance counts the same.
package protocol DeletionBurstStore {
    /// Adds `count` deletions by `actor` in the zone at `time` to its burst (one that began within
    /// `window` ms, or a new one), and answers the burst: when it began, its deletions, the zone's
    /// records when it began (counted once it reaches `countingFrom` deletions), and when it
    /// raised the loss alarm (``LossAlarm``), which `alarming` sets now if it holds.
    func countDeletions(_ count: Int, zoneRowID: Int64, actor: RecordStamp, at time: Int64, window: Int64, countingFrom: Int,
                        alarming: @Sendable (DeletionBurst) -> Bool) async throws -> DeletionBurst
    /// Removes the deletion bursts that began before `time` (ms): no later deletion counts in them.
    func purgeDeletionBursts(startedBefore time: Int64) async throws
}
