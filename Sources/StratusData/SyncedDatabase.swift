import Foundation
import GRDB
import StratusClient
import StratusSync

/// A GRDB database whose synced tables sync by themselves.
///
/// Every insert, update and delete of a synced table is captured by a trigger into an outbox in
/// the same transaction, so a committed change is never missed, even if the app dies a moment
/// later; after each commit the outbox is handed to a ``SyncEngine``. Fetched changes are applied
/// one transaction per batch, without being captured again. Observe the tables with GRDB's
/// `ValueObservation` as usual.
public final class SyncedDatabase: Sendable {
    public let writer: any DatabaseWriter
    /// The engine of the user's own (private) database.
    public let engine: SyncEngine
    /// The engine of the shared database, when rows others shared land in the same tables.
    public let sharedEngine: SyncEngine?
    private let tables: [String: SyncedTable]
    private let coordinator: Coordinator

    /// Installs the bookkeeping tables and triggers in `writer`'s database (idempotently) and opens
    /// the sync engine of `database` on its state file — and, with `sharedDatabase`, a second
    /// engine whose rows (shared by other users) land in the same tables. Synced tables must exist.
    ///
    /// Asset columns are written to files in `assetDirectory` (a temporary one by default) to be
    /// uploaded; fetched ones are read from the container's asset cache, which must be set
    /// (without one, tables with asset columns are refused with `invalidArguments`).
    public init(writer: any DatabaseWriter, tables: [SyncedTable], database: StratusClient.Database, stateURL: URL,
                sharedDatabase: StratusClient.Database? = nil, sharedStateURL: URL? = nil, assetDirectory: URL? = nil,
                configure: (inout SyncEngine.Configuration) -> Void = { _ in }) throws {
        if let table = tables.first(where: { !$0.assetColumns.isEmpty }), database.container.assetCacheDirectory == nil {
            throw CloudError(.invalidArguments, "'\(table.tableName)' has asset columns: the container needs an assetCacheDirectory to download them into")
        }
        let assetDirectory = assetDirectory ?? FileManager.default.temporaryDirectory.appendingPathComponent("stratus-data-assets")
        try FileManager.default.createDirectory(at: assetDirectory, withIntermediateDirectories: true)
        self.writer = writer
        self.tables = Dictionary(uniqueKeysWithValues: tables.map { ($0.tableName, $0) })
        let conversions = try writer.write { db in
            try SyncedSchema.install(tables, in: db)
            return try Dictionary(uniqueKeysWithValues: tables.map { table in
                let columns = try db.columns(in: table.tableName)
                return (table.tableName, RowConversion(table: table, columns: columns.map(\.name),
                                                       blobColumns: Set(columns.filter { $0.type.uppercased() == "BLOB" }.map(\.name)),
                                                       assetDirectory: assetDirectory))
            })
        }
        let coordinator = Coordinator(writer: writer, conversions: conversions)
        func makeEngine(_ database: StratusClient.Database, _ state: URL) throws -> SyncEngine {
            // The coordinator holds the engines: the engines hold it weakly. Gone, it keeps the
            // changes queued rather than dropping them.
            var configuration = SyncEngine.Configuration(database: database, stateURL: state) { [weak coordinator] id in
                guard let coordinator else { throw CancellationError() }
                return try await coordinator.record(for: id)
            }
            configuration.automaticallySync = false
            configuration.conflictResolver = .mergeFields
            configure(&configuration)
            return try SyncEngine(configuration: configuration)
        }
        engine = try makeEngine(database, stateURL)
        sharedEngine = try sharedDatabase.map { try makeEngine($0, sharedStateURL ?? stateURL.deletingPathExtension().appendingPathExtension("shared.sqlite")) }
        self.coordinator = coordinator
        let engines = [(DatabaseScope.private, engine)] + (sharedEngine.map { [(DatabaseScope.shared, $0)] } ?? [])
        Task { await coordinator.attach(engines) }
        // The observer lives as long as the app's database, which the coordinator holds: a strong
        // reference back would keep both, and every file they opened, alive for good.
        writer.add(transactionObserver: CommitObserver(tables: Set(tables.map(\.tableName))) { [weak coordinator] in
            Task { try? await coordinator?.drain() }
        }, extent: .databaseLifetime)
    }

    private var allEngines: [SyncEngine] { [engine] + (sharedEngine.map { [$0] } ?? []) }

    /// Whether changes were captured that the engine has not sent yet (in the outbox or the engine's).
    public func hasUnsentChanges() async throws -> Bool {
        let captured = try await writer.read {
            try Bool.fetchOne($0, sql: "SELECT EXISTS (SELECT 1 FROM _stratus_outbox WHERE table_name <> ?)", arguments: [SyncedSchema.outboxMarker]) ?? false
        }
        if captured { return true }
        for engine in allEngines where try await !engine.snapshot().pendingRecordChanges.isEmpty { return true }
        return false
    }

    // MARK: Sharing

    /// Shares a row and its descendants (rows whose parent reference leads to it) with users.
    public func share(_ table: String, id: String, title: String? = nil,
                      with users: [(username: String, permission: SharePermission)]) async throws -> CloudRecord {
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
    public func sharingStatus(_ table: String, id: String) async throws -> SharingStatus {
        try await writer.read { db in
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

    /// Hands queued changes to the engine, sends, fetches, and waits until fetched changes are applied.
    public func syncNow() async throws {
        try await coordinator.drain()
        for engine in allEngines { try await engine.syncNow() }
        await coordinator.settle()
    }

    /// Starts automatic syncing (sends soon after changes, fetches at start and by poll).
    public func start() async {
        await coordinator.setPaused(false)
        for engine in allEngines { await engine.start() }
    }

    /// Stops syncing the whole store; changes keep being captured and go out on ``resumeSync()``.
    public func pauseSync() async {
        await coordinator.setPaused(true)
        for engine in allEngines { await engine.stop() }
    }

    /// Resumes syncing after ``pauseSync()``.
    public func resumeSync() async throws {
        await coordinator.setPaused(false)
        try await coordinator.drain()
    }

    /// Compares everything with the server and repairs drift both ways: every record is fetched
    /// again and applied, and every local row the server does not have is queued to be sent.
    public func forceFullSync() async throws {
        try await coordinator.drain()
        try await engine.sendChanges()
        try await engine.refetchEverything()
        await coordinator.beginCensus()
        try await engine.fetchChanges()
        await coordinator.settle()
        let seen = await coordinator.endCensus()
        // Local rows the server does not have go into the outbox, as if just written.
        let tables = self.tables
        try await writer.write { db in
            for table in tables.values {
                let ids = try String.fetchAll(db, sql: """
                    SELECT "\(table.primaryKey)" FROM "\(table.tableName)" t WHERE NOT EXISTS (
                        SELECT 1 FROM _stratus_rows r WHERE r.table_name = ? AND r.row_id = t."\(table.primaryKey)" AND r.placeholder = 1)
                    """, arguments: [table.tableName])
                for id in ids where !seen.contains(id) {
                    try db.execute(sql: "INSERT INTO _stratus_outbox (table_name, row_id, change) VALUES (?, ?, 'save')",
                                   arguments: [table.tableName, id])
                }
            }
        }
        try await syncNow()
    }
}

extension SyncedDatabase {
    /// Applies fetched records as the engine's events do (for benchmarks).
    package func applyFetched(_ records: [CloudRecord]) async throws {
        try await coordinator.applyFetched(records, [])
    }
}

/// Watches commits that touched a synced table.
private final class CommitObserver: TransactionObserver, @unchecked Sendable {
    let tables: Set<String>
    let committed: @Sendable () -> Void
    private var changed = false

    init(tables: Set<String>, committed: @escaping @Sendable () -> Void) {
        self.tables = tables
        self.committed = committed
    }

    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { tables.contains(eventKind.tableName) }
    func databaseDidChange(with event: DatabaseEvent) { changed = true }
    func databaseDidCommit(_ db: GRDB.Database) {
        if changed { committed() }
        changed = false
    }
    func databaseDidRollback(_ db: GRDB.Database) { changed = false }
}
