import StratusClient

extension SyncEngine {
    /// A record change the app has made locally and the engine must send (CKSyncEngine's
    /// `PendingRecordZoneChange`). Only the ID is queued: the record's body is asked for when a batch
    /// is built, so what is sent is always the latest.
    public enum PendingRecordZoneChange: Sendable, Hashable {
        /// Send the record's current body, asked of the delegate when the batch is built.
        case saveRecord(RecordID)
        /// Delete the record on the server.
        case deleteRecord(RecordID)

        /// The record the change is about.
        public var recordID: RecordID {
            switch self {
            case .saveRecord(let id), .deleteRecord(let id): id
            }
        }
    }

    /// A zone change the app has made locally (CKSyncEngine's `PendingDatabaseChange`).
    public enum PendingDatabaseChange: Sendable, Hashable {
        /// Create the zone on the server (creating a zone that exists succeeds).
        case saveZone(ZoneID)
        /// Delete the zone and every record in it.
        case deleteZone(ZoneID)

        /// The zone the change is about.
        public var zoneID: ZoneID {
            switch self {
            case .saveZone(let id), .deleteZone(let id): id
            }
        }

        var isDeletion: Bool {
            if case .deleteZone = self { true } else { false }
        }
    }
}
