import GRDB

/// The bookkeeping tables StratusData adds to an app's database, and the triggers that capture
/// every change of a synced table — through GRDB records or raw SQL — into the outbox, in the
/// transaction that makes it. The outbox is append-only (a rowid table), the cheapest insert
/// SQLite has; draining keeps each row's last change, and leaves a marker row (see
/// ``outboxMarker``) so that no sequence is given twice.
enum SyncedSchema {
    /// The table name of the outbox's marker row: a drain pass leaves one at the last sequence it
    /// drained, so the next change never takes a sequence used before (an emptied rowid table
    /// starts again from 1). A pass still running elsewhere, deleting the rows up to the last
    /// sequence it read, could otherwise delete changes it never queued — an app killed mid-pass
    /// and relaunched lost its first two changes that way (the simulation's seed 187).
    /// (`AUTOINCREMENT` does the same, and made every captured change about 20% dearer.)
    static let outboxMarker = ""

    static func install(_ tables: [SyncedTable], in db: GRDB.Database) throws {
        try db.execute(sql: """
            CREATE TABLE IF NOT EXISTS _stratus_state (id INTEGER PRIMARY KEY CHECK (id = 1), applying INTEGER NOT NULL);
            INSERT OR IGNORE INTO _stratus_state (id, applying) VALUES (1, 0);
            UPDATE _stratus_state SET applying = 0;
            CREATE TABLE IF NOT EXISTS _stratus_outbox (
                sequence INTEGER PRIMARY KEY, table_name TEXT NOT NULL, row_id TEXT NOT NULL, change TEXT NOT NULL
            );
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
                CREATE TRIGGER "_stratus_\(name)_insert" AFTER INSERT ON "\(name)" WHEN \(capturing)
                BEGIN INSERT INTO _stratus_outbox (table_name, row_id, change) VALUES ('\(name)', NEW."\(key)", 'save'); END;
                CREATE TRIGGER "_stratus_\(name)_update" AFTER UPDATE ON "\(name)" WHEN \(capturing)
                BEGIN
                    INSERT INTO _stratus_outbox (table_name, row_id, change) VALUES ('\(name)', NEW."\(key)", 'save');
                    UPDATE _stratus_rows SET placeholder = 0 WHERE table_name = '\(name)' AND row_id = NEW."\(key)";
                END;
                CREATE TRIGGER "_stratus_\(name)_delete" AFTER DELETE ON "\(name)" WHEN \(capturing)
                BEGIN INSERT INTO _stratus_outbox (table_name, row_id, change) VALUES ('\(name)', OLD."\(key)", 'delete'); END;
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
}
