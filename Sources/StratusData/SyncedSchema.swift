import GRDB

/// The bookkeeping tables StratusData adds to an app's database, and the triggers that queue
/// every change of a synced table — through GRDB records or raw SQL — in the sync engine's outbox
/// (``SyncEngine/outboxTable(tablePrefix:)``), in the transaction that makes it. The outbox is
/// append-only (a rowid table), the cheapest insert SQLite has; the engine folds it into its
/// pending changes when it reads them. Changes the engine applies are queued too, and removed
/// before the engine's transaction commits, so the capture triggers need no condition.
enum SyncedSchema {
    /// Installs the bookkeeping tables and the triggers. With `sharing` (rows shared by others
    /// live in the same tables), a change is queued in the zone its row was fetched from;
    /// without, every row is in its table's zone, and the triggers need no lookup.
    static func install(_ tables: [SyncedTable], outbox: String, sharing: Bool, in db: GRDB.Database) throws {
        try db.execute(sql: """
            CREATE TABLE IF NOT EXISTS _stratus_state (id INTEGER PRIMARY KEY CHECK (id = 1), applying INTEGER NOT NULL);
            INSERT OR IGNORE INTO _stratus_state (id, applying) VALUES (1, 0);
            UPDATE _stratus_state SET applying = 0;
            CREATE TABLE IF NOT EXISTS _stratus_rows (
                table_name TEXT NOT NULL, row_id TEXT NOT NULL, zone_name TEXT NOT NULL, owner TEXT NOT NULL DEFAULT '',
                change_tag TEXT, unknown_fields BLOB, placeholder INTEGER NOT NULL DEFAULT 0, can_edit INTEGER NOT NULL DEFAULT 1,
                PRIMARY KEY (table_name, row_id)
            ) WITHOUT ROWID;
            CREATE INDEX IF NOT EXISTS _stratus_rows_by_id ON _stratus_rows(row_id);
            CREATE TABLE IF NOT EXISTS _stratus_zones (
                zone_name TEXT NOT NULL, owner TEXT NOT NULL, shared INTEGER NOT NULL, can_edit INTEGER NOT NULL,
                PRIMARY KEY (zone_name, owner)
            ) WITHOUT ROWID;
            """)
        try queueEarlierCaptures(tables, outbox: outbox, in: db)
        for table in tables {
            let name = table.tableName
            let key = table.primaryKey
            let capturing = "(SELECT applying FROM _stratus_state) = 0"
            try db.execute(sql: """
                DROP TRIGGER IF EXISTS "_stratus_\(name)_insert";
                DROP TRIGGER IF EXISTS "_stratus_\(name)_update";
                DROP TRIGGER IF EXISTS "_stratus_\(name)_delete";
                DROP TRIGGER IF EXISTS "_stratus_\(name)_guard_update";
                DROP TRIGGER IF EXISTS "_stratus_\(name)_guard_delete";
                CREATE TRIGGER "_stratus_\(name)_insert" AFTER INSERT ON "\(name)"
                BEGIN \(queue(table, row: "NEW.\"\(key)\"", "save", outbox: outbox, sharing: sharing)) END;
                CREATE TRIGGER "_stratus_\(name)_update" AFTER UPDATE ON "\(name)"
                BEGIN
                    \(queue(table, row: "NEW.\"\(key)\"", "save", outbox: outbox, sharing: sharing))
                    UPDATE _stratus_rows SET placeholder = 0 WHERE table_name = '\(name)' AND row_id = NEW."\(key)";
                END;
                CREATE TRIGGER "_stratus_\(name)_delete" AFTER DELETE ON "\(name)"
                BEGIN \(queue(table, row: "OLD.\"\(key)\"", "delete", outbox: outbox, sharing: sharing)) END;
                CREATE TRIGGER "_stratus_\(name)_guard_update" BEFORE UPDATE ON "\(name)" WHEN \(capturing)
                    AND EXISTS (SELECT 1 FROM _stratus_rows WHERE table_name = '\(name)' AND row_id = OLD."\(key)" AND can_edit = 0)
                BEGIN SELECT RAISE(ABORT, 'this row is shared with you read-only'); END;
                CREATE TRIGGER "_stratus_\(name)_guard_delete" BEFORE DELETE ON "\(name)" WHEN \(capturing)
                    AND EXISTS (SELECT 1 FROM _stratus_rows WHERE table_name = '\(name)' AND row_id = OLD."\(key)" AND can_edit = 0)
                BEGIN SELECT RAISE(ABORT, 'this row is shared with you read-only'); END;
                """)
            // The app deleting a row deletes the rows that cascade from it, in its transaction
            // (their deletions are captured too). Fetched deletions cascade in `Coordinator`.
            for reference in table.references {
                let trigger = "_stratus_\(name)_\(reference.column)_cascade"
                try db.execute(sql: "DROP TRIGGER IF EXISTS \"\(trigger)\"")
                guard reference.deleteRule == .cascade, let target = tables.first(where: { $0.tableName == reference.targetTable }) else { continue }
                try db.execute(sql: """
                    CREATE TRIGGER "\(trigger)" AFTER DELETE ON "\(target.tableName)" WHEN \(capturing)
                    BEGIN DELETE FROM "\(name)" WHERE "\(reference.column)" = OLD."\(target.primaryKey)"; END;
                    """)
            }
        }
    }

    /// The statement that queues a change of the row whose ID is the SQL expression `row` (`NEW.id`
    /// in a trigger, `?1` for a bound argument) in its zone: with `sharing`, the one it was fetched
    /// from (looked up in `_stratus_rows`), or else the table's.
    static func queue(_ table: SyncedTable, row: String, _ change: String, outbox: String, sharing: Bool) -> String {
        let zone = literal(table.zoneID.zoneName), owner = literal(table.zoneID.ownerRecordName ?? "")
        guard sharing else {
            return "INSERT INTO \(outbox) (zone_name, owner, record_name, change) VALUES (\(zone), \(owner), \(row), '\(change)');"
        }
        return """
            INSERT INTO \(outbox) (zone_name, owner, record_name, change)
            SELECT COALESCE(r.zone_name, \(zone)), COALESCE(r.owner, \(owner)), \(row), '\(change)'
            FROM (SELECT 1) LEFT JOIN _stratus_rows r ON r.table_name = \(literal(table.tableName)) AND r.row_id = \(row);
            """
    }

    private static func literal(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "''") + "'" }

    /// Moves the changes an earlier StratusData captured into its own outbox table
    /// (`_stratus_outbox`: table, row, change) into the engine's outbox, once.
    private static func queueEarlierCaptures(_ tables: [SyncedTable], outbox: String, in db: GRDB.Database) throws {
        guard try db.tableExists("_stratus_outbox"), try db.columns(in: "_stratus_outbox").contains(where: { $0.name == "table_name" }) else { return }
        for table in tables {
            try db.execute(sql: """
                INSERT INTO \(outbox) (zone_name, owner, record_name, change)
                SELECT COALESCE(r.zone_name, ?), COALESCE(r.owner, ?), o.row_id, o.change FROM _stratus_outbox o
                LEFT JOIN _stratus_rows r ON r.table_name = o.table_name AND r.row_id = o.row_id
                WHERE o.table_name = ? ORDER BY o.sequence
                """, arguments: [table.zoneID.zoneName, table.zoneID.ownerRecordName ?? "", table.tableName])
        }
        try db.execute(sql: "DROP TABLE _stratus_outbox")
    }
}
