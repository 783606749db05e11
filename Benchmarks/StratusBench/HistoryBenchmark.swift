import ArgumentParser
import Foundation
import StratusCore

/// `stratus-bench history`: what keeping record history costs and what reading it costs, each
/// against a baseline measured in the same run. Writes: the same creates and updates through two
/// servers, one keeping history (the default, 30 days) and one not (`--history-days 0`), taking
/// turns batch by batch; then the bytes each holds. Reads: a page of 100 versions of a record saved
/// `--versions` times against a one-record `records/lookup` of it, in turns. Zone restore: a zone
/// of `--zone-records` updated once, restored to before the update (every record saved back,
/// step by step), against the update itself.
struct HistoryBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "history", abstract: "Record history against none.")

    @Option(help: "Records of each server.") var records = 10_000
    @Option(help: "Records per request.") var batch = 200
    @Option(help: "Times every record is updated after its create (each update keeps a version).") var rounds = 4
    @Option(help: "Versions of the record whose history is read.") var versions = 1000
    @Option(help: "History pages and lookups read, in turns; the median of each counts.") var reads = 300
    @Option(help: "Records of the zone restored.") var zoneRecords = 5000

    func run() async throws {
        let directory = try ScratchDirectory.make()
        defer { ScratchDirectory.remove(directory) }
        let (records, batch, rounds) = (self.records, self.batch, self.rounds)
        let offDirectory = directory.appendingPathComponent("off"), onDirectory = directory.appendingPathComponent("on")
        let seconds = try await BenchmarkServer.with(directory: offDirectory, configure: { $0.historyRetention = .zero }) { off in
            try await BenchmarkServer.with(directory: onDirectory) { on in
                var seconds = (off: 0.0, on: 0.0)
                for round in 0...rounds {
                    for (index, start) in stride(from: 0, to: records, by: batch).enumerated() {
                        let body = Self.modifyBody(round: round, names: (start..<min(start + batch, records)).map { "r\($0)" })
                        // Each batch goes to the two servers in turn, the first one alternating.
                        let order = index % 2 == 0 ? [(off, false), (on, true)] : [(on, true), (off, false)]
                        for (server, keeps) in order {
                            let elapsed = try await Stopwatch.seconds { _ = try await server.post(server.databasePath("records/modify"), body: body) }
                            if keeps { seconds.on += elapsed } else { seconds.off += elapsed }
                        }
                    }
                }
                return seconds
            }
        }
        let written = Double(records * (rounds + 1))
        let bytes = (off: try ServerBenchmark.bytes(of: offDirectory.appendingPathComponent("stratus.sqlite").path),
                     on: try ServerBenchmark.bytes(of: onDirectory.appendingPathComponent("stratus.sqlite").path))
        let perVersion = (bytes.on - bytes.off) / Double(records * rounds)
        print(String(format: "%d records created and updated %d times, %d a request: history off %.0f records/s, on %.0f records/s (on/off %.2f); %.0f bytes per kept version (%.1f MB against %.1f MB)",
                     records, rounds, batch, written / seconds.off, written / seconds.on, seconds.off / seconds.on, perVersion,
                     bytes.on / 1e6, bytes.off / 1e6))
        Report.figure("history_off_modify_records_per_s", written / seconds.off, decimals: 0)
        Report.figure("history_on_modify_records_per_s", written / seconds.on, decimals: 0)
        Report.ratio("history_modify_on_vs_off", seconds.off / seconds.on, of: "history_on_modify_records_per_s", to: "history_off_modify_records_per_s")
        Report.figure("history_bytes_per_version", perVersion, decimals: 0)
        try await measureReads(in: directory.appendingPathComponent("reads"))
        try await measureZoneRestore(in: directory.appendingPathComponent("zone"))
    }

    /// A zone of ``zoneRecords`` updated once, then restored to before the update, against the update.
    private func measureZoneRestore(in directory: URL) async throws {
        let (records, batch) = (zoneRecords, self.batch)
        let (updating, restoring) = try await BenchmarkServer.with(directory: directory) { server in
            let zone = ZoneID(zoneName: "Restored")
            _ = try await server.post(server.databasePath("zones/modify"),
                                      body: Data(#"{"operations":[{"operationType":"create","zone":{"zoneID":{"zoneName":"Restored"}}}]}"#.utf8))
            func writeAll(round: Int) async throws -> Double {
                try await Stopwatch.seconds {
                    for start in stride(from: 0, to: records, by: batch) {
                        let names = (start..<min(start + batch, records)).map { "z\($0)" }
                        _ = try await server.post(server.databasePath("records/modify"), body: Self.modifyBody(round: round, names: names, zone: zone.zoneName))
                    }
                }
            }
            _ = try await writeAll(round: 0)
            try await Task.sleep(for: .milliseconds(5))
            let before = Int64(Date().timeIntervalSince1970 * 1000)
            try await Task.sleep(for: .milliseconds(5))
            let updating = try await writeAll(round: 1)
            var restored = 0
            let restoring = try await Stopwatch.seconds {
                var marker: String?
                repeat {
                    let body = try JSONEncoder().encode(ZoneRestoreRequest(zoneID: zone, timestamp: before, continuationMarker: marker))
                    let step = try JSONDecoder().decode(ZoneRestoreResponse.self, from: try await server.post(server.databasePath("zones/restore"), body: body))
                    guard step.errors.isEmpty else { throw BenchmarkError("zones/restore answered \(step.errors.count) errors") }
                    restored += step.restoredRecords.count
                    marker = step.continuationMarker
                } while marker != nil
            }
            guard restored == records else { throw BenchmarkError("zones/restore restored \(restored) of \(records) records") }
            return (updating, restoring)
        }
        let restoreRate = Double(records) / restoring, updateRate = Double(records) / updating
        print(String(format: "a zone of %d records restored to before an update: %.0f records/s; the update %.0f records/s (restore/update %.2f)",
                     records, restoreRate, updateRate, restoreRate / updateRate))
        Report.figure("zone_restore_records_per_s", restoreRate, decimals: 0)
        Report.figure("zone_update_records_per_s", updateRate, decimals: 0)
        Report.ratio("zone_restore_vs_update", restoreRate / updateRate, of: "zone_restore_records_per_s", to: "zone_update_records_per_s")
    }

    /// A page of 100 versions of a record with ``versions`` against a lookup of the record.
    private func measureReads(in directory: URL) async throws {
        let (versions, reads) = (self.versions, self.reads)
        let times = try await BenchmarkServer.with(directory: directory) { server in
            for version in 0..<versions {
                _ = try await server.post(server.databasePath("records/modify"), body: Self.modifyBody(round: version, names: ["many"]))
            }
            let history = try JSONEncoder().encode(RecordHistoryRequest(recordName: "many", resultsLimit: 100))
            let lookup = try JSONEncoder().encode(RecordsLookupRequest(records: [.init(recordName: "many")]))
            let page = try JSONDecoder().decode(RecordHistoryResponse.self, from: try await server.post(server.databasePath("records/history"), body: history))
            guard page.versions.count == 100, page.continuationMarker != nil else {
                throw BenchmarkError("records/history answered \(page.versions.count) versions of \(versions)")
            }
            var times: [(history: Double, lookup: Double)] = []
            for _ in 0..<reads {
                let pageSeconds = try await Stopwatch.seconds { _ = try await server.post(server.databasePath("records/history"), body: history) }
                let lookupSeconds = try await Stopwatch.seconds { _ = try await server.post(server.databasePath("records/lookup"), body: lookup) }
                times.append((pageSeconds, lookupSeconds))
            }
            return times
        }
        let page = median(times.map(\.history)) * 1000, one = median(times.map(\.lookup)) * 1000
        print(String(format: "a page of 100 of %d versions: %.2f ms; a one-record lookup %.2f ms (medians of %d): page/lookup %.2f",
                     versions, page, one, reads, page / one))
        Report.figure("history_page_100_ms", page, decimals: 2)
        Report.figure("history_lookup_ms", one, decimals: 2)
        Report.ratio("history_1000_versions_vs_lookup", page / one, of: "history_page_100_ms", to: "history_lookup_ms")
    }

    /// `forceUpdate`s (a create the first round, a new version after) of `names` with five fields
    /// of about 40 characters that differ from round to round.
    static func modifyBody(round: Int, names: [String], zone: String = ZoneID.defaultZoneName, recordType: String = "Item") -> Data {
        var json = #"{"operations":["#
        for (index, name) in names.enumerated() {
            if index > 0 { json += "," }
            let fields = (0..<5).map { #""f\#($0)":{"value":"field \#($0) of \#(name) in round \#(round), a few words","type":"STRING"}"# }
            json += #"{"operationType":"forceUpdate","record":{"recordType":"\#(recordType)","recordName":"\#(name)","fields":{\#(fields.joined(separator: ","))}}}"#
        }
        return Data((json + #"],"zoneID":{"zoneName":"\#(zone)"}}"#).utf8)
    }
}
