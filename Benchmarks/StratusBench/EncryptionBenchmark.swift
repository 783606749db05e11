import ArgumentParser
import Foundation
import StratusCore

/// `stratus-bench encryption`: `records/modify` and `records/lookup` of records with five
/// encrypted fields against the same records with five plain fields, on one server in the same
/// run, the two kinds taking turns batch by batch.
struct EncryptionBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "encryption", abstract: "Encrypted fields against plain ones.")

    @Option(help: "Records of each kind.") var records = 20_000
    @Option(help: "Records per request.") var batch = 200

    static let schema = """
        DEFINE SCHEMA
            RECORD TYPE Plain (f0 STRING, f1 STRING, f2 STRING, f3 STRING, f4 STRING);
            RECORD TYPE Sealed (f0 ENCRYPTED STRING, f1 ENCRYPTED STRING, f2 ENCRYPTED STRING, f3 ENCRYPTED STRING, f4 ENCRYPTED STRING);
        """

    func run() async throws {
        let directory = try ScratchDirectory.make()
        defer { ScratchDirectory.remove(directory) }
        let (records, batch) = (self.records, self.batch)
        let seconds = try await BenchmarkServer.with(directory: directory.appendingPathComponent("server")) { server in
            try await server.importSchema(Self.schema)
            var modify = (plain: 0.0, sealed: 0.0), lookup = (plain: 0.0, sealed: 0.0)
            for start in stride(from: -4 * batch, to: records, by: batch) {     // 4 warm-up batches of each
                let names = (0..<batch).map { "r\(start + 4 * batch + $0)" }
                for type in ["Plain", "Sealed"] {
                    let body = Self.modifyBody(type: type, names: names)
                    let wrote = try await Stopwatch.seconds { _ = try await server.post(server.databasePath("records/modify"), body: body) }
                    let lookupBody = try JSONEncoder().encode(RecordsLookupRequest(records: names.map { .init(recordName: "\(type)-\($0)") }))
                    let read = try await Stopwatch.seconds { _ = try await server.post(server.databasePath("records/lookup"), body: lookupBody) }
                    guard start >= 0 else { continue }
                    if type == "Plain" { modify.plain += wrote; lookup.plain += read } else { modify.sealed += wrote; lookup.sealed += read }
                }
            }
            return (modify, lookup)
        }
        let rate = { (elapsed: Double) in Double(records) / elapsed }
        print(String(format: "%d records of five STRING fields, %d a request: modify plain %.0f/s, encrypted %.0f/s; lookup plain %.0f/s, encrypted %.0f/s",
                     records, batch, rate(seconds.0.plain), rate(seconds.0.sealed), rate(seconds.1.plain), rate(seconds.1.sealed)))
        Report.figure("plain_modify_records_per_s", rate(seconds.0.plain), decimals: 0)
        Report.figure("encrypted_modify_records_per_s", rate(seconds.0.sealed), decimals: 0)
        Report.figure("plain_lookup_records_per_s", rate(seconds.1.plain), decimals: 0)
        Report.figure("encrypted_lookup_records_per_s", rate(seconds.1.sealed), decimals: 0)
        Report.ratio("encrypted_modify_vs_plain", seconds.0.plain / seconds.0.sealed, of: "encrypted_modify_records_per_s", to: "plain_modify_records_per_s")
        Report.ratio("encrypted_lookup_vs_plain", seconds.1.plain / seconds.1.sealed, of: "encrypted_lookup_records_per_s", to: "plain_lookup_records_per_s")
    }

    /// Creates of `names` (prefixed with the type) with five fields of about 40 characters.
    static func modifyBody(type: String, names: [String]) -> Data {
        var json = #"{"operations":["#
        for (index, name) in names.enumerated() {
            if index > 0 { json += "," }
            let fields = (0..<5).map { #""f\#($0)":{"value":"field \#($0) of \#(name), some words to seal","type":"STRING"}"# }
            json += #"{"operationType":"create","record":{"recordType":"\#(type)","recordName":"\#(type)-\#(name)","fields":{\#(fields.joined(separator: ","))}}}"#
        }
        return Data((json + #"],"zoneID":{"zoneName":"_defaultZone"}}"#).utf8)
    }
}
