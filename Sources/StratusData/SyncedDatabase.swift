import Foundation
import GRDB
import StratusClient
import StratusSync

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

    /// Installs the engines' tables and the triggers in `writer`'s database (idempotently) and
    /// opens the sync engine of `database` — and, with `sharedDatabase`, a second engine whose
    /// rows (shared by other users) land in the same tables. Synced tables must exist.
    ///
    /// Asset columns are written to files in `assetDirectory` (a temporary one by default) to be
    /// uploaded; fetched ones are read from the container's asset cache, which must be set
    /// (without one, tables with asset columns are refused with `invalidArguments`).
    public init(writer: any DatabaseWriter, tables: [SyncedTable], database: CloudDatabase,
                sharedDatabase: CloudDatabase? = nil, assetDirectory: URL? = nil,
                configure: (inout SyncEngine.Configuration) -> Void = { _ in }) throws {
        if let table = tables.first(where: { !$0.assetColumns.isEmpty }), database.container.assetCacheDirectory == nil {
            throw CloudError(.invalidArguments, "'\(table.tableName)' has asset columns: the container needs an assetCacheDirectory to download them into")
        }
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
        }, sharing: sharedDatabase != nil)
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
        let table = Record.databaseTableName
        guard let synced = tables[table] else { throw CloudError(.invalidArguments, "'\(table)' is not a synced table") }
        try await syncNow()
        return try await engine.configuration.database.share(RecordID(recordName: id, zoneID: synced.zoneID), title: title, participants: users)
    }

    /// Shares every row of a zone with users.
    public func shareZone(_ zoneID: ZoneID = ZoneID(zoneName: "StratusData"), title: String? = nil,
                          with users: [(username: String, permission: SharePermission)]) async throws -> CloudRecord {
        try await syncNow()
        return try await engine.configuration.database.shareZone(zoneID, title: title, participants: users)
    }

    /// Whether a row is shared, whether this user owns it, and whether they may change it. A row
    /// they may not change is also refused locally (the write fails before anything is queued).
    public func sharingStatus<Record: TableRecord>(_ record: Record.Type, id: String) async throws -> SharingStatus {
        let table = Record.databaseTableName
        return try await writer.read { db in
            let row = try Row.fetchOne(db, sql: """
                SELECT r.owner, r.can_edit, COALESCE(z.shared, 0) FROM _stratus_rows r
                LEFT JOIN _stratus_zones z ON z.zone_name = r.zone_name AND z.owner = r.owner
                WHERE r.table_name = ? AND r.row_id = ?
                """, arguments: [table, id])
            guard let row else { return SharingStatus(isShared: false, isOwner: true, canEdit: true) }
            let owner: String = row[0]
            return SharingStatus(isShared: row[2], isOwner: owner.isEmpty, canEdit: row[1])
        }
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

    /// Compares everything with the server and repairs drift both ways: every record is fetched
    /// again and applied, and every local row the server does not have is queued to be sent.
    public func forceFullSync() async throws {
        try await engine.sendChanges()
        try await engine.refetchEverything()
        coordinator.beginCensus()
        try await engine.fetchChanges()
        let seen = coordinator.endCensus()
        // Local rows the server does not have are queued, as if just written.
        let tables = self.tables
        let outbox = SyncEngine.outboxTable(tablePrefix: Self.tablePrefix)
        try await writer.write { db in
            for table in tables.values {
                let ids = try String.fetchAll(db, sql: """
                    SELECT "\(table.primaryKey)" FROM "\(table.tableName)" t WHERE NOT EXISTS (
                        SELECT 1 FROM _stratus_rows r WHERE r.table_name = ? AND r.row_id = t."\(table.primaryKey)" AND r.placeholder = 1)
                    """, arguments: [table.tableName])
                let queue = try db.makeStatement(sql: SyncedSchema.queue(table, row: "?1", "save", outbox: outbox, sharing: coordinator.sharing))
                for id in ids where !seen.contains(id) { try queue.execute(arguments: [id]) }
            }
        }
        try await syncNow()
    }
}

extension SyncedDatabase {
    /// Applies fetched records as a fetched page of their zone, with its change token, as a
    /// fetch does (for benchmarks).
    package func applyFetched(_ records: [CloudRecord]) async throws {
        guard let zoneID = records.first?.recordID.zoneID else { return }
        try await engine.applyFetchedPage(RecordZoneChanges(zoneID: zoneID, modifications: records, deletions: [],
                                                            changeToken: ServerChangeToken(rawValue: "benchmark"), moreComing: false))
    }
}

/// Tells the engines when a commit queued changes: when the outbox grew. It observes no change
/// event — per-row notifications cost the capture about 0.2× of a plain insert — and looks at the
/// outbox's end once per commit instead.
private final class CommitObserver: TransactionObserver, @unchecked Sendable {
    let outbox: String
    let committed: @Sendable () -> Void
    private var end: Int64

    init(outbox: String, end: Int64, committed: @escaping @Sendable () -> Void) {
        self.outbox = outbox
        self.end = end
        self.committed = committed
    }

    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { false }
    func databaseDidChange(with event: DatabaseEvent) {}
    func databaseDidCommit(_ db: GRDB.Database) {
        guard let now = try? Int64.fetchOne(db, sql: "SELECT MAX(sequence) FROM \(outbox)") else { return }
        defer { end = now }
        if now > end { committed() }
    }
    func databaseDidRollback(_ db: GRDB.Database) {}
}
