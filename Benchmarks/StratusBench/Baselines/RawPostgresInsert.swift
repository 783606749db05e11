import Foundation
import NIOCore
import PostgresNIO

/// Baseline: rows inserted into a table shaped like the server's records table on PostgreSQL, one
/// multi-row `INSERT` per batch in its own transaction, through postgres-nio.
///
/// A frozen baseline: `scripts/check-benchmarks.sh` refuses a commit that changes it together
/// with `Sources/`.
struct RawPostgresInsert {
    var batch: Int

    /// Seconds to insert `rows` into a new table of the (empty) database at `database`.
    func seconds(_ rows: [RawSQLiteInsert.Row], database: String) async throws -> Double {
        // A local server without TLS: postgres://user@host:port/database.
        guard let url = URLComponents(string: database), let host = url.host else { throw BenchmarkError("not a database URL: \(database)") }
        let configuration = PostgresClient.Configuration(host: host, port: url.port ?? 5432, username: url.user ?? "postgres",
                                                         password: url.password, database: String(url.path.dropFirst()), tls: .disable)
        let client = PostgresClient(configuration: configuration, backgroundLogger: BenchmarkServer.quietLogger)
        let running = Task { await client.run() }
        defer { running.cancel() }
        let logger = BenchmarkServer.quietLogger
        try await client.query("""
            CREATE TABLE records (
                zone_id BIGINT NOT NULL, record_name TEXT COLLATE "C" NOT NULL, record_type TEXT COLLATE "C" NOT NULL,
                change_tag TEXT COLLATE "C" NOT NULL, fields BYTEA NOT NULL, created_at BIGINT NOT NULL,
                created_by TEXT COLLATE "C" NOT NULL, created_device TEXT COLLATE "C" NOT NULL, modified_at BIGINT NOT NULL,
                modified_by TEXT COLLATE "C" NOT NULL, modified_device TEXT COLLATE "C" NOT NULL, parent TEXT COLLATE "C",
                share TEXT COLLATE "C", sequence BIGINT NOT NULL, deleted BOOLEAN NOT NULL DEFAULT FALSE, create_key TEXT COLLATE "C",
                PRIMARY KEY (zone_id, record_name))
            """, logger: logger)
        try await client.query("CREATE INDEX records_changes ON records(zone_id, sequence)", logger: logger)
        let batch = self.batch
        return try await Stopwatch.seconds {
            var sequence: Int64 = 0
            for start in stride(from: 0, to: rows.count, by: batch) {
                let chunk = rows[start..<min(start + batch, rows.count)]
                var bindings = PostgresBindings(capacity: chunk.count * 5)
                var values: [String] = []
                for (name, type, fields) in chunk {
                    sequence += 1
                    let first = bindings.count + 1
                    bindings.append(name)
                    bindings.append(type)
                    bindings.append(String(sequence, radix: 36))
                    bindings.append(ByteBuffer(data: fields))
                    bindings.append(sequence)
                    values.append("(1, $\(first), $\(first + 1), $\(first + 2), $\(first + 3), 0, 'u', 'd', 0, 'u', 'd', NULL, NULL, $\(first + 4), FALSE, NULL)")
                }
                let sql = "INSERT INTO records VALUES " + values.joined(separator: ", ")
                try await client.withConnection { connection in
                    try await connection.query("BEGIN", logger: logger)
                    try await connection.query(PostgresQuery(unsafeSQL: sql, binds: bindings), logger: logger)
                    try await connection.query("COMMIT", logger: logger)
                }
            }
        }
    }
}
