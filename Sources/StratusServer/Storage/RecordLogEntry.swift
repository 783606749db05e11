import StratusCore

/// One change of a record in the record log (``RecordLogStore``): what changed, when, by whom and
/// from which device, and the version it replaced.
///
/// The log never holds a record's current version (its row in `record_rows` is that): an entry
/// keeps the version its change replaced, so a record's history is its row and then its entries,
/// newest first.
package struct RecordLogEntry: Sendable, Equatable {
    /// What the change did.
    package enum Change: Int64, Sendable {
        /// A record came to be where no record was (a name never used, or one whose record was deleted).
        case create = 0
        /// A live record was saved again, or restored to an earlier version.
        case update = 1
        /// A record was deleted, or deleted with the record it pointed at (``RecordLogEntry/cause``).
        case delete = 2
        /// A custom zone was created, or made again by its restore: an event of the zone itself
        /// (``RecordLogEntry/zoneEventName``), no record's.
        case zoneCreate = 3
        /// A zone was deleted, after the deletions of its live records (an entry each): an event of
        /// the zone itself (``RecordLogEntry/zoneEventName``).
        case zoneDelete = 4
        /// A record's earlier version made current again by a history restore (`records/restore`,
        /// `zones/restore`), or a deleted record brought back by one.
        case restore = 5
        /// The loss alarm (``LossAlarm``) went off in the zone: an event of the zone itself
        /// (``RecordLogEntry/zoneEventName``), the alarm's JSON in ``RecordLogEntry/cause``.
        case lossAlarm = 6

        /// Whether the change is a record's (not a zone's event).
        package var isRecordChange: Bool { [.create, .update, .delete, .restore].contains(self) }
    }

    /// The record name of a zone's own events (``Change/zoneCreate``, ``Change/zoneDelete``),
    /// which no record can have.
    package static let zoneEventName = ""

    package var zoneRowID: Int64
    package var recordName: String
    /// The record's type after the change.
    package var recordType: String
    /// The change's place in the log: the change sequence of the version it made.
    package var sequence: Int64
    package var change: Change
    /// Who made the change, from which device, and when (server time).
    package var stamp: RecordStamp
    /// For a deletion a `DELETE_SELF` reference cascaded to: the record whose deletion began it.
    /// For a ``Change/lossAlarm``: the alarm, as JSON.
    package var cause: String?
    /// The version the change replaced: a live record, or a tombstone (a record brought back after
    /// its deletion). Nil for a create of a name never used, and once the version is evicted.
    package var replaced: StoredRecord?

    package init(zoneRowID: Int64, recordName: String, recordType: String, sequence: Int64, change: Change, stamp: RecordStamp,
                 cause: String? = nil, replaced: StoredRecord?) {
        self.zoneRowID = zoneRowID
        self.recordName = recordName
        self.recordType = recordType
        self.sequence = sequence
        self.change = change
        self.stamp = stamp
        self.cause = cause
        self.replaced = replaced
    }
}

/// A version of a record as its history lists it: the record as it was (a tombstone for a
/// deletion), and where it stands in the log.
package struct RecordVersion: Sendable, Equatable {
    /// The version: its change tag, type, fields and stamps. `modified` tells who made it.
    package var record: StoredRecord
    /// The position after which older versions follow: the sequence of the change that replaced
    /// this version (the record's current version: its own sequence).
    package var position: Int64
    /// For a version a cascaded deletion replaced, the record whose deletion began it.
    package var cause: String?

    package init(record: StoredRecord, position: Int64, cause: String? = nil) {
        self.record = record
        self.position = position
        self.cause = cause
    }
}

/// What a record was at a moment, by the record log (``RecordLogStore/recordState(zoneRowID:recordName:at:)``).
package enum RecordState: Sendable, Equatable {
    /// No change since: the record is as its row is (or, without a row, was never there).
    case unchanged
    /// The record was not there: it was created later, or was deleted then.
    case absent
    /// The version current then, changed since.
    case version(StoredRecord)
}

/// One device's deletions in a zone within a minute (``DeletionBurstStore/countDeletions(_:zoneRowID:actor:at:window:countingFrom:alarming:)``).
package struct DeletionBurst: Sendable, Equatable {
    package var startedAt: Int64
    package var deleted: Int
    /// The zone's records when the burst began (its live records and the burst's deletions),
    /// once counted.
    package var zoneRecords: Int?
    /// When the burst raised the loss alarm.
    package var alarmedAt: Int64?
}
