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
    let database: any DatabaseWriter
    private let ownsFile: Bool
    /// Whether what the server told the engine is written with `synchronous = NORMAL`: in WAL mode.
    let relaxesRecoverableWrites: Bool
    let tables: Tables
    /// This store's name in the create keys it gives queued creates: random, made with the store.
    let createKeyPrefix: String

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
}

/// Applies what the server has now to local data, inside the transaction that updates the
/// engine's state.
typealias ServerChangesApplier = (ServerChanges, GRDB.Database) throws -> [RecordID: String]
