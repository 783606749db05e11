import Foundation
import Testing
import StratusTesting
import GRDB
import StratusCore
@testable import StratusSQLite
@testable import StratusServer

/// Storage faults answer a retryable code and leave nothing half-written.
@Suite struct StorageFaultTests {
    /// The database capped by size (`PRAGMA max_page_count`): a batch that does not fit fails
    /// with `TRY_AGAIN_LATER` and `retryAfter`, none of it is written, and reads go on.
    @Test(.enabled(if: !TestServer.runsOnPostgres, "about SQLite")) func aFullDatabaseFailsWritesRetryablyAndWholly() async throws {
        try await TestServer.with(configure: { $0.maxDatabaseBytes = 1024 * 1024 }) { server in
            let alice = try await server.signUp()
            try await alice.createZone("Z")
            let text = String(repeating: "f", count: 60_000)
            var saved: [String] = []
            var refusal: HTTPResult?
            for batch in 0..<40 {
                let names = (0..<4).map { "b\(batch)-\($0)" }
                let response = try await alice.post(alice.path(.private, "records/modify"),
                                                    RecordsModifyRequest(operations: names.map { .create($0, ["text": .string(text)]) },
                                                                         zoneID: ZoneID(zoneName: "Z")))
                if response.status != 200 {
                    refusal = response
                    // None of the refused batch was written.
                    #expect(try await alice.lookup(names, zone: "Z").allSatisfy { $0.error?.serverErrorCode == .notFound })
                    break
                }
                saved += names
            }
            let full = try #require(refusal, "a 1 MB database must fill up")
            #expect(full.status == 503 && full.errorCode == .tryAgainLater && (full.error?.retryAfter ?? 0) > 0, "\(full.text)")
            // Everything acknowledged is there, and the server still answers reads.
            let changes = try await alice.allZoneChanges("Z")
            #expect(changes.records.compactMap(\.recordName).sorted() == saved.sorted())
        }
    }

    /// The faults no test here can provoke on demand map to the documented codes too.
    @Test(arguments: [(ResultCode.SQLITE_IOERR, 5), (.SQLITE_BUSY, 1), (.SQLITE_LOCKED, 1), (.SQLITE_FULL, 60)])
    func storageFaultsAreRetryable(_ code: ResultCode, _ retryAfter: Int) throws {
        let error = try #require(StorageFault.map(DatabaseError(resultCode: code)) as? CloudKitError)
        #expect(error.code == .tryAgainLater && error.retryAfter == retryAfter)
        #expect(StorageFault.map(DatabaseError(resultCode: .SQLITE_CONSTRAINT)) is DatabaseError, "other errors pass through")
    }

    static var canMountTmpfs: Bool { getuid() == 0 && FileManager.default.fileExists(atPath: "/bin/mount") }

    /// The blob directory on a 2 MB tmpfs: an upload that does not fit fails with
    /// `TRY_AGAIN_LATER`, leaves no file behind, and a smaller one then succeeds.
    @Test(.enabled(if: canMountTmpfs, "mounting a tmpfs needs root"))
    func aFullBlobDiskFailsUploadsRetryablyAndLeavesNoFile() async throws {
        let directory = TestServer.temporaryDirectory()
        let blobs = directory.appendingPathComponent("blobs")
        try FileManager.default.createDirectory(at: blobs, withIntermediateDirectories: true)
        try Self.run("/bin/mount", ["-t", "tmpfs", "-o", "size=2m", "tmpfs", blobs.path])
        defer { try? Self.run("/bin/umount", [blobs.path]) }
        try await TestServer.with(dataDirectory: directory) { server in
            let alice = try await server.signUp()
            let token = try await alice.uploadURL(record: "big")
            let tooBig = try await Caller.post(TestFile.bytes(count: 3 * 1024 * 1024), to: token.url)
            #expect(tooBig.status == 503 && tooBig.errorCode == .tryAgainLater && (tooBig.error?.retryAfter ?? 0) > 0, "\(tooBig.text)")
            #expect(TestFile.incoming(in: directory).isEmpty, "the partial upload is removed")
            #expect(try await TestFile.storedBlobs(in: directory).isEmpty)
            // Once the refused upload's file is discarded its space is back, and a smaller upload
            // succeeds; retried for a few seconds, as a client honouring retryAfter would (under
            // a loaded test run the discard can trail the response).
            var small: Asset?
            for _ in 0..<50 where small == nil {
                let response = try await Caller.post(TestFile.bytes(count: 100_000), to: try await alice.uploadURL(record: "small").url)
                if response.status == 200 {
                    small = try response.decode(AssetUploadReceipt.self).singleFile
                } else {
                    #expect(response.errorCode == .tryAgainLater, "\(response.text)")
                    try await Task.sleep(for: .milliseconds(100))
                }
            }
            #expect(small?.size == 100_000)
        }
    }

    static func run(_ tool: String, _ arguments: [String]) throws {
        let result = try ChildProcess.run(tool, arguments)
        guard result.status == 0 else { throw TestFailure("\(tool) \(arguments) failed: \(result.output)") }
    }
}
