import GRDB
import StratusSync

/// The bookkeeping tables StratusData adds to an app's database, and the triggers that queue
/// every change of a synced table — through GRDB records or raw SQL — in the sync engine's outbox
/// (``SyncEngine/outboxTable(tablePrefix:)``), in the transaction that makes it. The outbox is
/// append-only (a rowid table), the cheapest insert SQLite has; the engine folds it into its
/// pending changes when it reads them. What the triggers queue while the engine applies the
/// server's changes is removed before its transaction commits
/// (``SyncEngine/applyingServerChanges(in:tablePrefix:_:)``, the one mechanism), so the capture
/// triggers need no condition; the read-only guards, the cascades and the missing-parent check
/// test its flag.
enum SyncedSchema {
    /// True while the engines apply the server's changes to the app's database.
    static let applying = SyncEngine.isApplyingServerChanges(tablePrefix: SyncedDatabase.tablePrefix)

    /// Installs the bookkeeping tables and the triggers. With `sharing` (rows shared by others
    /// live in the same tables), a change is queued in the zone its row was fetched from; without,
    /// a table with one zone queues every change there, with no lookup.
    static func install(_ tables: [SyncedTable], outbox: String, sharing: Bool, in db: GRDB.Database) throws {
        try db.execute(sql: """
            CREATE TABLE IF NOT EXISTS _stratus_rows (
                table_name TEXT NOT NULL, row_id TEXT NOT NULL, zone_name TEXT NOT NULL, owner TEXT NOT NULL DEFAULT '',
                unknown_fields BLOB, placeholder INTEGER NOT NULL DEFAULT 0, can_edit INTEGER NOT NULL DEFAULT 1,
                PRIMARY KEY (table_name, row_id)
            ) WITHOUT ROWID;
            CREATE INDEX IF NOT EXISTS _stratus_rows_by_id ON _stratus_rows(row_id);
            CREATE TABLE IF NOT EXISTS _stratus_zones (
                zone_name TEXT NOT NULL, owner TEXT NOT NULL, shared INTEGER NOT NULL, can_edit INTEGER NOT NULL,
                PRIMARY KEY (zone_name, owner)
            ) WITHOUT ROWID;
            """)
        try queueEarlierCaptures(tables, outbox: outbox, in: db)
        let byName = Dictionary(uniqueKeysWithValues: tables.map { ($0.tableName, $0) })
        for table in tables {
            let name = table.tableName
            let key = table.primaryKey
            let capturing = "NOT \(applying)"
            // Local columns change without a send, and read-only rows let them change.
            let synced = try db.columns(in: name).map(\.name).filter { !table.localColumns.contains($0) }
                .map { "\"\($0)\"" }.joined(separator: ", ")
            func queue(_ row: String, _ change: String) -> String {
                Self.queue(table, among: byName, row: row, change, outbox: outbox, sharing: sharing)
            }
            try db.execute(sql: """
                DROP TRIGGER IF EXISTS "_stratus_\(name)_insert";
                DROP TRIGGER IF EXISTS "_stratus_\(name)_update";
                DROP TRIGGER IF EXISTS "_stratus_\(name)_delete";
                DROP TRIGGER IF EXISTS "_stratus_\(name)_guard_update";
                DROP TRIGGER IF EXISTS "_stratus_\(name)_guard_delete";
                DROP TRIGGER IF EXISTS "_stratus_\(name)_guard_insert";
                """)
            if table.isReadOnly {
                // A mirror: nothing of the app's is sent, and only the engine writes its synced columns.
                let refusal = "SELECT RAISE(ABORT, 'this table mirrors records you may only read');"
                try db.execute(sql: """
                    CREATE TRIGGER "_stratus_\(name)_guard_insert" BEFORE INSERT ON "\(name)" WHEN \(capturing) BEGIN \(refusal) END;
                    CREATE TRIGGER "_stratus_\(name)_guard_update" BEFORE UPDATE OF \(synced) ON "\(name)" WHEN \(capturing) BEGIN \(refusal) END;
                    CREATE TRIGGER "_stratus_\(name)_guard_delete" BEFORE DELETE ON "\(name)" WHEN \(capturing) BEGIN \(refusal) END;
                    """)
                for reference in table.references { try db.execute(sql: "DROP TRIGGER IF EXISTS \"_stratus_\(name)_\(reference.column)_cascade\"") }
                continue
            }
            try db.execute(sql: """
                CREATE TRIGGER "_stratus_\(name)_insert" AFTER INSERT ON "\(name)"
                BEGIN \(queue("NEW", "save")) END;
                CREATE TRIGGER "_stratus_\(name)_update" AFTER UPDATE OF \(synced) ON "\(name)"
                BEGIN
                    \(queue("NEW", "save"))
                    UPDATE _stratus_rows SET placeholder = 0 WHERE table_name = '\(name)' AND row_id = NEW."\(key)";
                END;
                CREATE TRIGGER "_stratus_\(name)_delete" AFTER DELETE ON "\(name)"
                BEGIN \(queue("OLD", "delete")) END;
                CREATE TRIGGER "_stratus_\(name)_guard_update" BEFORE UPDATE OF \(synced) ON "\(name)" WHEN \(capturing)
                    AND EXISTS (SELECT 1 FROM _stratus_rows WHERE table_name = '\(name)' AND row_id = OLD."\(key)" AND can_edit = 0)
                BEGIN SELECT RAISE(ABORT, 'this row is shared with you read-only'); END;
                CREATE TRIGGER "_stratus_\(name)_guard_delete" BEFORE DELETE ON "\(name)" WHEN \(capturing)
                    AND EXISTS (SELECT 1 FROM _stratus_rows WHERE table_name = '\(name)' AND row_id = OLD."\(key)" AND can_edit = 0)
                BEGIN SELECT RAISE(ABORT, 'this row is shared with you read-only'); END;
                """)
            // The app deleting a row deletes the rows that cascade from it, in its transaction
            // (their deletions are captured too), before the row itself: a child whose zone is its
            // parent's still finds it. Fetched deletions cascade in `Coordinator`.
            for reference in table.references {
                let trigger = "_stratus_\(name)_\(reference.column)_cascade"
                try db.execute(sql: "DROP TRIGGER IF EXISTS \"\(trigger)\"")
                guard reference.deleteRule == .cascade, let target = byName[reference.targetTable] else { continue }
                try db.execute(sql: """
                    CREATE TRIGGER "\(trigger)" BEFORE DELETE ON "\(target.tableName)" WHEN \(capturing)
                    BEGIN DELETE FROM "\(name)" WHERE "\(reference.column)" = OLD."\(target.primaryKey)"; END;
                    """)
            }
        }
        // Versions before the engine's flag kept their own; the triggers above no longer read it.
        try db.execute(sql: "DROP TABLE IF EXISTS _stratus_state")
    }

    /// The statements that queue a change of a row in its zone's part of the outbox. `row` names
    /// the row: `NEW` or `OLD` in a trigger, or the alias of `table` in `from` (a `FROM` clause
    /// with a `WHERE` condition, selecting the rows to queue). The app's save of a row that has no
    /// zone (its parent is missing) fails; a deletion of one is not queued: the row never reached
    /// the server.
    static func queue(_ table: SyncedTable, among tables: [String: SyncedTable], row: String, _ change: String, outbox: String,
                      sharing: Bool, from: String? = nil) -> String {
        let zone = zone(of: table, among: tables, sharing: sharing) { "\(row).\"\($0)\"" }
        let insert = "INSERT INTO \(outbox) (zone_name, owner, record_name, change)"
        let values = "\(zone.name), \(zone.owner), \(row).\"\(table.primaryKey)\", '\(change)'"
        let select = "\(insert) SELECT \(values)" + (from.map { " FROM \($0)" } ?? "")
        // A table with one zone always has a zone; without sharing it is a constant, and the
        // capture is the cheapest insert there is.
        if table.zone.zoneID != nil { return sharing || from != nil ? select + ";" : "\(insert) VALUES (\(values));" }
        let queueing = select + (from == nil ? " WHERE" : " AND") + " \(zone.name) IS NOT NULL;"
        guard change == "save", from == nil else { return queueing }
        // The engine applying a page may write a child before its parent: not the app's doing.
        return """
            SELECT RAISE(ABORT, \(literal("a row of '\(table.tableName)' has no zone: its parent is missing")))
            WHERE \(zone.name) IS NULL AND NOT \(applying);
            """ + queueing
    }

    /// SQL expressions of a row's zone: its name and its owner (`''` for the user's own zones).
    /// `column` gives the SQL of one of the row's columns. With `sharing`, and for tables with a
    /// zone per row, the zone the row was fetched from or sent to comes first; else the table's
    /// rule says: its zone, its zone column (owned by whoever shared a zone of that name, if
    /// anyone did), or its parent's zone.
    static func zone(of table: SyncedTable, among tables: [String: SyncedTable], sharing: Bool,
                     column: (String) -> String) -> (name: String, owner: String) {
        var zone: (name: String, owner: String)
        switch table.zone.rule {
        case .named(let name):
            zone = (literal(name), "''")
        case .column(let name):
            let zoneName = column(name)
            zone = (zoneName, sharing ? "COALESCE((SELECT MIN(owner) FROM _stratus_zones WHERE zone_name = \(zoneName)), '')" : "''")
        case .parent:
            guard let reference = table.parentReference, let parent = tables[reference.targetTable] else { return ("NULL", "NULL") }
            let parentID = column(reference.column)
            zone = Self.zone(of: parent, among: tables, sharing: sharing) { parentColumn in
                parentColumn == parent.primaryKey ? parentID
                    : "(SELECT \"\(parentColumn)\" FROM \"\(parent.tableName)\" WHERE \"\(parent.primaryKey)\" = \(parentID))"
            }
        }
        guard sharing || table.zone.zoneID == nil else { return zone }
        let known = "FROM _stratus_rows WHERE table_name = \(literal(table.tableName)) AND row_id = \(column(table.primaryKey))"
        return ("COALESCE((SELECT zone_name \(known)), \(zone.name))", "COALESCE((SELECT owner \(known)), \(zone.owner))")
    }

    private static func literal(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "''") + "'" }

    /// Moves the changes an earlier StratusData captured into its own outbox table
    /// (`_stratus_outbox`: table, row, change) into the engine's outbox, once.
    private static func queueEarlierCaptures(_ tables: [SyncedTable], outbox: String, in db: GRDB.Database) throws {
        guard try db.tableExists("_stratus_outbox"), try db.columns(in: "_stratus_outbox").contains(where: { $0.name == "table_name" }) else { return }
        for table in tables {
            guard let zoneID = table.zone.zoneID else { continue }   // earlier versions had a zone per table
            try db.execute(sql: """
                INSERT INTO \(outbox) (zone_name, owner, record_name, change)
                SELECT COALESCE(r.zone_name, ?), COALESCE(r.owner, ?), o.row_id, o.change FROM _stratus_outbox o
                LEFT JOIN _stratus_rows r ON r.table_name = o.table_name AND r.row_id = o.row_id
                WHERE o.table_name = ? ORDER BY o.sequence
                """, arguments: [zoneID.zoneName, "", table.tableName])
        }
        try db.execute(sql: "DROP TABLE _stratus_outbox")
    }
}
