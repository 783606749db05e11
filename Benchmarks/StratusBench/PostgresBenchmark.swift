import Foundation
import Logging
import NIOCore
import PostgresNIO
import StratusCore
import StratusServer
import StratusTesting

/// `stratus-bench server --backend postgres --database postgres://user@host:port`: the server on
/// PostgreSQL against raw postgres-nio inserts of the same rows into an equivalent table in the
/// same run, then one instance against two on the same database.
///
/// - `pg_modify_vs_raw`: records/s through `records/modify` ÷ records/s of one multi-row `INSERT`
///   per batch through postgres-nio.
/// - `pg_changes_vs_raw`: records/s read back through `changes/zone` ÷ the same raw insert rate.
/// - `two_instances_vs_one`: single-record saves per second of 32 clients spread over two
///   instances (each with half the connections) ÷ the same 32 clients on one instance.
///
/// Every repetition starts from new, empty databases on that server.
struct PostgresBenchmark {
    /// The server's address without a database.
    var server: String
    var batch: Int
    var repeats: Int
    var saves: Int
    static let clients = 32

    func run(_ records: [StratusCore.Record], in directory: URL) async throws {
        var runs: [(raw: Double, modify: Double, changes: Double)] = []
        for run in 0..<repeats {
            let raw = try await rawInsert(records, database: try await newDatabase())
            let database = try await newDatabase()
            let (modify, changes, fetched) = try await BenchmarkServer.with(directory: directory.appendingPathComponent("pg-\(run)"),
                                                                            configure: { $0.databaseURL = database }) { server in
                try await ServerBenchmark.serverRun(server, zone: ZoneID(zoneName: "Bench"), records: records, batch: batch)
            }
            guard fetched == records.count else { throw BenchmarkError("changes/zone returned \(fetched) records, expected \(records.count)") }
            let rates = (raw: Double(records.count) / raw, modify: Double(records.count) / modify, changes: Double(records.count) / changes)
            print(String(format: "  run %d: raw %.0f  modify %.0f  changes %.0f records/s   modify/raw %.2f  changes/raw %.2f",
                         run + 1, rates.raw, rates.modify, rates.changes, rates.modify / rates.raw, rates.changes / rates.raw))
            runs.append(rates)
        }
        Report.figure("pg_insert_records_per_s", median(runs.map(\.raw)), decimals: 0)
        Report.figure("pg_modify_records_per_s", median(runs.map(\.modify)), decimals: 0)
        Report.figure("pg_changes_records_per_s", median(runs.map(\.changes)), decimals: 0)
        Report.figure("pg_modify_vs_raw", median(runs.map { $0.modify / $0.raw }))
        Report.figure("pg_changes_vs_raw", median(runs.map { $0.changes / $0.raw }))
        try await instances(in: directory)
    }

    /// One instance with 16 connections, then two with 8 each on one database, under the same 32
    /// clients making single-record saves.
    private func instances(in directory: URL) async throws {
        print("single-record saves: \(Self.clients) clients x \(saves), one instance vs two, median of \(repeats)")
        var ratios: [Double] = []
        var one: [Double] = []
        var two: [Double] = []
        for run in 0..<repeats {
            let alone = try await saveRate(instances: 1, directory: directory.appendingPathComponent("one-\(run)"))
            let paired = try await saveRate(instances: 2, directory: directory.appendingPathComponent("two-\(run)"))
            print(String(format: "  run %d: one instance %.0f saves/s  two instances %.0f saves/s  ratio %.2f", run + 1, alone, paired, paired / alone))
            one.append(alone)
            two.append(paired)
            ratios.append(paired / alone)
        }
        Report.figure("pg_saves_one_instance_per_s", median(one), decimals: 0)
        Report.figure("pg_saves_two_instances_per_s", median(two), decimals: 0)
        Report.figure("two_instances_vs_one", median(ratios))
    }

    /// Saves per second of ``clients`` clients spread over `instances` servers on a new database.
    private func saveRate(instances: Int, directory: URL) async throws -> Double {
        let database = try await newDatabase()
        let connections = 16 / instances
        return try await BenchmarkServer.with(directory: directory.appendingPathComponent("a"), configure: {
            $0.databaseURL = database
            $0.databaseConnections = connections
        }) { first in
            guard instances == 2 else { return try await Self.saveRate(over: [first], saves: saves) }
            return try await BenchmarkServer.with(directory: directory.appendingPathComponent("b"), username: "bench-b", configure: {
                $0.databaseURL = database
                $0.databaseConnections = connections
            }) { second in
                try await Self.saveRate(over: [first, second], saves: saves)
            }
        }
    }

    private static func saveRate(over servers: [BenchmarkServer], saves: Int) async throws -> Double {
        var callers: [BenchmarkServer] = []
        for index in 0..<clients { callers.append(try await servers[index % servers.count].anotherUser("writer-\(index)")) }
        let seconds = try await ConcurrentSaves.saveAll(callers, saves: saves, prefix: "s").seconds
        return Double(saves * clients) / seconds
    }

    /// A new, empty database on the server; its URL.
    private func newDatabase() async throws -> String {
        try await Self.newDatabase(on: server)
    }

    /// A new, empty database on `server`; its URL.
    static func newDatabase(on server: String) async throws -> String {
        let name = "stratus_bench_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(16).lowercased()
        let (status, output) = try await ChildProcess.run("psql", ["\(server)/postgres", "-qc", "CREATE DATABASE \(name)"])
        guard status == 0 else { throw BenchmarkError("could not create a database: \(output)") }
        return "\(server)/\(name)"
    }

    /// The baseline: the rows inserted into a table shaped like the server's records table, one
    /// multi-row `INSERT` per batch in its own transaction, through postgres-nio.
    private func rawInsert(_ records: [StratusCore.Record], database: String) async throws -> Double {
        let address = try PostgresAddress(url: database)
        let client = PostgresClient(configuration: address.client, backgroundLogger: BenchmarkServer.quietLogger)
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
        let rows = try ServerBenchmark.rows(of: records)
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
