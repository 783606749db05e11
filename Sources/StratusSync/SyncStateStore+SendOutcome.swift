import Foundation
import GRDB
import StratusClient
import StratusCore

/// What a send's outcome does to the state: sent changes leave the outbox, conflicts and refusals set changes aside.
extension SyncStateStore {
    /// What one sent batch changed in the state, applied in one transaction.
    struct SendOutcome: Sendable {
        /// Records the server now has (saved, or found already there): remembered, and their pending
        /// change removed if it was not queued again meanwhile.
        var saved: [(record: CloudRecord, version: Int64)] = []
        var deleted: [(id: RecordID, version: Int64)] = []
        /// Records whose change failed for good: moved out of the outbox with their error.
        var setAside: [(change: QueuedRecordChange, error: String)] = []
        /// Records whose server version became known (a conflict): remembered, change kept pending.
        var rebased: [CloudRecord] = []
        /// Records to forget (saved again as new: the server lost them).
        var forgotten: [RecordID] = []
        /// Creates the server had applied (their answer was lost) whose record was deleted since.
        var deletedSinceCreated: [(deletion: RecordZoneChanges.Deletion, version: Int64)] = []
        /// Pending saves of records the app no longer has: dropped.
        var dropped: [(id: RecordID, version: Int64)] = []
    }

    /// Applies a send's outcome, and hands `apply` what local data must take in (the saved
    /// records and the deletions of records not queued again meanwhile) in the same transaction;
    /// returns the records whose change was queued again meanwhile (the app holds a newer
    /// version, which stays pending).
    @discardableResult
    func apply(_ outcome: SendOutcome, handingTo apply: ServerChangesApplier? = nil) throws -> Set<RecordID> {
        try writeRecoverable { db in
            try fold(db)
            var requeued = Set<RecordID>()
            let removePending = try db.cachedStatement(sql: """
                DELETE FROM \(tables.pendingRecords) WHERE zone_name = ? AND owner = ? AND record_name = ? AND version = ?
                """)
            let clearSetAside = try db.cachedStatement(sql: "DELETE FROM \(tables.setAside) WHERE zone_name = ? AND owner = ? AND record_name = ?")
            for record in outcome.rebased { try remember(record, in: db) }
            for id in outcome.forgotten { try forget(id, in: db) }
            for (record, version) in outcome.saved {
                try remember(record, in: db)
                try removePending.execute(arguments: Self.key(record.recordID) + [version])
                if db.changesCount == 0 { requeued.insert(record.recordID) }
            }
            for (id, version) in outcome.deleted {
                try forget(id, in: db)
                try removePending.execute(arguments: Self.key(id) + [version])
            }
            for (id, version) in outcome.dropped { try removePending.execute(arguments: Self.key(id) + [version]) }
            for (deletion, version) in outcome.deletedSinceCreated {
                try removePending.execute(arguments: Self.key(deletion.recordID) + [version])
                if db.changesCount == 0 { requeued.insert(deletion.recordID) } else { try forget(deletion.recordID, in: db) }
            }
            for (queued, error) in outcome.setAside {
                let id = queued.change.recordID
                try removePending.execute(arguments: Self.key(id) + [queued.version])
                let kind = if case .saveRecord = queued.change { "save" } else { "delete" }
                try db.execute(sql: "INSERT OR REPLACE INTO \(tables.setAside) (zone_name, owner, record_name, change, error, at) VALUES (?, ?, ?, ?, ?, ?)",
                               arguments: Self.key(id) + [kind, error, Date().timeIntervalSince1970])
            }
            if !outcome.setAside.isEmpty { try boundSetAside(db) }
            for id in outcome.saved.map(\.record.recordID) + outcome.deleted.map(\.id) where !requeued.contains(id) {
                try clearSetAside.execute(arguments: Self.key(id))
            }
            if let apply {
                let changes = ServerChanges(origin: .send, modifications: outcome.saved.map(\.record).filter { !requeued.contains($0.recordID) },
                                            deletions: outcome.deletedSinceCreated.map(\.deletion).filter { !requeued.contains($0.recordID) })
                if !changes.isEmpty { try hand(changes, to: apply, in: db) }
            }
            return requeued
        }
    }

    /// Takes the server's current version of a record (nil: the server no longer has it) in
    /// place of what is pending or set aside for it, and hands it to `apply` in the same
    /// transaction.
    func takeServerVersion(_ record: CloudRecord?, deleting deletions: [RecordZoneChanges.Deletion],
                           handingTo apply: ServerChangesApplier?) throws {
        try database.write { db in
            try fold(db)
            for id in [record?.recordID].compactMap({ $0 }) + deletions.map(\.recordID) {
                try db.execute(sql: "DELETE FROM \(tables.pendingRecords) WHERE zone_name = ? AND owner = ? AND record_name = ?", arguments: Self.key(id))
                try db.execute(sql: "DELETE FROM \(tables.setAside) WHERE zone_name = ? AND owner = ? AND record_name = ?", arguments: Self.key(id))
            }
            if let record { try remember(record, in: db) }
            for deletion in deletions { try forget(deletion.recordID, in: db) }
            let changes = ServerChanges(origin: .fetch, modifications: record.map { [$0] } ?? [], deletions: deletions)
            if let apply, !changes.isEmpty { try hand(changes, to: apply, in: db) }
        }
    }

    func removePendingZone(_ change: SyncEngine.PendingDatabaseChange) throws {
        try database.write { db in
            let kind = if case .saveZone = change { "save" } else { "delete" }
            try db.execute(sql: "DELETE FROM \(tables.pendingZones) WHERE zone_name = ? AND owner = ? AND change = ?",
                           arguments: [change.zoneID.zoneName, change.zoneID.ownerRecordName ?? "", kind])
        }
    }

    /// Changes set aside, with the reason: those the server refused for their content, and
    /// server versions the app could not apply (kind `apply`, reported as saves of the record).
    func setAsideChanges() throws -> [(change: SyncEngine.PendingRecordZoneChange, reason: String, notApplied: Bool)] {
        try database.read { db in
            try Row.fetchAll(db, sql: "SELECT zone_name, owner, record_name, change, error FROM \(tables.setAside) ORDER BY at").map { row in
                let id = RecordID(recordName: row[2], zoneID: Self.zoneID(row[0], row[1]))
                let kind: String = row[3]
                return (kind == "delete" ? .deleteRecord(id) : .saveRecord(id), row[4], kind == "apply")
            }
        }
    }
}
