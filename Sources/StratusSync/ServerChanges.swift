import StratusClient

/// What local data must take in because the server has it now: a fetched page, the records a
/// send saved (including the outcome of a resolved conflict), or zones gone from the database.
///
/// An engine whose state lives in the app's database (``SyncEngine/StateStorage/database(_:tablePrefix:)``)
/// hands it to ``SyncEngineDelegate/applyServerChanges(_:in:)`` inside the transaction that
/// stores its change token or its send's outcome, so local data and the engine's state commit
/// together.
public struct ServerChanges: Sendable {
    /// Why the server's version is news.
    public enum Origin: Sendable {
        /// Changes made elsewhere, fetched.
        case fetch
        /// Records this device sent, as the server saved them: usually what local data already
        /// holds, except where a conflict resolved into something else.
        case send
    }

    /// Where the changes come from: a fetch, the answer to a send, or zones removed.
    public var origin: Origin
    /// Records as the server now has them.
    public var modifications: [CloudRecord]
    /// Records deleted on the server.
    public var deletions: [RecordZoneChanges.Deletion]
    /// Zones gone from the database, and why: their local data should go.
    public var removedZones: [ZoneID: ZoneDeletionReason]

    /// Changes from their parts.
    public init(origin: Origin, modifications: [CloudRecord] = [], deletions: [RecordZoneChanges.Deletion] = [],
                removedZones: [ZoneID: ZoneDeletionReason] = [:]) {
        self.origin = origin
        self.modifications = modifications
        self.deletions = deletions
        self.removedZones = removedZones
    }

    var isEmpty: Bool { modifications.isEmpty && deletions.isEmpty && removedZones.isEmpty }
}
