import Foundation
import StratusCore

/// The loss alarm: when one user's device deletes more than half of a zone of at least
/// ``minimumZoneRecords`` records within ``window`` of server time — counted in the database
/// (``DeletionBurstStore/countDeletions(_:zoneRowID:actor:at:window:countingFrom:alarming:)``), so
/// across instances and requests — the commit carries it: every instance's activity feed shows it,
/// the `stratus_loss_alarms_total` metric counts it, and the moment before the burst began is the
/// one to restore the zone to (`zones/restore`). History's byte budget raises it too, when it
/// evicts versions replaced within the last day (``HistoryBudget``).
package struct LossAlarm: Codable, Sendable, Equatable {
    /// How long a device's deletions count together (ms of server time).
    static let window: Int64 = 60_000
    /// The smallest zone whose loss raises the alarm.
    static let minimumZoneRecords = 100

    /// What raised the alarm.
    package enum Cause: String, Codable, Sendable {
        /// A device deleted more than half of the zone within ``window``.
        case deletions
        /// History's byte budget evicted versions replaced within the last day.
        case historyBudget
    }

    package var cause: Cause = .deletions
    /// The user and device that deleted (for the budget: the zone's owner, and no device).
    package var userRecordName: String
    package var deviceID: String
    /// The deletions of the burst, and the zone's records when it began (for the budget: the
    /// versions evicted, and the records they were of).
    package var deleted: Int
    package var zoneRecords: Int
    /// The last moment before the burst (ms): restore the zone to it. For the budget: when the
    /// youngest evicted version was replaced, before which the zone's history is no longer whole.
    package var restoreTo: Int64

    /// Counts a write's deletions by its device in the zone; the alarm, if this write raised it.
    static func count(_ deletions: Int, zone: StoredZone, stamp: RecordStamp, in transaction: any StorageTransaction) async throws -> LossAlarm? {
        guard deletions > 0 else { return nil }
        let burst = try await transaction.countDeletions(deletions, zoneRowID: zone.rowID, actor: stamp, at: stamp.timestamp, window: window,
                                                         countingFrom: minimumZoneRecords / 2 + 1) { burst in
            guard let records = burst.zoneRecords else { return false }
            return records >= minimumZoneRecords && burst.deleted * 2 > records
        }
        guard burst.alarmedAt == stamp.timestamp, let records = burst.zoneRecords else { return nil }
        return LossAlarm(userRecordName: stamp.userRecordName, deviceID: stamp.deviceID, deleted: burst.deleted, zoneRecords: records,
                         restoreTo: burst.startedAt - 1)
    }

    /// Logs the alarm as an event of the zone (``RecordLogEntry/Change/lossAlarm``) in the
    /// transaction that raised it, where webhooks read it.
    func log(zoneRowID: Int64, at time: Int64, in transaction: any StorageTransaction) async throws {
        let json = String(decoding: try JSONEncoder().encode(self), as: UTF8.self)
        try await transaction.appendRecordLog([
            RecordLogEntry(zoneRowID: zoneRowID, recordName: RecordLogEntry.zoneEventName, recordType: "",
                           sequence: try await transaction.currentChangeSequence(), change: .lossAlarm,
                           stamp: RecordStamp(timestamp: time, userRecordName: userRecordName, deviceID: deviceID), cause: json, replaced: nil),
        ])
    }
}
