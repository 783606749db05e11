import Foundation
import GRDB
import StratusClient
import StratusSync
import Synchronization

/// A GRDB database whose synced tables sync by themselves.
///
/// The sync engines keep their state (outbox, change tokens, known server records) in the app's
/// own database. Every insert, update and delete of a synced table is queued by a trigger in the
/// engine's outbox, in the transaction that makes it, so a committed change is never missed, even
/// if the app dies a moment later. A fetched page is applied to the tables in the transaction
/// that stores its change token, so a crash never loses it or applies it twice. Observe the
/// tables with GRDB's `ValueObservation` as usual.
public final class SyncedDatabase: Sendable {
    /// The app's database: its synced tables, and the sync engines' state.
    public let writer: any DatabaseWriter
    /// The engine of the user's own (private) database.
    public let engine: SyncEngine
    /// The engine of the shared database, when rows others shared land in the same tables.
    public let sharedEngine: SyncEngine?
    private let tables: [String: SyncedTable]
    private let coordinator: Coordinator

    /// The prefix of the engines' tables in the app's database.
    static let tablePrefix = "_stratus_sync_"

    /// A handler of fetched changes, called in the transaction that applies them and stores their
    /// change token, once the tables have them: the place to derive local data (an activity feed,
    /// a badge) from what arrived, atomically with it. The changes include share records and the
    /// zones removed. What it writes to synced columns of synced tables is taken as the server's
    /// and is not sent; throwing rolls the page back, to be fetched again.
    public typealias FetchedChangesHandler = @Sendable (ServerChanges, GRDB.Database) throws -> Void

    /// What ``forceFullSync(deletingRowsMissingOnServer:)`` does with a local row the server does
    /// not have, once every queued change is sent.
    public enum MissingRowPolicy: Sendable {
        /// Queue it, as if just written: the server lost it, and gets it back.
        case send
        /// Delete it locally, without sending: the server is the truth (it compacted or removed
        /// what this device still holds).
        case delete
    }

    /// Installs the engines' tables and the triggers in `writer`'s database (idempotently) and
    /// opens the sync engine of `database` — and, with `sharedDatabase`, a second engine whose
    /// rows (shared by other users) land in the same tables. Synced tables must exist.
    ///
    /// Asset columns are written to files in `assetDirectory` (a temporary one by default) to be
    /// uploaded; fetched ones are read from the container's asset cache, which must be set
    /// (without one, tables with asset columns are refused with `invalidArguments`).
    /// `didApplyFetchedChanges` is called with every fetched page, in its transaction.
    public init(writer: any DatabaseWriter, tables: [SyncedTable], database: CloudDatabase,
                sharedDatabase: CloudDatabase? = nil, assetDirectory: URL? = nil,
                configure: (inout SyncEngine.Configuration) -> Void = { _ in },
                didApplyFetchedChanges: FetchedChangesHandler? = nil) throws {
        if let table = tables.first(where: { !$0.assetColumns.isEmpty }), database.container.assetCacheDirectory == nil {
            throw CloudError(.invalidArguments, "'\(table.tableName)' has asset columns: the container needs an assetCacheDirectory to download them into")
        }
        try Self.checkZones(of: tables)
        let assetDirectory = assetDirectory ?? FileManager.default.temporaryDirectory.appendingPathComponent("stratus-data-assets")
        try FileManager.default.createDirectory(at: assetDirectory, withIntermediateDirectories: true)
        self.writer = writer
        self.tables = Dictionary(uniqueKeysWithValues: tables.map { ($0.tableName, $0) })
        let coordinator = Coordinator(conversions: try writer.read { db in
            try Dictionary(uniqueKeysWithValues: tables.map { table in
                let columns = try db.columns(in: table.tableName)
                return (table.tableName, RowConversion(table: table, columns: columns.map(\.name),
                                                       blobColumns: Set(columns.filter { $0.type.uppercased() == "BLOB" }.map(\.name)),
                                                       assetDirectory: assetDirectory))
            })
        }, sharing: sharedDatabase != nil, didApplyFetchedChanges: didApplyFetchedChanges)
        func makeEngine(_ database: CloudDatabase) throws -> SyncEngine {
            var configuration = SyncEngine.Configuration(database: database, state: .database(writer, tablePrefix: Self.tablePrefix),
                                                         delegate: coordinator)
            configuration.automaticallySync = false
            configuration.conflictResolver = .mergeFields
            configure(&configuration)
            return try SyncEngine(configuration: configuration)
        }
        // The engines create their outbox, which the triggers write to.
        let privateEngine = try makeEngine(database)
        let sharedEngine = try sharedDatabase.map { try makeEngine($0) }
        engine = privateEngine
        self.sharedEngine = sharedEngine
        let outbox = SyncEngine.outboxTable(tablePrefix: Self.tablePrefix)
        let end = try writer.write { db in
            try SyncedSchema.install(tables, outbox: outbox, sharing: coordinator.sharing, in: db)
            return try Int64.fetchOne(db, sql: "SELECT MAX(sequence) FROM \(outbox)") ?? 0
        }
        self.coordinator = coordinator
        // The engines hold their delegate weakly: the synced database holds it. The observer
        // lives as long as the app's database; it holds the engines weakly, so that a synced
        // database dropped frees them and every file they opened.
        writer.add(transactionObserver: CommitObserver(outbox: outbox, end: end) { [weak privateEngine, weak sharedEngine] in
            for engine in [privateEngine, sharedEngine].compactMap({ $0 }) { Task { await engine.queuedChangesCommitted() } }
        }, extent: .databaseLifetime)
    }

    private var allEngines: [SyncEngine] { [engine] + (sharedEngine.map { [$0] } ?? []) }

    /// Refuses tables whose rows would have no zone: a zone taken from the parent of a table with
    /// no parent reference into a synced table, or parents that lead round in a circle.
    private static func checkZones(of tables: [SyncedTable]) throws {
        let byName = Dictionary(tables.map { ($0.tableName, $0) }, uniquingKeysWith: { $1 })
        for table in tables {
            var current = table
            for _ in 0...tables.count {
                guard current.zone == .parent else { break }
                guard let parent = current.parentReference.flatMap({ byName[$0.targetTable] }) else {
                    throw CloudError(.invalidArguments, "'\(current.tableName)' takes its parent's zone but has no parent reference to a synced table")
                }
                guard parent.tableName != table.tableName else {
                    throw CloudError(.invalidArguments, "'\(table.tableName)' takes its parent's zone, and its parents lead back to it")
                }
                current = parent
            }
        }
    }

    /// Whether changes were made that the engines have not sent yet.
    public func hasUnsentChanges() async throws -> Bool {
        for engine in allEngines where try await !engine.snapshot().pendingRecordChanges.isEmpty { return true }
        return false
    }

    // MARK: Sharing

    /// Shares a row of `record`'s table and its descendants (rows whose parent reference leads to
    /// it) with users.
    public func share<Record: TableRecord>(_ record: Record.Type, id: String, title: String? = nil,
                                           with users: [(username: String, permission: SharePermission)]) async throws -> CloudRecord {
        let zoneID = try await zone(of: Record.self, id: id)
        try await syncNow()
        return try await engine.configuration.database.share(RecordID(recordName: id, zoneID: zoneID), title: title, participants: users)
    }

    /// The zone a row of `record`'s table lives in; `unknownItem` if there is no such row.
    public func zone<Record: TableRecord>(of record: Record.Type, id: String) async throws -> ZoneID {
        let (table, zone) = try rowZone(Record.self)
        let row = try await writer.read { db in
            try Row.fetchOne(db, sql: "SELECT \(zone.name), \(zone.owner) FROM \"\(table.tableName)\" t WHERE t.\"\(table.primaryKey)\" = ?",
                             arguments: [id])
        }
        guard let row, let zoneName = row[0] as String? else {
            throw CloudError(.unknownItem, "no row '\(id)' in '\(table.tableName)', or it has no zone")
        }
        let owner: String = row[1] ?? ""
        return ZoneID(zoneName: zoneName, ownerRecordName: owner.isEmpty ? nil : owner)
    }

    /// Shares every row of a zone with users.
    public func shareZone(_ zoneID: ZoneID = ZoneID(zoneName: "StratusData"), title: String? = nil,
                          with users: [(username: String, permission: SharePermission)]) async throws -> CloudRecord {
        try await syncNow()
        return try await engine.configuration.database.shareZone(zoneID, title: title, participants: users)
    }

    /// Whether a row is shared, whether this user owns it, and whether they may change it. A row
    /// they may not change is also refused locally (the write fails before anything is queued).
    /// Throws `invalidArguments` if `record`'s table is not synced.
    public func sharingStatus<Record: TableRecord>(_ record: Record.Type, id: String) async throws -> SharingStatus {
        let (table, zone) = try rowZone(Record.self)
        return try await writer.read { db in
            let row = try Row.fetchOne(db, sql: """
                SELECT \(zone.owner),
                    COALESCE((SELECT can_edit FROM _stratus_rows WHERE table_name = ?1 AND row_id = ?2), 1),
                    COALESCE((SELECT shared FROM _stratus_zones WHERE zone_name = \(zone.name) AND owner = \(zone.owner)), 0)
                FROM "\(table.tableName)" t WHERE t."\(table.primaryKey)" = ?2
                """, arguments: [table.tableName, id])
            guard let row else { return SharingStatus(isShared: false, isOwner: true, canEdit: true) }
            let owner: String = row[0] ?? ""
            return SharingStatus(isShared: row[2], isOwner: owner.isEmpty, canEdit: row[1])
        }
    }

    /// The synced table of `record`'s type, and the SQL of a row's zone (name and owner) in it,
    /// the row's table aliased `t`. Throws `invalidArguments` if the table is not synced.
    private func rowZone<Record: TableRecord>(_ record: Record.Type) throws -> (table: SyncedTable, zone: (name: String, owner: String)) {
        let name = Record.databaseTableName
        guard let table = tables[name] else { throw CloudError(.invalidArguments, "'\(name)' is not a synced table") }
        return (table, SyncedSchema.zone(of: table, among: tables, sharing: coordinator.sharing) { "t.\"\($0)\"" })
    }

    // MARK: History

    /// Brings back a row deleted here or on another device, from the server's record history: its
    /// last version before the deletion is restored as a new change, which reaches this table, and
    /// every device's, as any change does. Rows a device's own cascade deleted (a reference's
    /// `onDelete: .cascade`) were each deleted by themselves: undelete them too. Sends what is
    /// unsent first; fetches before it returns. Nothing happens for a row that is not deleted;
    /// `unknownItem` when the server keeps no version of it.
    public func undelete<Record: TableRecord>(_ record: Record.Type, id: String,
                                              in zoneID: ZoneID = ZoneID(zoneName: "StratusData")) async throws {
        let name = Record.databaseTableName
        guard tables[name] != nil else { throw CloudError(.invalidArguments, "'\(name)' is not a synced table") }
        try await syncNow()
        let recordID = RecordID(recordName: id, zoneID: zoneID)
        let database = engine.configuration.database
        let versions = try await database.history(of: recordID, limit: 2)
        guard versions.first?.isDeleted == true else { return }
        guard let kept = versions.first(where: { !$0.isDeleted }) else {
            throw CloudError(.unknownItem, "the server keeps no version of '\(id)' from before its deletion")
        }
        _ = try await database.restore(recordID, toVersion: kept.changeTag, ifCurrentChangeTag: versions[0].changeTag)
        try await syncNow()
    }

    /// Sends, then fetches; fetched changes are in the tables when it returns.
    public func syncNow() async throws {
        for engine in allEngines { try await engine.syncNow() }
    }

    /// Starts automatic syncing (sends soon after changes, fetches at start and by poll).
    public func start() async {
        for engine in allEngines { await engine.start() }
    }

    /// Stops automatic syncing; changes keep being queued, and go out with the next
    /// ``syncNow()`` or once ``start()`` is called again.
    public func pauseSync() async {
        for engine in allEngines { await engine.stop() }
    }

    /// Compares everything with the server and repairs drift: every queued change is sent, every
    /// record fetched again and applied, and every local row the server does not have is queued
    /// to be sent again or, with `.delete`, deleted (see ``MissingRowPolicy``).
    public func forceFullSync(deletingRowsMissingOnServer policy: MissingRowPolicy = .send) async throws {
        for engine in allEngines { try await engine.sendChanges() }
        for engine in allEngines { try await engine.refetchEverything() }
        coordinator.beginCensus()
        do {
            for engine in allEngines { try await engine.fetchChanges() }
        } catch {
            _ = coordinator.endCensus()
            throw error
        }
        let seen = coordinator.endCensus()
        let tables = self.tables, coordinator = self.coordinator, sharing = coordinator.sharing
        let outbox = SyncEngine.outboxTable(tablePrefix: Self.tablePrefix)
        try await writer.write { db in
            // A row written since the send (queued in the outbox) is not missing, only new.
            let queued = try Set(String.fetchAll(db, sql: "SELECT record_name FROM \(outbox) WHERE change <> ''"))
            for table in tables.values {
                let key = table.primaryKey
                let missing = try String.fetchAll(db, sql: """
                    SELECT "\(key)" FROM "\(table.tableName)" t WHERE NOT EXISTS (
                        SELECT 1 FROM _stratus_rows r WHERE r.table_name = ? AND r.row_id = t."\(key)" AND r.placeholder = 1)
                    """, arguments: [table.tableName]).filter { !seen.contains($0) && !queued.contains($0) }
                // A mirror's rows are the server's: one the server no longer gives is gone.
                switch table.isReadOnly ? .delete : policy {
                case .send:
                    let queue = try db.makeStatement(sql: SyncedSchema.queue(table, among: tables, row: "t", "save", outbox: outbox, sharing: sharing,
                                                                             from: "\"\(table.tableName)\" t WHERE t.\"\(key)\" = ?1"))
                    for id in missing { try queue.execute(arguments: [id]) }
                case .delete:
                    try coordinator.deleteMissing(missing, from: table, in: db)
                }
            }
        }
        try await syncNow()
    }
}

/// Tells the engines when a commit queued changes: when the outbox grew. It observes no change
/// event — per-row notifications cost the capture about 0.2× of a plain insert — and looks at the
/// outbox's end once per commit instead.
private final class CommitObserver: TransactionObserver, Sendable {
    let outbox: String
    let committed: @Sendable () -> Void
    /// The outbox's last sequence at the last commit seen.
    private let end: Mutex<Int64>

    init(outbox: String, end: Int64, committed: @escaping @Sendable () -> Void) {
        self.outbox = outbox
        self.end = Mutex(end)
        self.committed = committed
    }

    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { false }
    func databaseDidChange(with event: DatabaseEvent) {}
    func databaseDidCommit(_ db: GRDB.Database) {
        guard let now = try? Int64.fetchOne(db, sql: "SELECT MAX(sequence) FROM \(outbox)") else { return }
        let grew = end.withLock { end in
            defer { end = now }
            return now > end
        }
        if grew { committed() }
    }
    func databaseDidRollback(_ db: GRDB.Database) {}
}
