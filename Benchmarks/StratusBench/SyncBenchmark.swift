import ArgumentParser
import StratusCore
import Foundation
import StratusClient
import StratusSync

/// `stratus-bench sync`: a fresh device's initial sync of N records through a SyncEngine (fetch,
/// persist the engine's state, deliver events), and a device sending N queued records, against the
/// server-only rates of `changes/zone` reads and `records/modify` writes over the same loopback in
/// the same run. The server runs in a child process; the peak RSS reported is this (syncing)
/// process's.
struct SyncBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "sync", abstract: "Sync engine throughput vs the server alone.")

    @Option(help: "Records to sync each way.") var records = 100_000

    func run() async throws {
        let directory = try ScratchDirectory.make()
        defer { ScratchDirectory.remove(directory) }
        let count = records
        print("\(count) records of 4 fields; server in a child process")
        let figures = try await BenchmarkServer.inChildProcess(directory: directory.appendingPathComponent("server")) { server in
            let container = Container(baseURL: server.baseURL, containerIdentifier: BenchmarkServer.containerID, apiToken: server.apiToken)
            await container.restoreSession(webAuthToken: server.webAuthToken)
            let database = container.privateCloudDatabase
            let seeded = ZoneID(zoneName: "Seeded")
            let outbox = ZoneID(zoneName: "Outbox")
            try await database.save(zone: seeded)
            try await database.save(zone: outbox)

            // Server only, over raw HTTP: records/modify in batches of 400, then changes/zone pages of 200.
            let modifySeconds = try await Stopwatch.seconds {
                for start in stride(from: 0, to: count, by: 400) {
                    let operations = (start..<min(start + 400, count)).map {
                        RecordOperation(.forceReplace, Record(recordName: "r-\($0)", recordType: "Item", fields: Self.fields($0).mapValues(Optional.some)))
                    }
                    var writer = WireWriter(capacity: 64 * 1024)
                    try RecordsModifyRequest(operations: operations, zoneID: seeded, atomic: false).write(to: &writer)
                    _ = try await server.post(server.databasePath("records/modify"), body: Data(writer.bytes))
                }
            }
            var read = 0
            let changesSeconds = try await Stopwatch.seconds {
                var token: String?
                while true {
                    let request = ZoneChangesRequest(zones: [.init(zoneID: seeded, syncToken: token, resultsLimit: 200)])
                    let body = try await server.post(server.databasePath("changes/zone"), body: try JSONEncoder().encode(request))
                    guard let page = try ZoneChangesResponse(json: JSONParser.parse(Array(body))).zones.first?.changes else {
                        throw BenchmarkError("changes/zone failed")
                    }
                    read += page.records.count
                    token = page.syncToken
                    if !page.moreComing { break }
                }
            }
            guard read == count else { throw BenchmarkError("read \(read) of \(count) records") }

            // A fresh device's initial sync.
            let delivered = Counter()
            let fetching = ClosureDelegate(events: { event in
                if case .fetchedRecordZoneChanges(let modifications, _) = event { await delivered.add(modifications.count) }
            })
            let fetcher = try SyncEngine(configuration: Self.configuration(database, directory.appendingPathComponent("fetcher.sqlite"), fetching))
            let syncSeconds = try await Stopwatch.seconds {
                try await fetcher.fetchChanges()
                guard await delivered.value == count else { throw BenchmarkError("initial sync delivered a wrong count") }
            }

            // A device sending queued records; the app hands out bodies as the engine asks.
            let sending = ClosureDelegate(records: { id in Self.record(Int(id.recordName.dropFirst(2)) ?? 0, in: outbox) })
            let sender = try SyncEngine(configuration: Self.configuration(database, directory.appendingPathComponent("sender.sqlite"), sending))
            for start in stride(from: 0, to: count, by: 10_000) {
                try await sender.add(pendingRecordZoneChanges: (start..<min(start + 10_000, count)).map {
                    .saveRecord(RecordID(recordName: "r-\($0)", zoneID: outbox))
                })
            }
            let sendSeconds = try await Stopwatch.seconds { try await sender.sendChanges() }
            guard try await sender.snapshot().pendingRecordChanges.isEmpty else { throw BenchmarkError("records left unsent") }
            withExtendedLifetime((fetching, sending)) {}
            return (modifySeconds, changesSeconds, syncSeconds, sendSeconds)
        }
        let (modifySeconds, changesSeconds, syncSeconds, sendSeconds) = figures
        let rate = { (seconds: Double) in Double(count) / seconds }
        let peak = Double(PeakMemory.status("VmHWM", of: "self")) / 1_048_576
        print(String(format: "server only: changes/zone read  %8.0f records/s", rate(changesSeconds)))
        print(String(format: "initial sync (SyncEngine)       %8.0f records/s   ratio %.2f (target ≥ 0.5)", rate(syncSeconds), changesSeconds / syncSeconds))
        print(String(format: "server only: records/modify     %8.0f records/s", rate(modifySeconds)))
        print(String(format: "send queued (SyncEngine)        %8.0f records/s   ratio %.2f (target ≥ 0.5)", rate(sendSeconds), modifySeconds / sendSeconds))
        print(String(format: "peak RSS of this syncing process: %.0f MB (target ≤ 200)", peak))
        Report.figure("initial_sync_records_per_s", rate(syncSeconds), decimals: 0)
        Report.figure("send_records_per_s", rate(sendSeconds), decimals: 0)
        Report.figure("server_changes_records_per_s", rate(changesSeconds), decimals: 0)
        Report.figure("server_modify_records_per_s", rate(modifySeconds), decimals: 0)
        Report.ratio("initial_sync_vs_server", changesSeconds / syncSeconds, of: "initial_sync_records_per_s", to: "server_changes_records_per_s")
        Report.ratio("send_vs_server", modifySeconds / sendSeconds, of: "send_records_per_s", to: "server_modify_records_per_s")
        Report.figure("sync_peak_rss_mb", peak, decimals: 0)
    }

    static func record(_ index: Int, in zoneID: ZoneID) -> CloudRecord {
        CloudRecord(recordType: "Item", recordID: RecordID(recordName: "r-\(index)", zoneID: zoneID), fields: fields(index))
    }

    static func fields(_ index: Int) -> [String: FieldValue] {
        [
            "title": .string("Item number \(index)"), "quantity": .int64(Int64(index % 17)),
            "price": .double(Double(index) * 0.25), "addedAt": .timestamp(1_700_000_000_000 + Int64(index)),
        ]
    }

    static func configuration(_ database: CloudDatabase, _ state: URL, _ delegate: ClosureDelegate) -> SyncEngine.Configuration {
        var configuration = SyncEngine.Configuration(database: database, stateURL: state, delegate: delegate)
        configuration.automaticallySync = false
        return configuration
    }
}

/// A count that tasks add to.
actor Counter {
    private(set) var value = 0
    func add(_ amount: Int) { value += amount }
}
