import ArgumentParser
import Foundation
import GRDB
import StratusClient
import StratusData

/// `stratus-bench store`: what StratusData's change capture costs — N inserts in one transaction
/// into a synced table (with its triggers) against the same inserts into an identical plain
/// table, in the same run — and how fast fetched records are applied to a synced table.
struct StoreBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "store", abstract: "Synced GRDB tables: capture overhead and apply rate.")

    @Option(help: "Rows.") var rows = 100_000
    @Option(help: "Repetitions; medians are reported.") var repetitions = 5

    func run() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("stratus-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let count = rows
        print("\(count) rows of 4 columns, median of \(repetitions)")
        var plain: [Double] = [], synced: [Double] = [], apply: [Double] = [], applyRollbackJournal: [Double] = []
        // As fetched: with the server's system fields (a change tag), which the engine remembers.
        let records = (0..<count).map { index in
            let id = RecordID(recordName: "in-\(index)", zoneID: ZoneID(zoneName: "StratusData"))
            return CloudRecord(systemFields: RecordSystemFields(recordID: id, recordType: "Item", changeTag: "t\(index)"), fields: [
                "title": .string("Item number \(index)"), "quantity": .int64(Int64(index % 17)), "price": .double(Double(index) * 0.25),
            ])
        }
        for repetition in 0..<repetitions {
            // An app's database as GRDB recommends for apps: a pool, in WAL mode.
            let pool = try DatabasePool(path: directory.appendingPathComponent("app-\(repetition).sqlite").path)
            let store = try Self.open(pool)
            // Capture is measured with the engine's outbox rows committed in the timed transaction.
            for (table, times) in [("plain_item", 0), ("item", 1)] {
                let seconds = try await Stopwatch.seconds {
                    try await pool.write { db in
                        let statement = try db.makeStatement(sql: "INSERT INTO \(table) (id, title, quantity, price) VALUES (?, ?, ?, ?)")
                        for index in 0..<count {
                            try statement.execute(arguments: ["r-\(index)", "Item number \(index)", index % 17, Double(index) * 0.25])
                        }
                    }
                }
                if times == 0 { plain.append(seconds) } else { synced.append(seconds) }
            }
            // The engine takes the captured changes into its queue (as a send would) before the
            // applying is timed.
            guard try await store.hasUnsentChanges() else { throw BenchmarkError("nothing was captured") }
            apply.append(try await Self.apply(records, to: store, in: pool))
            // The same in a database with a rollback journal (a `DatabaseQueue`'s default), where
            // every page's commit is synced to disk.
            let queue = try DatabaseQueue(path: directory.appendingPathComponent("app-\(repetition)-journal.sqlite").path)
            applyRollbackJournal.append(try await Self.apply(records, to: try Self.open(queue), in: queue))
        }
        let overhead = median(zip(synced, plain).map { $0 / $1 })
        let rate = Double(count) / median(apply), rollbackJournalRate = Double(count) / median(applyRollbackJournal)
        print(String(format: "plain table inserts:  %8.0f rows/s", Double(count) / median(plain)))
        print(String(format: "synced table inserts: %8.0f rows/s   overhead %.2f× (target ≤ 1.5)", Double(count) / median(synced), overhead))
        print(String(format: "applying fetched records (pages of 200): %8.0f records/s (target ≥ 50,000)", rate))
        print(String(format: "  the same in a rollback journal:        %8.0f records/s", rollbackJournalRate))
        Report.figure("capture_overhead", overhead)
        Report.figure("apply_records_per_s", rate, decimals: 0)
        Report.figure("apply_records_per_s_rollback_journal", rollbackJournalRate, decimals: 0)
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

    /// Seconds to apply `records` as fetched pages of 200, each in its transaction with its token.
    static func apply(_ records: [CloudRecord], to store: SyncedDatabase, in writer: any DatabaseWriter) async throws -> Double {
        let seconds = try await Stopwatch.seconds {
            for start in stride(from: 0, to: records.count, by: 200) {
                try await store.applyFetched(Array(records[start..<min(start + 200, records.count)]))
            }
        }
        let applied = try await writer.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM item WHERE id LIKE 'in-%'") } ?? 0
        guard applied == records.count else { throw BenchmarkError("applied \(applied) of \(records.count)") }
        return seconds
    }
}

/// The synced table's rows, written with SQL.
private struct Item: TableRecord {
    static let databaseTableName = "item"
}
