import ArgumentParser
import Foundation
import StratusCore

/// `stratus-bench encryption`: `records/modify` and `records/lookup` of records with five
/// encrypted fields against the same records with five plain fields, on one server in the same
/// run, the two kinds taking turns batch by batch; then an asset file uploaded and downloaded
/// through a server that seals files (`--encrypt-assets`) against one that does not, taking turns.
struct EncryptionBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "encryption", abstract: "Encrypted fields against plain ones.")

    @Option(help: "Records of each kind.") var records = 20_000
    @Option(help: "Records per request.") var batch = 200
    @Option(help: "Asset file size in MB.") var assetMegabytes = 20
    @Option(help: "Asset uploads and downloads of each kind; the median of each figure is reported.") var assetRepetitions = 5

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
        try await measureAssets(in: directory)
    }

    /// Uploads and downloads of one file through two servers, one sealing files and one not, in
    /// turns; prints and reports the medians.
    private func measureAssets(in directory: URL) async throws {
        let size = assetMegabytes * 1024 * 1024
        let source = directory.appendingPathComponent("asset.bin").path
        try AssetBenchmark.writeRandomFile(source, size: size)
        let repetitions = assetRepetitions
        let times = try await BenchmarkServer.with(directory: directory.appendingPathComponent("plain-assets")) { plain in
            try await BenchmarkServer.with(directory: directory.appendingPathComponent("sealed-assets"), configure: { $0.encryptAssets = true }) { sealed in
                var upload: [(plain: Double, sealed: Double)] = [], download: [(plain: Double, sealed: Double)] = []
                for repetition in 0..<repetitions {
                    try AssetBenchmark.stamp(source, with: repetition)
                    var seconds: [(up: Double, down: Double)] = []
                    for server in [plain, sealed] {
                        var asset = Asset()
                        let up = try await Stopwatch.seconds { asset = try await AssetBenchmark.upload(source, size: size, to: server) }
                        let url = try await AssetBenchmark.downloadURL(for: asset, record: "file-\(repetition)", server: server)
                        let down = try await Stopwatch.seconds {
                            guard try await AssetBenchmark.download(url, server: server) == size else { throw BenchmarkError("short download") }
                        }
                        seconds.append((up, down))
                    }
                    upload.append((seconds[0].up, seconds[1].up))
                    download.append((seconds[0].down, seconds[1].down))
                }
                return (upload, download)
            }
        }
        let megabytes = Double(assetMegabytes)
        let rate = { (seconds: [Double]) in megabytes / median(seconds) }
        let (upload, download) = times
        print(String(format: "%d MB asset, medians of %d: upload plain %.0f MB/s, sealed %.0f MB/s; download plain %.0f MB/s, sealed %.0f MB/s",
                     assetMegabytes, repetitions, rate(upload.map(\.plain)), rate(upload.map(\.sealed)),
                     rate(download.map(\.plain)), rate(download.map(\.sealed))))
        Report.figure("plain_asset_upload_mb_per_s", rate(upload.map(\.plain)), decimals: 0)
        Report.figure("sealed_asset_upload_mb_per_s", rate(upload.map(\.sealed)), decimals: 0)
        Report.figure("plain_asset_download_mb_per_s", rate(download.map(\.plain)), decimals: 0)
        Report.figure("sealed_asset_download_mb_per_s", rate(download.map(\.sealed)), decimals: 0)
        Report.ratio("sealed_asset_upload_vs_plain", median(upload.map { $0.plain / $0.sealed }),
                     of: "sealed_asset_upload_mb_per_s", to: "plain_asset_upload_mb_per_s")
        Report.ratio("sealed_asset_download_vs_plain", median(download.map { $0.plain / $0.sealed }),
                     of: "sealed_asset_download_mb_per_s", to: "plain_asset_download_mb_per_s")
    }

    /// Creates of `names` (prefixed with the type) with five fields of about 40 characters; the
    /// encrypted ones flagged `isEncrypted`, as CloudKit's clients send `encryptedValues` (and
    /// the SDK its `encryptedValues`).
    static func modifyBody(type: String, names: [String]) -> Data {
        let flag = type == "Sealed" ? #","isEncrypted":true"# : ""
        var json = #"{"operations":["#
        for (index, name) in names.enumerated() {
            if index > 0 { json += "," }
            let fields = (0..<5).map { #""f\#($0)":{"value":"field \#($0) of \#(name), some words to seal","type":"STRING"\#(flag)}"# }
            json += #"{"operationType":"create","record":{"recordType":"\#(type)","recordName":"\#(type)-\#(name)","fields":{\#(fields.joined(separator: ","))}}}"#
        }
        return Data((json + #"],"zoneID":{"zoneName":"_defaultZone"}}"#).utf8)
    }
}
