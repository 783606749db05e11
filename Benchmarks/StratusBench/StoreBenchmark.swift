import ArgumentParser
import Foundation
import GRDB
import StratusClient
import StratusData
import StratusSync

/// `stratus-bench store`: what StratusData's change capture costs — N inserts in one transaction
/// into a synced table (with its triggers) against the same inserts into an identical plain
/// table, in the same run — and how fast fetched records are applied to a synced table, against
/// the same rows written to the plain table page by page (a page's transaction without sync).
struct StoreBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "store", abstract: "Synced GRDB tables: capture overhead and apply rate.")

    @Option(help: "Rows.") var rows = 100_000
    @Option(help: "Repetitions; medians are reported.") var repetitions = 5

    func run() async throws {
        let directory = try ScratchDirectory.make()
        defer { ScratchDirectory.remove(directory) }
        let count = rows
        print("\(count) rows of 4 columns, median of \(repetitions)")
        // As fetched: with the server's system fields (a change tag), which the engine remembers.
        let records = (0..<count).map { index in
            let id = RecordID(recordName: "in-\(index)", zoneID: ZoneID(zoneName: "StratusData"))
            return CloudRecord(systemFields: RecordSystemFields(recordID: id, recordType: "Item", changeTag: "t\(index)"), fields: [
                "title": .string("Item number \(index)"), "quantity": .int64(Int64(index % 17)), "price": .double(Double(index) * 0.25),
            ])
        }
        // Two kinds of app database: a `DatabaseQueue` with SQLite's rollback journal (every
        // commit synced to disk), the configuration of the published figures; and a
        // `DatabasePool` in WAL mode (GRDB sets `synchronous = NORMAL`).
        var overheads: [String: [Double]] = [:], floors: [String: [Double]] = [:], applying: [String: [Double]] = [:]
        var applyOverheads: [String: [Double]] = [:]
        var plainInserts: [String: [Double]] = [:], syncedInserts: [String: [Double]] = [:], plainPages: [String: [Double]] = [:]
        for repetition in 0..<repetitions {
            for mode in ["journal", "wal"] {
                func open(_ name: String) throws -> any DatabaseWriter {
                    let path = directory.appendingPathComponent("\(name)-\(repetition)-\(mode).sqlite").path
                    return mode == "wal" ? try DatabasePool(path: path) : try DatabaseQueue(path: path)
                }
                let writer = try open("app")
                let store = try Self.open(writer)
                // The plain inserts and the floor in files of their own: a file's commits, its
                // checkpoints and its journal are paid by the inserts that made them. The floor is
                // the plain insert with each row followed in its transaction by the row the outbox
                // gets, written by a second statement — what any capture must write, without a trigger.
                let plainWriter = try open("plain"), floorWriter = try open("floor")
                try await plainWriter.write { db in
                    try db.execute(sql: "CREATE TABLE plain_item (id TEXT PRIMARY KEY NOT NULL, title TEXT NOT NULL, quantity INTEGER NOT NULL, price REAL NOT NULL)")
                }
                try await floorWriter.write { db in
                    try db.execute(sql: """
                        CREATE TABLE floor_item (id TEXT PRIMARY KEY NOT NULL, title TEXT NOT NULL, quantity INTEGER NOT NULL, price REAL NOT NULL);
                        CREATE TABLE floor_outbox (sequence INTEGER PRIMARY KEY, zone_name TEXT NOT NULL, owner TEXT NOT NULL,
                                                   record_name TEXT NOT NULL, change TEXT NOT NULL);
                        """)
                }
                // Capture is measured with the engine's outbox rows committed in the timed transaction.
                // The plain inserts are the baseline of both the capture and the floor. The three
                // inserts take turns, a twelfth of the rows at a time in an order that turns round by
                // round (each insert in each place four times): this machine's speed moves by a third
                // from one second to the next, which made one insert after another a comparison of two
                // moments, not two inserts, and turns of a quarter or a third left a repetition's figure ±0.3.
                let kinds: [(writer: any DatabaseWriter, table: String, outbox: String?)] = [
                    (plainWriter, "plain_item", nil), (writer, "item", nil), (floorWriter, "floor_item", "floor_outbox"),
                ]
                var seconds = [Double](repeating: 0, count: kinds.count)
                let rounds = kinds.count * 4
                for round in 0..<rounds {
                    let rows = (count * round / rounds)..<(count * (round + 1) / rounds)
                    for turn in 0..<kinds.count {
                        let kind = (round + turn) % kinds.count
                        seconds[kind] += try await Stopwatch.seconds {
                            try await Self.insert(rows, into: kinds[kind].table, outbox: kinds[kind].outbox, in: kinds[kind].writer)
                        }
                    }
                }
                let floor = seconds[2] / seconds[0]
                floors[mode, default: []].append(floor)
                let inserts = (plain: seconds[0], synced: seconds[1])
                print(String(format: "  repetition %d, %@: capture %.2f×, floor %.2f×", repetition + 1, mode,
                             inserts.synced / inserts.plain, floor))
                overheads[mode, default: []].append(inserts.synced / inserts.plain)
                plainInserts[mode, default: []].append(inserts.plain)
                syncedInserts[mode, default: []].append(inserts.synced)
                // The engine takes the captured changes into its queue (as a send would) before
                // the applying is timed.
                guard try await store.hasUnsentChanges() else { throw BenchmarkError("nothing was captured") }
                let synced = try await Self.apply(records, to: store, in: writer)
                applying[mode, default: []].append(Double(count) / synced)
                let plain = try await Self.applyPlain(count, in: writer)
                applyOverheads[mode, default: []].append(synced / plain)
                plainPages[mode, default: []].append(Double(count) / plain)
            }
        }
        for (mode, name) in [("journal", "a rollback journal"), ("wal", "WAL mode")] {
            print("in \(name):")
            print(String(format: "  capture overhead (synced vs plain inserts): %.2f× (floor: plain insert + an outbox row by hand %.2f×)",
                         median(overheads[mode]!), median(floors[mode]!)))
            print(String(format: "  applying fetched records (pages of 200): %8.0f records/s (target ≥ 50,000)", median(applying[mode]!)))
            print(String(format: "  apply overhead (synced vs plain pages): %.2f×", median(applyOverheads[mode]!)))
        }
        for (mode, suffix) in [("journal", ""), ("wal", "_wal")] {
            Report.figure("plain_insert_ms\(suffix)", median(plainInserts[mode]!) * 1000, decimals: 1)
            Report.figure("synced_insert_ms\(suffix)", median(syncedInserts[mode]!) * 1000, decimals: 1)
            Report.ratio("capture_overhead\(suffix)", median(overheads[mode]!), of: "synced_insert_ms\(suffix)", to: "plain_insert_ms\(suffix)")
            Report.figure("capture_floor\(suffix)", median(floors[mode]!), decimals: 2)
            // What capture may cost: 1.25, or 0.05 over the floor where the floor is above 1.2.
            Report.figure("capture_margin\(suffix)", median(zip(overheads[mode]!, floors[mode]!).map { max(1.25, $1 + 0.05) - $0 }), decimals: 2)
            Report.figure("apply_records_per_s\(suffix)", median(applying[mode]!), decimals: 0)
            Report.figure("plain_pages_records_per_s\(suffix)", median(plainPages[mode]!), decimals: 0)
            // Time ÷ time: the plain pages' rate ÷ the apply rate.
            Report.ratio("apply_overhead\(suffix)", median(applyOverheads[mode]!), of: "plain_pages_records_per_s\(suffix)", to: "apply_records_per_s\(suffix)")
        }
    }
}

extension StoreBenchmark {
    /// The synced table and an identical plain one in `writer`'s database, and the synced database.
    static func open(_ writer: any DatabaseWriter) throws -> SyncedDatabase {
        try writer.write { db in
            for table in ["item", "plain_item"] {
                try db.execute(sql: "CREATE TABLE \(table) (id TEXT PRIMARY KEY NOT NULL, title TEXT NOT NULL, quantity INTEGER NOT NULL, price REAL NOT NULL)")
            }
        }
        let container = Container(baseURL: "http://127.0.0.1:9", containerIdentifier: "iCloud.bench", apiToken: "unused")
        return try SyncedDatabase(writer: writer, tables: [SyncedTable(Item.self, recordType: "Item")], database: container.privateCloudDatabase)
    }

    /// Inserts the rows numbered `rows` into `table` in one transaction; with `outbox`, each followed
    /// by the row the engine's outbox gets for it (the capture floor).
    static func insert(_ rows: Range<Int>, into table: String, outbox: String? = nil, in writer: any DatabaseWriter) async throws {
        try await writer.write { db in
            let statement = try db.makeStatement(sql: "INSERT INTO \(table) (id, title, quantity, price) VALUES (?, ?, ?, ?)")
            let queue = try outbox.map { try db.makeStatement(sql: "INSERT INTO \($0) (zone_name, owner, record_name, change) VALUES ('StratusData', '', ?, 'save')") }
            for index in rows {
                try statement.execute(arguments: ["r-\(index)", "Item number \(index)", index % 17, Double(index) * 0.25])
                try queue?.execute(arguments: ["r-\(index)"])
            }
        }
    }

    /// Seconds to apply `records` as fetched pages of 200, each in its transaction with its token.
    static func apply(_ records: [CloudRecord], to store: SyncedDatabase, in writer: any DatabaseWriter) async throws -> Double {
        let seconds = try await Stopwatch.seconds {
            for start in stride(from: 0, to: records.count, by: 200) {
                let page = Array(records[start..<min(start + 200, records.count)])
                try await store.engine.applyFetchedPage(RecordZoneChanges(zoneID: page[0].recordID.zoneID, modifications: page, deletions: [],
                                                                          changeToken: ServerChangeToken(rawValue: "benchmark"), moreComing: false))
            }
        }
        let applied = try await writer.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM item WHERE id LIKE 'in-%'") } ?? 0
        guard applied == records.count else { throw BenchmarkError("applied \(applied) of \(records.count)") }
        return seconds
    }
}

extension StoreBenchmark {
    /// Seconds to write the rows of `count` records into the plain table as `apply` pages them:
    /// one upsert of 200 rows per page, each page in its transaction.
    static func applyPlain(_ count: Int, in writer: any DatabaseWriter) async throws -> Double {
        let values = (0..<count).map { index in
            ["in-\(index)".databaseValue, "Item number \(index)".databaseValue, (index % 17).databaseValue, (Double(index) * 0.25).databaseValue]
        }
        return try await Stopwatch.seconds {
            for start in stride(from: 0, to: count, by: 200) {
                let page = values[start..<min(start + 200, count)]
                try await writer.write { db in
                    try db.batchStatement(sql: """
                        INSERT INTO plain_item (id, title, quantity, price) VALUES \(databaseRowsQuestionMarks(rows: page.count, columns: 4))
                        ON CONFLICT(id) DO UPDATE SET title = excluded.title, quantity = excluded.quantity, price = excluded.price
                        """, isFull: page.count == 200).bind(page.joined()).execute()
                }
            }
        }
    }
}

/// The synced table's rows, written with SQL.
private struct Item: TableRecord {
    static let databaseTableName = "item"
}
