import ArgumentParser
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import StratusCore
import _NIOFileSystem

/// `stratus-bench assets`: a 50 MB file uploaded through an upload URL and downloaded through a
/// download URL over loopback HTTP, against a raw disk write (with fsync, as the server does) and
/// a raw disk read of the same file in the same run. Reads start cold: the file is dropped from
/// the page cache first, for the baseline and for the server alike. The server runs in a child
/// process, whose peak resident memory growth during each transfer is reported.
struct AssetBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "assets", abstract: "Asset upload and download vs raw disk.")

    @Option(help: "File size in MB.") var megabytes = 50
    @Option(help: "Repetitions; the median of each figure is reported.") var repetitions = 7

    func run() async throws {
        let directory = try ScratchDirectory.make()
        defer { ScratchDirectory.remove(directory) }
        let size = megabytes * 1024 * 1024
        let source = directory.appendingPathComponent("source.bin").path
        try Self.writeRandomFile(source, size: size)
        print("\(megabytes) MB file, medians of \(repetitions) repetitions, each a baseline then a transfer;")
        print("reads start with the file out of the page cache")

        let figures = try await BenchmarkServer.inChildProcess(directory: directory.appendingPathComponent("server")) { server in
            guard let serverProcess = server.processID else { throw BenchmarkError("no server process") }
            var diskWrite: [Double] = [], diskRead: [Double] = [], upload: [Double] = [], download: [Double] = []
            var rssGrowth = 0
            for repetition in 0..<repetitions {
                try Self.stamp(source, with: repetition) // a new file each time: no upload is a duplicate
                let copy = directory.appendingPathComponent("copy-\(repetition).bin").path
                diskWrite.append(try RawDisk.copyWithFsync(source, to: copy))
                diskRead.append(try RawDisk.coldReadSeconds(copy, size: size))
                try FileManager.default.removeItem(atPath: copy)

                let peak = PeakMemory(processID: serverProcess)
                var asset = Asset()
                upload.append(try await Stopwatch.seconds { asset = try await Self.upload(source, size: size, to: server) })
                rssGrowth = max(rssGrowth, peak.growth())
                let url = try await Self.downloadURL(for: asset, record: "file-\(repetition)", server: server)
                try RawDisk.dropFromPageCache(try Self.blobPath(asset, server: server))
                let downloadPeak = PeakMemory(processID: serverProcess)
                download.append(try await Stopwatch.seconds {
                    guard try await Self.download(url, server: server) == size else { throw BenchmarkError("short download") }
                })
                rssGrowth = max(rssGrowth, downloadPeak.growth())
            }
            return (diskWrite, diskRead, upload, download, rssGrowth)
        }
        let (diskWrite, diskRead, upload, download, rssGrowth) = figures
        let uploadRatio = median(zip(diskWrite, upload).map { $0 / $1 })
        let downloadRatio = median(zip(diskRead, download).map { $0 / $1 })
        let megabytes = Double(megabytes)
        print(String(format: "raw disk write+fsync  %7.1f MB/s", megabytes / median(diskWrite)))
        print(String(format: "asset upload          %7.1f MB/s   ratio %.2f (target ≥ 0.5)", megabytes / median(upload), uploadRatio))
        print(String(format: "raw disk read (cold)  %7.1f MB/s", megabytes / median(diskRead)))
        print(String(format: "asset download (cold) %7.1f MB/s   ratio %.2f (target ≥ 0.5)", megabytes / median(download), downloadRatio))
        print(String(format: "server peak RSS growth during a transfer: %.1f MB (target < 20)", Double(rssGrowth) / 1_048_576))
        Report.figure("disk_write_mb_per_s", megabytes / median(diskWrite), decimals: 1)
        Report.figure("asset_upload_mb_per_s", megabytes / median(upload), decimals: 1)
        Report.figure("disk_read_mb_per_s", megabytes / median(diskRead), decimals: 1)
        Report.figure("asset_download_mb_per_s", megabytes / median(download), decimals: 1)
        Report.ratio("asset_upload_vs_disk", uploadRatio, of: "asset_upload_mb_per_s", to: "disk_write_mb_per_s")
        Report.ratio("asset_download_vs_disk", downloadRatio, of: "asset_download_mb_per_s", to: "disk_read_mb_per_s")
        Report.figure("asset_rss_growth_mb", Double(rssGrowth) / 1_048_576, decimals: 1)
    }

    // MARK: - Through the server

    /// Asks for an upload URL and streams the file to it from disk.
    static func upload(_ path: String, size: Int, to server: BenchmarkServer) async throws -> Asset {
        let tokens = try JSONDecoder().decode(AssetUploadResponse.self, from: try await server.post(
            server.databasePath("assets/upload"),
            body: try JSONEncoder().encode(AssetUploadRequest(tokens: [.init(recordType: "File", fieldName: "data")]))))
        guard let url = tokens.tokens.first?.url else { throw BenchmarkError("no upload URL") }
        return try await FileSystem.shared.withFileHandle(forReadingAt: FilePath(path)) { handle in
            var request = HTTPClientRequest(url: url)
            request.method = .POST
            request.body = .stream(handle.readChunks(chunkLength: .kibibytes(256)), length: .known(Int64(size)))
            let response = try await HTTPClient.shared.execute(request, timeout: .seconds(300))
            let body = try await response.body.collect(upTo: 1024 * 1024)
            guard response.status == .ok else { throw BenchmarkError("upload: HTTP \(response.status.code) \(String(buffer: body))") }
            return try JSONDecoder().decode(AssetUploadReceipt.self, from: Data(buffer: body)).singleFile
        }
    }

    /// Saves a record holding the asset and returns the download URL its fetch carries.
    static func downloadURL(for asset: Asset, record: String, server: BenchmarkServer) async throws -> String {
        let save = RecordsModifyRequest(operations: [RecordOperation(.create, Record(recordName: record, recordType: "File", fields: ["data": .asset(asset)]))])
        let saved = try JSONDecoder().decode(RecordsResponse.self, from: try await server.post(server.databasePath("records/modify"),
                                                                                            body: try JSONEncoder().encode(save)))
        guard case .asset(let stored)?? = saved.records.first?.record?.fields["data"], let url = stored.downloadURL else {
            throw BenchmarkError("saved record has no downloadURL")
        }
        return url
    }

    /// Streams a download and returns how many bytes arrived. The body is counted as the socket
    /// delivers it, as curl or URLSession would read it: AsyncHTTPClient's `AsyncSequence` body
    /// stops reading after every chunk until the consumer takes it (a high watermark of one),
    /// which held this figure near 700 MB/s while curl took 900–1,050 MB/s from the same server.
    static func download(_ url: String, server: BenchmarkServer) async throws -> Int {
        var request = try HTTPClient.Request(url: url)
        request.headers.add(name: "Authorization", value: "Bearer \(server.webAuthToken)")
        let (status, received) = try await HTTPClient.shared.execute(request: request, delegate: ByteCounter(), deadline: .now() + .seconds(300)).get()
        guard status == .ok else { throw BenchmarkError("download: HTTP \(status.code)") }
        return received
    }

    /// Counts a response's body bytes, asking for more at once. `@unchecked Sendable`: the client
    /// calls it on the request's event loop, one callback at a time.
    private final class ByteCounter: HTTPClientResponseDelegate, @unchecked Sendable {
        private var status: HTTPResponseStatus = .ok
        private var received = 0

        func didReceiveHead(task: HTTPClient.Task<(HTTPResponseStatus, Int)>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
            status = head.status
            return task.eventLoop.makeSucceededVoidFuture()
        }

        func didReceiveBodyPart(task: HTTPClient.Task<(HTTPResponseStatus, Int)>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
            received += buffer.readableBytes
            return task.eventLoop.makeSucceededVoidFuture()
        }

        func didFinishRequest(task: HTTPClient.Task<(HTTPResponseStatus, Int)>) throws -> (HTTPResponseStatus, Int) { (status, received) }
    }

    private static func blobPath(_ asset: Asset, server: BenchmarkServer) throws -> String {
        guard let checksum = asset.fileChecksum, let digest = Data(base64Encoded: checksum) else { throw BenchmarkError("no checksum") }
        let hex = digest.map { String(format: "%02x", $0) }.joined()
        return server.dataDirectory.appendingPathComponent("blobs/\(hex.prefix(2))/\(hex)").path
    }

    // MARK: - Raw disk

    static func writeRandomFile(_ path: String, size: Int) throws {
        var generator = SystemRandomNumberGenerator()
        let chunk = RawDisk.chunk
        let block = (0..<chunk).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard descriptor >= 0 else { throw BenchmarkError("cannot create \(path)") }
        defer { close(descriptor) }
        for index in 0..<(size / chunk) {
            var bytes = block
            bytes[0] = UInt8(truncatingIfNeeded: index)
            guard write(descriptor, bytes, bytes.count) == bytes.count else { throw BenchmarkError("short write") }
        }
        fsync(descriptor)
    }

    /// Overwrites the file's first bytes with a number, making its content new.
    static func stamp(_ path: String, with number: Int) throws {
        let descriptor = open(path, O_WRONLY)
        guard descriptor >= 0 else { throw BenchmarkError("cannot open \(path)") }
        defer { close(descriptor) }
        var value = UInt64(number) &+ 0x5354_5241_5455_5300
        guard pwrite(descriptor, &value, 8, 0) == 8 else { throw BenchmarkError("short write") }
    }
}

/// The growth of a process's peak resident set from the moment this is made (Linux: resets
/// `VmHWM` through `/proc/PID/clear_refs`, then reads it back).
struct PeakMemory {
    private let processID: Int32
    private let start: Int

    init(processID: Int32) {
        self.processID = processID
        try? "5".write(toFile: "/proc/\(processID)/clear_refs", atomically: false, encoding: .utf8)
        start = Self.status("VmRSS", of: "\(processID)")
    }

    /// Bytes the peak resident set grew by since `init`.
    func growth() -> Int { max(0, Self.status("VmHWM", of: "\(processID)") - start) }

    /// A memory figure of `/proc/<process>/status` (`VmRSS`, `VmHWM`, …) in bytes; `self` for this process.
    static func status(_ key: String, of process: String) -> Int {
        guard let text = try? String(contentsOfFile: "/proc/\(process)/status", encoding: .utf8) else { return 0 }
        for line in text.split(separator: "\n") where line.hasPrefix(key + ":") {
            return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1024
        }
        return 0
    }
}

