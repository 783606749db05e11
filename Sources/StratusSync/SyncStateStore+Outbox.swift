import Foundation
import GRDB
import StratusClient
import StratusCore

/// The outbox: queuing record and zone changes, folding the log, and reading what is pending.
extension SyncStateStore {
    /// A queued record change and the version it was queued at (newer queuing replaces it).
    struct QueuedRecordChange: Sendable, Hashable {
        var change: SyncEngine.PendingRecordZoneChange
        var version: Int64
    }

    /// The `createKey` a queued save carries while it creates its record: the same every time
    /// that queuing is sent, and never another queuing's (versions only grow).
    func createKey(of queued: QueuedRecordChange) -> String {
        "\(createKeyPrefix).\(queued.version)"
    }

    func addPending(_ changes: [SyncEngine.PendingRecordZoneChange]) throws {
        try database.write { db in
            let statement = try db.cachedStatement(sql: """
                INSERT INTO \(tables.outbox) (zone_name, owner, record_name, change) VALUES (?, ?, ?, ?)
                """)
            for change in changes {
                let kind = if case .saveRecord = change { "save" } else { "delete" }
                try statement.execute(arguments: Self.key(change.recordID) + [kind])
            }
            try fold(db)
        }
    }

    /// Moves this engine's changes from the outbox into `pending_records`, in order, so that a
    /// later change of a record replaces an earlier one, and clears their set-aside entries. The
    /// outbox keeps a marker row at the last sequence folded (`change = ''`): an emptied rowid
    /// table would number its next row from 1 again, and versions must only grow.
    func fold(_ db: GRDB.Database) throws {
        let t = tables
        guard let last = try Int64.fetchOne(db, sql: "SELECT MAX(sequence) FROM \(t.outbox) WHERE change <> '' AND \(t.ownsChange)") else { return }
        try db.execute(sql: """
            INSERT OR REPLACE INTO \(t.pendingRecords) (zone_name, owner, record_name, change, version)
                SELECT zone_name, owner, record_name, change, sequence FROM \(t.outbox)
                WHERE change <> '' AND \(t.ownsChange) ORDER BY sequence;
            DELETE FROM \(t.setAside) WHERE (zone_name, owner, record_name) IN (
                SELECT zone_name, owner, record_name FROM \(t.outbox) WHERE change <> '' AND \(t.ownsChange));
            """)
        try db.execute(sql: "DELETE FROM \(t.outbox) WHERE sequence <= ? AND (change = '' OR \(t.ownsChange))", arguments: [last])
        try db.execute(sql: "INSERT OR IGNORE INTO \(t.outbox) (sequence, zone_name, owner, record_name, change) VALUES (?, '', '', '', '')",
                       arguments: [last])
    }

    /// The highest sequence in the outbox.
    private func outboxEnd(_ db: GRDB.Database) throws -> Int64 {
        try Int64.fetchOne(db, sql: "SELECT MAX(sequence) FROM \(tables.outbox)") ?? 0
    }

    func addPending(_ changes: [SyncEngine.PendingDatabaseChange]) throws {
        try database.write { db in
            try fold(db)
            var version = try outboxEnd(db) + 1
            for change in changes {
                let kind = if case .saveZone = change { "save" } else { "delete" }
                try db.execute(sql: "INSERT OR REPLACE INTO \(tables.pendingZones) (zone_name, owner, change, version) VALUES (?, ?, ?, ?)",
                               arguments: [change.zoneID.zoneName, change.zoneID.ownerRecordName ?? "", kind, version])
                if case .deleteZone(let zoneID) = change {
                    try forgetZone(zoneID, in: db, keepingPendingZone: true)
                }
                version += 1
            }
        }
    }

    /// The oldest pending record changes queued after `version`, of one zone (the zone of the
    /// oldest of them), at most `limit`.
    func nextPendingBatch(limit: Int, after version: Int64) throws -> [QueuedRecordChange] {
        try database.write { db in
            try fold(db)
            guard let first = try Row.fetchOne(db, sql: """
                SELECT zone_name, owner FROM \(tables.pendingRecords) WHERE version > ? ORDER BY version LIMIT 1
                """, arguments: [version]) else { return [] }
            let zoneName: String = first[0]
            let owner: String = first[1]
            return try Row.fetchAll(db, sql: """
                SELECT record_name, change, version FROM \(tables.pendingRecords)
                WHERE zone_name = ? AND owner = ? AND version > ? ORDER BY version LIMIT ?
                """, arguments: [zoneName, owner, version, limit]).map { row in
                let id = RecordID(recordName: row[0], zoneID: Self.zoneID(zoneName, owner))
                let kind: String = row[1]
                return QueuedRecordChange(change: kind == "save" ? .saveRecord(id) : .deleteRecord(id), version: row[2])
            }
        }
    }

    func pendingRecordChanges() throws -> [SyncEngine.PendingRecordZoneChange] {
        try database.write { db in
            try fold(db)
            return try Row.fetchAll(db, sql: "SELECT zone_name, owner, record_name, change FROM \(tables.pendingRecords) ORDER BY version").map { row in
                let id = RecordID(recordName: row[2], zoneID: Self.zoneID(row[0], row[1]))
                let kind: String = row[3]
                return kind == "save" ? .saveRecord(id) : .deleteRecord(id)
            }
        }
    }

    func pendingRecordCount() throws -> Int {
        try database.write { db in
            try fold(db)
            return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(tables.pendingRecords)") ?? 0
        }
    }

    func pendingDatabaseChanges() throws -> [SyncEngine.PendingDatabaseChange] {
        try database.read { db in
            try Row.fetchAll(db, sql: "SELECT zone_name, owner, change FROM \(tables.pendingZones) ORDER BY version").map { row in
                let zoneID = Self.zoneID(row[0], row[1])
                let kind: String = row[2]
                return kind == "save" ? .saveZone(zoneID) : .deleteZone(zoneID)
            }
        }
    }
}
