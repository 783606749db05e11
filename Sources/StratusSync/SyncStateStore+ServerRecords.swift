import Foundation
import GRDB
import StratusClient
import StratusCore

/// The last known server version of records and zones, and fetched pages applied with their token.
extension SyncStateStore {
    /// The last known server version of records: system fields and fields.
    func serverVersions(_ ids: [RecordID]) throws -> [RecordID: CloudRecord] {
        try database.read { db in
            var found: [RecordID: CloudRecord] = [:]
            let statement = try db.cachedStatement(sql: """
                SELECT record_type, change_tag, created_at, created_by, created_device, modified_at, modified_by, modified_device,
                       parent, share, fields FROM \(tables.records) WHERE zone_name = ? AND owner = ? AND record_name = ?
                """)
            for id in ids {
                guard let row = try Row.fetchOne(statement, arguments: Self.key(id)) else { continue }
                found[id] = try Self.record(id, row)
            }
            return found
        }
    }

    /// The records of a zone the engine knows the server has, with their types.
    func knownRecords(in zoneID: ZoneID) throws -> [RecordID: String] {
        try database.read { db in
            var known: [RecordID: String] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT record_name, record_type FROM \(tables.records) WHERE zone_name = ? AND owner = ?",
                                        arguments: [zoneID.zoneName, zoneID.ownerRecordName ?? ""]) {
                known[RecordID(recordName: row[0], zoneID: zoneID)] = row[1]
            }
            return known
        }
    }

    /// The zones the device holds server records of, except those it is about to create.
    func knownZones() throws -> Set<ZoneID> {
        try database.read { db in
            Set(try Row.fetchAll(db, sql: """
                SELECT DISTINCT zone_name, owner FROM \(tables.records)
                WHERE (zone_name, owner) NOT IN (SELECT zone_name, owner FROM \(tables.pendingZones) WHERE change = 'save')
                """).map { Self.zoneID($0[0], $0[1]) })
        }
    }

    /// A fetched page, in one transaction: records with a change still pending are left alone
    /// (the send will meet the server's version as a conflict); the others are remembered or
    /// forgotten, and the zone's token is stored unless `storingToken` is false (a page in the
    /// middle of a listing that must end before it counts). What the app has not seen yet — the
    /// settled modifications whose change tag the engine did not know, and the settled
    /// deletions — goes to `apply` in the same transaction, and is returned.
    func applyFetched(_ page: RecordZoneChanges, storingToken: Bool = true,
                      handingTo apply: ServerChangesApplier? = nil) throws -> (modifications: [CloudRecord], deletions: [RecordZoneChanges.Deletion]) {
        try writeRecoverable { db in
            try fold(db)
            // What is pending and what is known, asked of the page's zone for all its records at once.
            let names = page.modifications.map(\.recordID.recordName) + page.deletions.map(\.recordID.recordName)
            let pending = try Set(self.names(in: tables.pendingRecords, of: page.zoneID, among: names, in: db).map(\.0))
            let tags = try Dictionary(self.names(in: tables.records, of: page.zoneID, among: names, with: "change_tag", in: db),
                                      uniquingKeysWith: { $1 })
            func isPending(_ id: RecordID) -> Bool { pending.contains(id.recordName) }
            var news: [CloudRecord] = []
            news.reserveCapacity(page.modifications.count)
            var remembered: [CloudRecord] = []
            remembered.reserveCapacity(page.modifications.count)
            for record in page.modifications where !isPending(record.recordID) {
                if tags[record.recordID.recordName] != record.changeTag { news.append(record) }
                remembered.append(record)
            }
            try remember(remembered, in: db)
            var deletions: [RecordZoneChanges.Deletion] = []
            for deletion in page.deletions where !isPending(deletion.recordID) {
                try forget(deletion.recordID, in: db)
                deletions.append(deletion)
            }
            if storingToken { try setToken(page.changeToken.rawValue, scope: Self.zoneScope(page.zoneID), in: db) }
            let changes = ServerChanges(origin: .fetch, modifications: news, deletions: deletions)
            if let apply, !changes.isEmpty {
                // A record applied now needs setting aside no more (asked once a page: usually none is).
                if try Bool.fetchOne(db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM \(tables.setAside) WHERE change = 'apply')")) == true {
                    let clear = try db.cachedStatement(sql: "DELETE FROM \(tables.setAside) WHERE zone_name = ? AND owner = ? AND record_name = ? AND change = 'apply'")
                    for record in news { try clear.execute(arguments: Self.key(record.recordID)) }
                }
                try hand(changes, to: apply, in: db)
            }
            return (news, deletions)
        }
    }

    /// Forgets everything about zones the server deleted, in one transaction that also hands
    /// `apply` those of them that are gone for good (`removed`; the others were created again).
    func forgetZones(_ zoneIDs: [ZoneID], removed: [ZoneID: ZoneDeletionReason], handingTo apply: ServerChangesApplier?) throws {
        guard !zoneIDs.isEmpty else { return }
        try database.write { db in
            try fold(db)
            for zoneID in zoneIDs { try forgetZone(zoneID, in: db, keepingPendingZone: false) }
            if let apply, !removed.isEmpty { try hand(ServerChanges(origin: .fetch, removedZones: removed), to: apply, in: db) }
        }
    }

    /// Hands `changes` to `apply` as the server's changes (nothing it writes is queued to be
    /// sent), and sets aside the records it could not apply, with its reasons (as changes of kind
    /// `apply`: the server's version, not applied here).
    func hand(_ changes: ServerChanges, to apply: ServerChangesApplier, in db: GRDB.Database) throws {
        let refused = try SyncEngine.applyingServerChanges(in: db, flag: tables.applying, outbox: tables.outbox) { try apply(changes, db) }
        let now = Date().timeIntervalSince1970
        for (id, reason) in refused {
            try db.execute(sql: "INSERT OR REPLACE INTO \(tables.setAside) (zone_name, owner, record_name, change, error, at) VALUES (?, ?, ?, ?, ?, ?)",
                           arguments: Self.key(id) + ["apply", reason, now])
        }
        if !refused.isEmpty { try boundSetAside(db) }
    }

    /// The most changes kept set aside; past it the oldest go, counted (``setAsideDropped()``).
    static let maximumSetAside = 1000

    /// Drops the oldest set-aside changes past ``maximumSetAside`` and counts them.
    func boundSetAside(_ db: GRDB.Database) throws {
        let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(tables.setAside)") ?? 0
        guard count > Self.maximumSetAside else { return }
        try db.execute(sql: """
            DELETE FROM \(tables.setAside) WHERE (zone_name, owner, record_name) IN (
                SELECT zone_name, owner, record_name FROM \(tables.setAside) ORDER BY at LIMIT ?)
            """, arguments: [count - Self.maximumSetAside])
        let dropped = try Int(String.fetchOne(db, sql: "SELECT value FROM \(tables.meta) WHERE key = 'setAsideDropped'") ?? "0") ?? 0
        try db.execute(sql: "INSERT OR REPLACE INTO \(tables.meta) (key, value) VALUES ('setAsideDropped', ?)",
                       arguments: [String(dropped + count - Self.maximumSetAside)])
    }

    /// How many set-aside changes were dropped, oldest first, to keep the list bounded.
    func setAsideDropped() throws -> Int {
        try Int(meta("setAsideDropped") ?? "0") ?? 0
    }

    func setDatabaseToken(_ token: ServerChangeToken) throws {
        try database.write { db in try setToken(token.rawValue, scope: "database", in: db) }
    }
}
