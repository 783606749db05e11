// The names of the previous release, kept for one release so that apps move at their own pace.

/// The previous name of ``SyncEngine/Event``.
@available(*, deprecated, renamed: "SyncEngine.Event")
public typealias SyncEvent = SyncEngine.Event

/// The previous name of ``SyncEngine/Event/SentRecordZoneChanges``.
@available(*, deprecated, renamed: "SyncEngine.Event.SentRecordZoneChanges")
public typealias SentRecordZoneChanges = SyncEngine.Event.SentRecordZoneChanges

/// The previous name of ``SyncEngine/PendingRecordZoneChange``.
@available(*, deprecated, renamed: "SyncEngine.PendingRecordZoneChange")
public typealias PendingRecordZoneChange = SyncEngine.PendingRecordZoneChange

/// The previous name of ``SyncEngine/PendingDatabaseChange``.
@available(*, deprecated, renamed: "SyncEngine.PendingDatabaseChange")
public typealias PendingDatabaseChange = SyncEngine.PendingDatabaseChange

/// The previous name of ``SyncEngine/State``.
@available(*, deprecated, renamed: "SyncEngine.State")
public typealias SyncEngineSnapshot = SyncEngine.State
