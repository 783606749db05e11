import StratusClient

/// A record change the app has made locally and the engine must send (CKSyncEngine's
/// `PendingRecordZoneChange`). Only the ID is queued: the record's body is asked for when a batch
/// is built, so what is sent is always the latest.
public enum PendingRecordZoneChange: Sendable, Hashable {
    case saveRecord(RecordID)
    case deleteRecord(RecordID)

    public var recordID: RecordID {
        switch self {
        case .saveRecord(let id), .deleteRecord(let id): id
        }
    }
}

/// A zone change the app has made locally (CKSyncEngine's `PendingDatabaseChange`).
public enum PendingDatabaseChange: Sendable, Hashable {
    case saveZone(ZoneID)
    case deleteZone(ZoneID)

    public var zoneID: ZoneID {
        switch self {
        case .saveZone(let id), .deleteZone(let id): id
        }
    }

    var isDeletion: Bool {
        if case .deleteZone = self { true } else { false }
    }
}
