import Foundation
import GRDB
import StratusClient
import StratusCore

/// The engine's state: the outbox of pending changes, change tokens, and the last known server
/// version (system fields and fields) of every record — in a SQLite file of its own, or in tables
/// of the app's GRDB database (``SyncEngine/StateStorage``).
///
/// Record changes are queued by appending to the outbox, an append-only log (a rowid table, the
/// cheapest insert SQLite has) that the app's own triggers may write in the app's transactions.
/// Before the engine reads what is pending, it folds the log into `pending_records`, where a later
/// change of a record replaces an earlier one, in one transaction; the log's sequence numbers
/// become the changes' versions.
///
/// Every write is one transaction. In its own file, queuing is durable when it returns (WAL,
/// `synchronous = FULL`); what the server told the engine (fetched pages with their token, a
/// send's outcome) is written with `synchronous = NORMAL`: a power cut may roll it back, never
/// tear it, and the engine then fetches those pages again or resends what is still queued — which
/// the server recognises. In the app's database the same holds when it is in WAL mode (a
/// `DatabasePool`); in a rollback journal, where `NORMAL` could corrupt the file in a power cut, the
/// app's settings apply.
final class SyncStateStore: Sendable {
    private let database: any DatabaseWriter
    private let ownsFile: Bool
    /// Whether what the server told the engine is written with `synchronous = NORMAL`: in WAL mode.
    private let relaxesRecoverableWrites: Bool
    private let tables: Tables
    /// This store's name in the create keys it gives queued creates: random, made with the store.
    private let createKeyPrefix: String

    /// The names of the store's tables.
    struct Tables: Sendable {
        var pendingRecords, pendingZones, tokens, records, setAside, meta: String
        /// The log record changes are appended to; shared by the engines of one database.
        var outbox: String
        /// The one-row flag set while the server's changes are applied
        /// (``SyncEngine/isApplyingServerChanges(tablePrefix:)``).
        var applying: String
        /// Which of the outbox's changes are this engine's: its own zones' (`owner = ''`) for the
        /// private and public databases, other users' for the shared one.
        var ownsChange: String

        init(prefix: String, outboxPrefix: String, scope: DatabaseScope) {
            (pendingRecords, pendingZones, tokens, records, setAside, meta) =
                ("\(prefix)pending_records", "\(prefix)pending_zones", "\(prefix)tokens", "\(prefix)records", "\(prefix)set_aside", "\(prefix)meta")
            outbox = SyncEngine.outboxTable(tablePrefix: outboxPrefix)
            applying = SyncEngine.applyingTable(tablePrefix: outboxPrefix)
            ownsChange = scope == .shared ? "owner <> ''" : "owner = ''"
        }
    }

    /// Opens (or creates) a state file of its own.
    convenience init(path: String, scope: DatabaseScope = .private) throws {
        var configuration = Configuration()
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
        // Another connection to the file (an app extension's, or a killed app's still closing)
        // makes writes wait rather than fail.
        configuration.busyMode = .timeout(10)
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        try queue.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA journal_mode = WAL") }
        let tables = Tables(prefix: "", outboxPrefix: "", scope: scope)
        try Self.fileMigrator(tables).migrate(queue)
        try self.init(database: queue, tables: tables, ownsFile: true)
    }

    /// Opens (or creates) the state's tables in an app's database.
    convenience init(database: any DatabaseWriter, tablePrefix: String, scope: DatabaseScope) throws {
        let tables = Tables(prefix: "\(tablePrefix)\(scope.rawValue)_", outboxPrefix: tablePrefix, scope: scope)
        // Created in place rather than by a `DatabaseMigrator`, whose identifiers would mix with
        // the app's own (and make GRDB's `eraseDatabaseOnSchemaChange` erase the app's data).
        try database.write { db in try db.execute(sql: Self.schema(tables)) }
        try self.init(database: database, tables: tables, ownsFile: false)
    }

    private init(database: any DatabaseWriter, tables: Tables, ownsFile: Bool) throws {
        self.database = database
        self.tables = tables
        self.ownsFile = ownsFile
        relaxesRecoverableWrites = try ownsFile || database.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") } == "wal"
        let key = "createKeyPrefix"
        createKeyPrefix = try database.write { db in
            try db.execute(sql: "INSERT OR IGNORE INTO \(tables.meta) (key, value) VALUES (?, ?)", arguments: [key, UUID().uuidString])
            return try String.fetchOne(db, sql: "SELECT value FROM \(tables.meta) WHERE key = ?", arguments: [key])!
        }
    }

    /// The connection's `journal_mode` and `synchronous` pragmas, read back from SQLite.
    func durability() throws -> (journalMode: String, synchronous: Int) {
        try database.read { db in
            (try String.fetchOne(db, sql: "PRAGMA journal_mode") ?? "", try Int.fetchOne(db, sql: "PRAGMA synchronous") ?? -1)
        }
    }

    /// Every table, created if missing.
    private static func schema(_ t: Tables) -> String {
        let create = "CREATE TABLE IF NOT EXISTS"
        return """
            \(create) \(t.pendingRecords) (
                zone_name TEXT NOT NULL, owner TEXT NOT NULL, record_name TEXT NOT NULL,
                change TEXT NOT NULL, version INTEGER NOT NULL,
                PRIMARY KEY (zone_name, owner, record_name)
            ) WITHOUT ROWID;
            CREATE INDEX IF NOT EXISTS \(t.pendingRecords)_order ON \(t.pendingRecords)(version);
            \(create) \(t.pendingZones) (
                zone_name TEXT NOT NULL, owner TEXT NOT NULL, change TEXT NOT NULL, version INTEGER NOT NULL,
                PRIMARY KEY (zone_name, owner)
            ) WITHOUT ROWID;
            \(create) \(t.tokens) (scope TEXT PRIMARY KEY NOT NULL, token TEXT NOT NULL) WITHOUT ROWID;
            \(create) \(t.records) (
                zone_name TEXT NOT NULL, owner TEXT NOT NULL, record_name TEXT NOT NULL,
                record_type TEXT NOT NULL, change_tag TEXT NOT NULL,
                created_at INTEGER, created_by TEXT, created_device TEXT,
                modified_at INTEGER, modified_by TEXT, modified_device TEXT,
                parent TEXT, share TEXT, fields BLOB,
                PRIMARY KEY (zone_name, owner, record_name)
            ) WITHOUT ROWID;
            \(create) \(t.setAside) (
                zone_name TEXT NOT NULL, owner TEXT NOT NULL, record_name TEXT NOT NULL,
                change TEXT NOT NULL, error TEXT NOT NULL, at REAL NOT NULL,
                PRIMARY KEY (zone_name, owner, record_name)
            ) WITHOUT ROWID;
            \(create) \(t.meta) (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL) WITHOUT ROWID;
            CREATE TABLE IF NOT EXISTS \(t.outbox) (
                sequence INTEGER PRIMARY KEY, zone_name TEXT NOT NULL, owner TEXT NOT NULL, record_name TEXT NOT NULL, change TEXT NOT NULL
            );
            \(create) \(t.applying) (id INTEGER PRIMARY KEY CHECK (id = 1), applying INTEGER NOT NULL);
            INSERT OR IGNORE INTO \(t.applying) (id, applying) VALUES (1, 0);
            """
    }

    private static func fileMigrator(_ tables: Tables) -> DatabaseMigrator {
        var migrator = DatabaseMigrator()
        // v1 had every table but the outbox: v2 creates it in files made by v1.
        migrator.registerMigration("v1") { db in try db.execute(sql: schema(tables)) }
        migrator.registerMigration("v2") { db in
            try db.execute(sql: schema(tables))
            // v1 numbered queued changes from a counter in `meta`: the outbox continues after it.
            if let version = try String.fetchOne(db, sql: "SELECT value FROM \(tables.meta) WHERE key = 'version'").flatMap(Int64.init), version > 0 {
                try db.execute(sql: "INSERT OR IGNORE INTO \(tables.outbox) (sequence, zone_name, owner, record_name, change) VALUES (?, '', '', '', '')",
                               arguments: [version])
            }
        }
        // v3 adds the flag set while the server's changes are applied.
        migrator.registerMigration("v3") { db in try db.execute(sql: schema(tables)) }
        return migrator
    }

    // MARK: Outbox

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
    private func fold(_ db: GRDB.Database) throws {
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

    // MARK: Outcomes of a send

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

    // MARK: Known server records

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
    private func hand(_ changes: ServerChanges, to apply: ServerChangesApplier, in db: GRDB.Database) throws {
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
    private func boundSetAside(_ db: GRDB.Database) throws {
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

    // MARK: Tokens and meta

    func databaseToken() throws -> ServerChangeToken? { try token(scope: "database") }
    func zoneToken(_ zoneID: ZoneID) throws -> ServerChangeToken? { try token(scope: Self.zoneScope(zoneID)) }

    func resetZoneToken(_ zoneID: ZoneID) throws {
        try database.write { db in try db.execute(sql: "DELETE FROM \(tables.tokens) WHERE scope = ?", arguments: [Self.zoneScope(zoneID)]) }
    }

    /// Every token, by scope (`database`, `zone:<owner>:<name>`), for diagnostics.
    func allTokens() throws -> [String: String] {
        try database.read { db in
            Dictionary(uniqueKeysWithValues: try Row.fetchAll(db, sql: "SELECT scope, token FROM \(tables.tokens)").map { ($0[0], $0[1]) })
        }
    }

    private func token(scope: String) throws -> ServerChangeToken? {
        try database.read { db in
            try String.fetchOne(db, sql: "SELECT token FROM \(tables.tokens) WHERE scope = ?", arguments: [scope]).map(ServerChangeToken.init)
        }
    }

    func meta(_ key: String) throws -> String? {
        try database.read { db in try String.fetchOne(db, sql: "SELECT value FROM \(tables.meta) WHERE key = ?", arguments: [key]) }
    }

    func setMeta(_ key: String, _ value: String?) throws {
        try database.write { db in
            if let value {
                try db.execute(sql: "INSERT OR REPLACE INTO \(tables.meta) (key, value) VALUES (?, ?)", arguments: [key, value])
            } else {
                try db.execute(sql: "DELETE FROM \(tables.meta) WHERE key = ?", arguments: [key])
            }
        }
    }

    /// Forgets every token and known record, so the next fetch brings everything again.
    func forgetServerState() throws {
        try database.write { db in
            for table in [tables.tokens, tables.records] { try db.execute(sql: "DELETE FROM \(table)") }
        }
    }

    /// Forgets the account's data: tokens and known records (after the user changed).
    func resetForNewAccount() throws {
        try database.write { db in
            for table in [tables.tokens, tables.records, tables.setAside] { try db.execute(sql: "DELETE FROM \(table)") }
        }
    }

    /// A transaction whose loss in a power cut the engine recovers from (see the type's comment).
    private func writeRecoverable<T>(_ body: (GRDB.Database) throws -> T) throws -> T {
        guard relaxesRecoverableWrites else { return try database.write(body) }
        return try database.writeWithoutTransaction { db in
            // The connection's own setting comes back after (FULL in a file of the engine's).
            let setting = try Int.fetchOne(db, sql: "PRAGMA synchronous") ?? 2
            if setting > 1 { try db.execute(sql: "PRAGMA synchronous = NORMAL") }
            defer { if setting > 1 { try? db.execute(sql: "PRAGMA synchronous = \(setting)") } }
            var result: T?
            try db.inTransaction {
                result = try body(db)
                return .commit
            }
            return result!
        }
    }

    // MARK: Rows

    static func zoneID(_ name: String, _ owner: String) -> ZoneID {
        ZoneID(zoneName: name, ownerRecordName: owner.isEmpty ? nil : owner)
    }

    private static func key(_ id: RecordID) -> StatementArguments {
        [id.zoneID.zoneName, id.zoneID.ownerRecordName ?? "", id.recordName]
    }

    private static func zoneScope(_ zoneID: ZoneID) -> String { "zone:\(zoneID.ownerRecordName ?? ""):\(zoneID.zoneName)" }

    private func setToken(_ token: String, scope: String, in db: GRDB.Database) throws {
        try db.cachedStatement(sql: "INSERT OR REPLACE INTO \(tables.tokens) (scope, token) VALUES (?, ?)").execute(arguments: [scope, token])
    }

    private func remember(_ record: CloudRecord, in db: GRDB.Database) throws {
        try remember([record], in: db)
    }

    /// Keeps the server's version of records, many to a statement.
    private func remember(_ records: [CloudRecord], in db: GRDB.Database) throws {
        let columns = 14, rowsPerStatement = 200
        var values: [DatabaseValue] = []
        values.reserveCapacity(records.count * columns)
        for record in records {
            guard let system = record.systemFields else { continue }
            var writer = WireWriter(capacity: 256)
            writer.fields(record.fields)
            let id = record.recordID
            values += [id.zoneID.zoneName.databaseValue, (id.zoneID.ownerRecordName ?? "").databaseValue, id.recordName.databaseValue,
                       system.recordType.databaseValue, system.changeTag.databaseValue,
                       system.created?.timestamp.databaseValue ?? .null, system.created?.userRecordName.databaseValue ?? .null,
                       system.created?.deviceID.databaseValue ?? .null,
                       system.modified?.timestamp.databaseValue ?? .null, system.modified?.userRecordName.databaseValue ?? .null,
                       system.modified?.deviceID.databaseValue ?? .null,
                       system.parent.databaseValue, system.share.databaseValue, Data(writer.bytes).databaseValue]
        }
        for chunk in values.slices(of: columns * rowsPerStatement) {
            try db.batchStatement(sql: """
                INSERT OR REPLACE INTO \(tables.records) (zone_name, owner, record_name, record_type, change_tag, created_at, created_by,
                    created_device, modified_at, modified_by, modified_device, parent, share, fields)
                VALUES \(databaseRowsQuestionMarks(rows: chunk.count / columns, columns: columns))
                """, isFull: chunk.count == columns * rowsPerStatement).bind(chunk).execute()
        }
    }

    /// The record names among `names` that `table` holds for `zoneID`, with the value of `column`
    /// (nil when none is named), asked in statements of up to 500 names.
    private func names(in table: String, of zoneID: ZoneID, among names: [String], with column: String = "NULL",
                       in db: GRDB.Database) throws -> [(String, String?)] {
        var found: [(String, String?)] = []
        for chunk in names.slices(of: 500) {
            let rows = try Row.fetchCursor(db.batchStatement(sql: """
                SELECT record_name, \(column) FROM \(table) WHERE zone_name = ? AND owner = ?
                AND record_name IN (\(databaseQuestionMarks(count: chunk.count)))
                """, isFull: chunk.count == 500).bind(([zoneID.zoneName, zoneID.ownerRecordName ?? ""] + chunk).map(\.databaseValue)))
            while let row = try rows.next() { found.append((row[0], row[1])) }
        }
        return found
    }

    private func forget(_ id: RecordID, in db: GRDB.Database) throws {
        try db.cachedStatement(sql: "DELETE FROM \(tables.records) WHERE zone_name = ? AND owner = ? AND record_name = ?").execute(arguments: Self.key(id))
    }

    private func forgetZone(_ zoneID: ZoneID, in db: GRDB.Database, keepingPendingZone: Bool) throws {
        let arguments: StatementArguments = [zoneID.zoneName, zoneID.ownerRecordName ?? ""]
        for table in [tables.records, tables.pendingRecords, tables.setAside] {
            try db.execute(sql: "DELETE FROM \(table) WHERE zone_name = ? AND owner = ?", arguments: arguments)
        }
        if !keepingPendingZone { try db.execute(sql: "DELETE FROM \(tables.pendingZones) WHERE zone_name = ? AND owner = ?", arguments: arguments) }
        try db.execute(sql: "DELETE FROM \(tables.tokens) WHERE scope = ?", arguments: [Self.zoneScope(zoneID)])
    }

    private static func record(_ id: RecordID, _ row: Row) throws -> CloudRecord {
        func stamp(_ at: Int64?, _ by: String?, _ device: String?) -> RecordStamp? {
            guard let at, let by, let device else { return nil }
            return RecordStamp(timestamp: at, userRecordName: by, deviceID: device)
        }
        let system = RecordSystemFields(recordID: id, recordType: row[0], changeTag: row[1], created: stamp(row[2], row[3], row[4]),
                                        modified: stamp(row[5], row[6], row[7]), parent: row[8], share: row[9])
        var fields: [String: FieldValue] = [:]
        if let data: Data = row[10] {
            fields = try Record.readFields(JSONParser.parse(Array(data))).compactMapValues { $0 }
        }
        return CloudRecord(systemFields: system, fields: fields).edit(of: system, serverFields: fields)
    }
}

/// Applies what the server has now to local data, inside the transaction that updates the
/// engine's state.
typealias ServerChangesApplier = (ServerChanges, GRDB.Database) throws -> [RecordID: String]
