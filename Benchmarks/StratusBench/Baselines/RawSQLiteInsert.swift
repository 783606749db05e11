import Foundation
import GRDB

/// Baseline: rows inserted straight into a table shaped like the server's records table, through
/// a GRDB pool set up as the server sets up its own (WAL, `synchronous = FULL` on the writer, a
/// 10-second busy timeout), in transactions of `batch` rows.
///
/// A frozen baseline: it opens its database itself, so no change to the server's code moves it,
/// and `scripts/check-benchmarks.sh` refuses a commit that changes it together with `Sources/`.
struct RawSQLiteInsert {
    /// A row as the server stores it: name, type, and the fields' JSON.
    typealias Row = (name: String, type: String, fields: Data)

    var batch: Int

    /// Seconds to insert `rows` into a new database at `path`.
    func seconds(_ rows: [Row], path: String) async throws -> Double {
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        let pool = try DatabasePool(path: path, configuration: configuration)
        try await pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
        try await pool.write { db in
            try db.execute(sql: """
                CREATE TABLE records (
                    zone_id INTEGER NOT NULL, record_name TEXT NOT NULL, record_type TEXT NOT NULL,
                    change_tag TEXT NOT NULL, fields BLOB NOT NULL, created_at INTEGER NOT NULL,
                    created_by TEXT NOT NULL, created_device TEXT NOT NULL, modified_at INTEGER NOT NULL,
                    modified_by TEXT NOT NULL, modified_device TEXT NOT NULL, parent TEXT, share TEXT,
                    sequence INTEGER NOT NULL, deleted INTEGER NOT NULL DEFAULT 0,
                    PRIMARY KEY (zone_id, record_name)) WITHOUT ROWID;
                CREATE INDEX records_changes ON records(zone_id, sequence);
                """)
        }
        let batch = self.batch
        return try await Stopwatch.seconds {
            var sequence: Int64 = 0
            for start in stride(from: 0, to: rows.count, by: batch) {
                let chunk = rows[start..<min(start + batch, rows.count)]
                let first = sequence
                try await pool.write { db in
                    let statement = try db.cachedStatement(sql: "INSERT INTO records VALUES (1, ?, ?, ?, ?, 0, 'u', 'd', 0, 'u', 'd', NULL, NULL, ?, 0)")
                    var next = first
                    for (name, type, fields) in chunk {
                        next += 1
                        try statement.execute(arguments: [name, type, String(next, radix: 36), fields, next])
                    }
                }
                sequence += Int64(chunk.count)
            }
        }
    }
}
