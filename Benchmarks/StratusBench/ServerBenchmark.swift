import ArgumentParser
import Foundation
import GRDB
import StratusCore
import StratusServer

/// `stratus-bench server`: record writes and change-feed reads through the server, against raw
/// GRDB inserts of the same rows measured in the same run: (b) and (c) without record history
/// (`--history-days 0`, the write path as the performance issue measured it), (d) with the shipped
/// defaults (history kept 30 days).
struct ServerBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "server", abstract: "Records through HTTP vs. raw SQLite.")

    @Option(help: "Number of records.") var records = 100_000
    @Option(help: "Records per transaction / request.") var batch = 400
    @Option(help: "Repetitions; each measures (a), (b) and (c) back to back, and the median counts.") var repeats = 5
    @Option(help: "The store: sqlite, or postgres (with --database).") var backend = "sqlite"
    @Option(help: "With --backend postgres: the PostgreSQL server to make databases on (postgres://user@host:port).") var database: String?

    func run() async throws {
        let directory = try ScratchDirectory.make()
        defer { ScratchDirectory.remove(directory) }
        let records = (0..<self.records).map(Self.record)
        print("N = \(self.records) records of 5 fields, batches of \(batch), median of \(repeats) interleaved repetitions")
        switch backend {
        case "sqlite": break
        case "postgres":
            guard let database else { throw ValidationError("--backend postgres needs --database postgres://user@host:port") }
            return try await PostgresBenchmark(server: database, batch: batch, repeats: repeats, saves: saves).run(records, in: directory)
        default: throw ValidationError("--backend is sqlite or postgres")
        }

        let zone = ZoneID(zoneName: "Bench")
        let bodies = try Self.modifyBodies(zone: zone, records: records, batch: batch)
        let rows = try Self.rows(of: records)
        var runs: [(sqlite: Double, modify: Double, changes: Double, read: Double, defaults: Double)] = []
        var bytes: [(sqlite: Double, server: Double, defaults: Double)] = []
        for run in 0..<repeats {
            // Each repetition starts from empty files, for the baseline and the server alike. The
            // baseline is measured on both sides of the server's run and their mean counts: on this
            // kind of machine its rate moves by a third within one invocation (its 250 commits wait
            // on the disk), and a ratio should divide figures taken under the same conditions.
            let runDirectory = directory.appendingPathComponent("run-\(run)")
            try FileManager.default.createDirectory(at: runDirectory, withIntermediateDirectories: true)
            let rawPath = runDirectory.appendingPathComponent("raw.sqlite").path
            let sqliteBefore = try await RawSQLiteInsert(batch: batch).seconds(rows, path: rawPath)
            let serverDirectory = runDirectory.appendingPathComponent("server")
            let (modify, changes, fetched) = try await BenchmarkServer.with(directory: serverDirectory,
                                                                            configure: { $0.historyRetention = .zero }) { server in
                try await Self.serverRun(server, zone: zone, bodies: bodies)
            }
            guard fetched == records.count else { throw BenchmarkError("changes/zone returned \(fetched) records, expected \(records.count)") }
            let defaultsDirectory = runDirectory.appendingPathComponent("defaults")
            let (modifyDefaults, _, _) = try await BenchmarkServer.with(directory: defaultsDirectory) { server in
                try await Self.serverRun(server, zone: zone, bodies: bodies)
            }
            let rawPathAfter = runDirectory.appendingPathComponent("raw-after.sqlite").path
            let sqliteAfter = try await RawSQLiteInsert(batch: batch).seconds(rows, path: rawPathAfter)
            let sqlite = (sqliteBefore + sqliteAfter) / 2
            bytes.append((sqlite: try Self.bytes(of: rawPath) / Double(records.count),
                          server: try Self.bytes(of: serverDirectory.appendingPathComponent("stratus.sqlite").path) / Double(records.count),
                          defaults: try Self.bytes(of: defaultsDirectory.appendingPathComponent("stratus.sqlite").path) / Double(records.count)))
            // (r): the same requests to a server whose operation limit is one below the batch:
            // each is received and parsed, and refused before its operations are read beside the writer.
            let read = try await BenchmarkServer.with(directory: runDirectory.appendingPathComponent("read"),
                                                      configure: { $0.maxOperationsPerRequest = batch - 1 }) { server in
                try await Self.readOnlyRun(server, zone: zone, bodies: bodies)
            }
            // A repetition's files go once measured: nothing left for the disk to write back under the next.
            ScratchDirectory.remove(runDirectory)
            let rates = (sqlite: Double(records.count) / sqlite, modify: Double(records.count) / modify, changes: Double(records.count) / changes,
                         read: Double(records.count) / read, defaults: Double(records.count) / modifyDefaults)
            print(String(format: "  run %d: (a) %.0f (before %.0f, after %.0f)  (b) %.0f  (c) %.0f  (r) %.0f  (d) %.0f records/s   b/a %.2f  c/a %.2f  r/a %.2f  d/a %.2f   bytes per record: (a) %.0f, server %.0f, defaults %.0f",
                         run + 1, rates.sqlite, Double(records.count) / sqliteBefore, Double(records.count) / sqliteAfter, rates.modify, rates.changes, rates.read,
                         rates.defaults, rates.modify / rates.sqlite, rates.changes / rates.sqlite, rates.read / rates.sqlite, rates.defaults / rates.sqlite,
                         bytes[run].sqlite, bytes[run].server, bytes[run].defaults))
            runs.append(rates)
        }
        let sqliteRate = median(runs.map(\.sqlite))
        let modifyRate = median(runs.map(\.modify))
        let changesRate = median(runs.map(\.changes))
        let modifyRatio = median(runs.map { $0.modify / $0.sqlite })
        let changesRatio = median(runs.map { $0.changes / $0.sqlite })
        let readRate = median(runs.map(\.read))
        let readRatio = median(runs.map { $0.read / $0.sqlite })
        print(String(format: "(a) raw GRDB insert:        %9.0f records/s", sqliteRate))
        print(String(format: "(b) records/modify (HTTP):  %9.0f records/s   b/a = %.2f", modifyRate, modifyRatio))
        print(String(format: "(c) changes/zone (HTTP):    %9.0f records/s   c/a = %.2f", changesRate, changesRatio))
        print(String(format: "(r) records/modify read and refused: %9.0f records/s   r/a = %.2f", readRate, readRatio))
        Report.figure("sqlite_insert_records_per_s", sqliteRate, decimals: 0)
        Report.figure("modify_records_per_s", modifyRate, decimals: 0)
        Report.figure("changes_records_per_s", changesRate, decimals: 0)
        Report.ratio("modify_vs_sqlite", modifyRatio, of: "modify_records_per_s", to: "sqlite_insert_records_per_s")
        Report.ratio("changes_vs_sqlite", changesRatio, of: "changes_records_per_s", to: "sqlite_insert_records_per_s")
        Report.figure("modify_read_records_per_s", readRate, decimals: 0)
        Report.ratio("modify_read_vs_sqlite", readRatio, of: "modify_read_records_per_s", to: "sqlite_insert_records_per_s")
        print(String(format: "bytes per record on disk: (a) %.0f, the server %.0f   server/a = %.2f",
                     median(bytes.map(\.sqlite)), median(bytes.map(\.server)), median(bytes.map { $0.server / $0.sqlite })))
        Report.figure("sqlite_disk_bytes_per_record", median(bytes.map(\.sqlite)), decimals: 0)
        Report.figure("disk_bytes_per_record", median(bytes.map(\.server)), decimals: 0)
        Report.ratio("disk_bytes_vs_sqlite", median(bytes.map { $0.server / $0.sqlite }), of: "disk_bytes_per_record", to: "sqlite_disk_bytes_per_record")
        print(String(format: "(d) records/modify with the shipped defaults (history kept): %9.0f records/s   d/a = %.2f; %.0f bytes per record   d/a = %.2f",
                     median(runs.map(\.defaults)), median(runs.map { $0.defaults / $0.sqlite }), median(bytes.map(\.defaults)),
                     median(bytes.map { $0.defaults / $0.sqlite })))
        Report.figure("modify_defaults_records_per_s", median(runs.map(\.defaults)), decimals: 0)
        Report.ratio("modify_vs_sqlite_defaults", median(runs.map { $0.defaults / $0.sqlite }), of: "modify_defaults_records_per_s", to: "sqlite_insert_records_per_s")
        Report.figure("disk_bytes_per_record_defaults", median(bytes.map(\.defaults)), decimals: 0)
        Report.ratio("disk_bytes_vs_sqlite_defaults", median(bytes.map { $0.defaults / $0.sqlite }), of: "disk_bytes_per_record_defaults",
                     to: "sqlite_disk_bytes_per_record")
        try await ConcurrentSaves(saves: saves, repeats: repeats).run(in: directory)
    }

    @Option(help: "Single-record saves per client in the concurrent scenario.") var saves = 200

    /// The bytes of a closed database: its file and its WAL after `PRAGMA wal_checkpoint(TRUNCATE)`
    /// (the server's and the baseline's alike, each with every row it wrote).
    static func bytes(of path: String) throws -> Double {
        let database = try DatabaseQueue(path: path)
        try database.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        var total = 0
        for file in [path, path + "-wal"] {
            total += ((try? FileManager.default.attributesOfItem(atPath: file)[.size]) as? NSNumber)?.intValue ?? 0
        }
        try database.close()
        return Double(total)
    }

    static func record(_ index: Int) -> StratusCore.Record {
        StratusCore.Record(recordName: "record-\(index)", recordType: "Item", fields: [
            "title": .string("Item number \(index)"),
            "quantity": .int64(Int64(index % 17)),
            "price": .double(Double(index) * 0.25),
            "addedAt": .timestamp(1_700_000_000_000 + Int64(index)),
            "done": .int64(Int64(index % 2)),
        ])
    }

    /// The baselines' rows: each record's name, type and fields as the server stores them.
    static func rows(of records: [StratusCore.Record]) throws -> [RawSQLiteInsert.Row] {
        let encoder = JSONEncoder()
        return try records.map { record in
            (record.recordName!, record.recordType!, try encoder.encode(record.fields.compactMapValues { $0 }.mapValues { RecordField($0) }))
        }
    }

    /// The `records/modify` bodies that create `records` in `zone`, `batch` a request: encoded once,
    /// before any clock starts, and sent to every server of the run.
    static func modifyBodies(zone: ZoneID, records: [StratusCore.Record], batch: Int) throws -> [Data] {
        try stride(from: 0, to: records.count, by: batch).map { start in
            try JSONEncoder().encode(RecordsModifyRequest(
                operations: records[start..<min(start + batch, records.count)].map { RecordOperation(.create, $0) }, zoneID: zone))
        }
    }

    private static func createZone(_ zone: ZoneID, on server: BenchmarkServer) async throws {
        _ = try await server.post(server.databasePath("zones/modify"),
                                  body: try JSONEncoder().encode(ZonesModifyRequest(operations: [.init(.create, zone)])))
    }

    /// (r): seconds to send the bodies of (b) to a server that parses each and refuses it
    /// (`LIMIT_EXCEEDED`: more operations than it allows) before any write — what (b) spends
    /// before its writer starts, answer included.
    static func readOnlyRun(_ server: BenchmarkServer, zone: ZoneID, bodies: [Data]) async throws -> Double {
        try await createZone(zone, on: server)
        return try await Stopwatch.seconds {
            for body in bodies {
                let (status, answer) = try await server.send(.POST, server.databasePath("records/modify"), body: body)
                guard status == 413, String(decoding: answer, as: UTF8.self).contains("LIMIT_EXCEEDED") else {
                    throw BenchmarkError("records/modify over the operation limit answered HTTP \(status): \(String(decoding: answer, as: UTF8.self))")
                }
            }
        }
    }

    /// (b) and (c): save through `records/modify`, then read everything back through `changes/zone`.
    static func serverRun(_ server: BenchmarkServer, zone: ZoneID, bodies: [Data]) async throws -> (Double, Double, Int) {
        try await createZone(zone, on: server)
        let modifySeconds = try await Stopwatch.seconds {
            for body in bodies {
                _ = try await server.post(server.databasePath("records/modify"), body: body)
            }
        }
        var fetched = 0
        let changesSeconds = try await Stopwatch.seconds {
            var token: String?
            while true {
                let request = ZoneChangesRequest(zones: [.init(zoneID: zone, syncToken: token)], resultsLimit: 200)
                let data = try await server.post(server.databasePath("changes/zone"), body: try JSONEncoder().encode(request))
                let page = try ChangesPage(data)
                fetched += page.records
                token = page.syncToken
                if !page.moreComing { break }
            }
        }
        return (modifySeconds, changesSeconds, fetched)
    }

    /// What the reading loop needs from a `changes/zone` response, read with Stratus's own parser.
    private struct ChangesPage {
        var syncToken: String
        var moreComing: Bool
        var records: Int

        init(_ data: Data) throws {
            guard case .object(let body) = try JSONParser.parse(Array(data)), case .array(let zones)? = body["zones"],
                  case .object(let zone)? = zones.first, case .string(let token)? = zone["syncToken"],
                  case .bool(let moreComing)? = zone["moreComing"], case .array(let records)? = zone["records"] else {
                throw BenchmarkError("unexpected changes/zone response")
            }
            syncToken = token
            self.moreComing = moreComing
            self.records = records.count
        }
    }
}
