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
        let zone = ZoneID(zoneName: "Bench")
        let bodies = try ServerBenchmark.modifyBodies(zone: zone, records: records, batch: batch)
        let rows = try ServerBenchmark.rows(of: records)
        var runs: [(raw: Double, modify: Double, changes: Double)] = []
        var bytes: [(raw: Double, server: Double)] = []
        for run in 0..<repeats {
            let rawDatabase = try await newDatabase()
            let raw = try await RawPostgresInsert(batch: batch).seconds(rows, database: rawDatabase)
            let database = try await newDatabase()
            let (modify, changes, fetched) = try await BenchmarkServer.with(directory: directory.appendingPathComponent("pg-\(run)"),
                                                                            configure: { $0.databaseURL = database }) { server in
                try await ServerBenchmark.serverRun(server, zone: zone, bodies: bodies)
            }
            guard fetched == records.count else { throw BenchmarkError("changes/zone returned \(fetched) records, expected \(records.count)") }
            let rates = (raw: Double(records.count) / raw, modify: Double(records.count) / modify, changes: Double(records.count) / changes)
            bytes.append((raw: try await Self.bytes(of: ["records"], in: rawDatabase) / Double(records.count),
                          server: try await Self.bytes(of: ["record_rows", "record_actors"], in: database) / Double(records.count)))
            print(String(format: "  run %d: raw %.0f  modify %.0f  changes %.0f records/s   modify/raw %.2f  changes/raw %.2f   bytes per record: raw %.0f, server %.0f",
                         run + 1, rates.raw, rates.modify, rates.changes, rates.modify / rates.raw, rates.changes / rates.raw,
                         bytes[run].raw, bytes[run].server))
            runs.append(rates)
        }
        Report.figure("pg_disk_bytes_per_record", median(bytes.map(\.server)), decimals: 0)
        Report.figure("pg_insert_records_per_s", median(runs.map(\.raw)), decimals: 0)
        Report.figure("pg_modify_records_per_s", median(runs.map(\.modify)), decimals: 0)
        Report.figure("pg_changes_records_per_s", median(runs.map(\.changes)), decimals: 0)
        Report.ratio("pg_modify_vs_raw", median(runs.map { $0.modify / $0.raw }), of: "pg_modify_records_per_s", to: "pg_insert_records_per_s")
        Report.ratio("pg_changes_vs_raw", median(runs.map { $0.changes / $0.raw }), of: "pg_changes_records_per_s", to: "pg_insert_records_per_s")
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
        Report.ratio("two_instances_vs_one", median(ratios), of: "pg_saves_two_instances_per_s", to: "pg_saves_one_instance_per_s")
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
            // Every instance on one database takes the same master key: the one the first made.
            return try await BenchmarkServer.with(directory: directory.appendingPathComponent("b"), username: "bench-b", configure: {
                $0.databaseURL = database
                $0.databaseConnections = connections
                $0.encryptionKeyFile = directory.appendingPathComponent("a/master.key").path
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

    /// The bytes PostgreSQL keeps for `tables`, their indexes and TOAST included.
    static func bytes(of tables: [String], in database: String) async throws -> Double {
        let sizes = tables.map { "pg_total_relation_size('\($0)')" }.joined(separator: " + ")
        // Two commands: VACUUM cannot run in the transaction one command string makes.
        let (status, output) = try await ChildProcess.run("psql", [database, "-qAt", "-c", "VACUUM", "-c", "SELECT \(sizes)"])
        guard status == 0, let total = output.split(separator: "\n").last.flatMap({ Double($0) }) else {
            throw BenchmarkError("could not measure \(tables): \(output)")
        }
        return total
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
}
