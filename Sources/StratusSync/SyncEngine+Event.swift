import Foundation
import StratusClient

extension SyncEngine {
    /// What the engine reports, in order, to ``SyncEngineDelegate/handleEvent(_:syncEngine:)`` (CKSyncEngine's events).
    ///
    /// What the server has reaches the app through one channel. When the engine's state lives in
    /// a file (``SyncEngine/StateStorage/file(_:)``), apply every record of
    /// ``fetchedRecordZoneChanges(modifications:deletions:)`` and the saved records of
    /// ``sentRecordZoneChanges(_:)`` to local data: they are what the server now has, including
    /// the outcome of a resolved conflict. When it lives in the app's database
    /// (``SyncEngine/StateStorage/database(_:tablePrefix:)``), ``SyncEngineDelegate/applyServerChanges(_:in:)``
    /// applies them in the transaction that stores the engine's state; then no
    /// `fetchedRecordZoneChanges` event is sent, and `sentRecordZoneChanges` reports outcomes of
    /// records already applied.
    public enum Event: Sendable {
        /// The signed-in user became known or changed; local data of another account should go.
        case accountChange(userRecordName: String)
        /// The engine's persisted state changed (outbox, tokens); see ``SyncEngine/snapshot()``.
        case stateUpdate
        /// A fetch begins.
        case willFetchChanges
        /// Zones changed or deleted on the server. Local data of deleted zones should go; the engine
        /// has already forgotten them.
        case fetchedDatabaseChanges(modifications: [ZoneID], deletions: [ZoneID])
        /// Zones gone from the database, and why: their owner deleted them, or the caller's access to
        /// a shared zone ended (sharing stopped, removed, left). Delete their local data; the engine
        /// has forgotten them (and dropped their queued changes).
        case zonesRemoved([ZoneID: ZoneDeletionReason])
        /// One page of a zone's changes made elsewhere (sent only when the state lives in a file).
        case fetchedRecordZoneChanges(modifications: [CloudRecord], deletions: [RecordZoneChanges.Deletion])
        /// A zone's change token expired; the engine fetches the zone again from scratch.
        case changeTokenExpired(ZoneID?)
        /// A fetch ended.
        case didFetchChanges
        /// A send begins.
        case willSendChanges
        /// Zones created or deleted, or why not.
        case sentDatabaseChanges(saved: [ZoneID], deleted: [ZoneID], failed: [ZoneID: CloudError])
        /// One batch's outcome.
        case sentRecordZoneChanges(SyncEngine.Event.SentRecordZoneChanges)
        /// A send ended.
        case didSendChanges
        /// Server versions the delegate could not apply (``SyncEngineDelegate/applyServerChanges(_:in:)``),
        /// with its reasons: set aside until resolved (``SyncEngine/resolveSetAside(_:_:)``) or
        /// retried after an app update (``SyncEngine/Configuration/appVersion``). The other changes
        /// were applied.
        case serverVersionsSetAside([RecordID: String])
        /// The engine stopped on an error that needs the app (authentication, quota) until ``SyncEngine/resume()``.
        case halted(CloudError)
    }
}

extension SyncEngine.Event {
    /// The outcome of one sent batch.
    public struct SentRecordZoneChanges: Sendable {
        /// Records saved, as the server now has them.
        public var savedRecords: [CloudRecord] = []
        /// Records deleted on the server.
        public var deletedRecordIDs: [RecordID] = []
        /// Changes the server refused for their content: set aside, not retried until queued again.
        public var failedRecordSaves: [RecordID: CloudError] = [:]
        /// Deletions the server refused, and why.
        public var failedRecordDeletes: [RecordID: CloudError] = [:]
        /// Every change the batch carried.
        public var batch: [SyncEngine.PendingRecordZoneChange] = []
    }
}
