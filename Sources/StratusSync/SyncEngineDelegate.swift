import GRDB
import StratusClient

/// The app's side of a ``SyncEngine`` (CloudKit's `CKSyncEngineDelegate`): it hands the engine
/// the records it sends and takes in what the engine reports.
///
/// The engine awaits each call before it goes on, so events arrive one at a time and in order,
/// and an event is handled before the engine acts on what follows it. A delegate must not wait,
/// inside a call, for a sync of the same engine to end (``SyncEngine/syncNow()``): that sync waits
/// for the delegate.
public protocol SyncEngineDelegate: AnyObject, Sendable {
    /// Handles one event. With the engine's state in a file, apply every record of
    /// ``SyncEngine/Event/fetchedRecordZoneChanges(modifications:deletions:)`` and the saved
    /// records of ``SyncEngine/Event/sentRecordZoneChanges(_:)`` to local data; with it in the
    /// app's database, ``applyServerChanges(_:in:)`` has applied them, and no fetched-changes
    /// event is sent.
    func handleEvent(_ event: SyncEngine.Event, syncEngine: SyncEngine) async

    /// The app's current version of a record with a pending save; nil if it no longer exists
    /// locally (its pending save is then dropped). An error (the app's store could not be read)
    /// ends the send and keeps the change queued for the next one.
    func record(for recordID: RecordID, syncEngine: SyncEngine) async throws -> CloudRecord?

    /// Applies what the server has now to local data, in `db`'s transaction, which also stores
    /// the engine's state (a fetched page's change token, a send's outcome): both commit or
    /// neither does. Called only when the engine's state lives in the app's database
    /// (``SyncEngine/StateStorage/database(_:tablePrefix:)``); changes it makes to synced tables are not
    /// queued to be sent.
    ///
    /// Returns the records it could not apply for a reason that will not fix itself (a
    /// constraint, a value the app cannot store), with the reason: the engine sets each aside
    /// (``SyncEngine/State/setAsideChanges``) and the rest of the changes commit. An error
    /// rolls the whole transaction back; the engine then fetches or sends again later. The
    /// default does nothing.
    func applyServerChanges(_ changes: ServerChanges, in db: GRDB.Database) throws -> [RecordID: String]
}

extension SyncEngineDelegate {
    public func applyServerChanges(_ changes: ServerChanges, in db: GRDB.Database) throws -> [RecordID: String] { [:] }
}
