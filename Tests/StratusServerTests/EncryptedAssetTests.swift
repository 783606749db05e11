import Foundation
import Testing
import StratusCore
import StratusTesting
@testable import StratusServer

/// `--encrypt-assets`: asset files sealed under their zone owner's data key, in segments
/// (``SealedAssetFile``), through real uploads and downloads.
@Suite struct EncryptedAssetTests {
    static func sealing(_ configuration: inout ServerConfiguration) {
        configuration.encryptAssets = true
    }

    /// The key tags of the server's stored files (`checksum.tag`), one per file.
    static func storedTags(_ server: TestServer) async throws -> [String] {
        try await TestFile.storedBlobs(in: server.server.configuration.dataDirectory).map { name in
            guard let dot = name.firstIndex(of: ".") else { throw TestFailure("\(name) is stored plain") }
            return String(name[name.index(after: dot)...])
        }
    }

    /// A file is sealed as it arrives, downloads whole, and in ranges (RFC 9110): each range opens
    /// only the segments that hold it. Sizes straddle the segment (64 KiB) and the upload's block
    /// (1 MiB) boundaries, where the last segment is empty; an empty file opens too. Plain files
    /// (the same routes without the switch) answer ranges alike.
    @Test(arguments: [true, false]) func filesDownloadWholeAndInRanges(sealed: Bool) async throws {
        try await TestServer.with(configure: { $0.encryptAssets = sealed }) { server in
            let alice = try await server.signUp("alice")
            for (index, count) in [200_000, 131_072, 1_048_576, 0].enumerated() {
                let bytes = TestFile.bytes(count: count, seed: UInt64(index + 3))
                let uploaded = try await alice.upload(bytes, record: "f\(index)")
                #expect(uploaded.fileChecksum == TestFile.checksum(bytes) && uploaded.size == Int64(count))
                _ = try await alice.save([.create("f\(index)", ["file": .asset(uploaded)])])
                let fetched = try AssetTests.asset(try await alice.lookup(["f\(index)"]).first?.record)
                #expect(fetched.fileChecksum == uploaded.fileChecksum, "answers carry the checksum, not the stored name")
                let url = try #require(fetched.downloadURL)
                let whole = try await alice.download(url)
                #expect(whole.status == 200 && Array(whole.body) == bytes && whole.headers.first(name: "Accept-Ranges") == "bytes")
                guard count > 0 else {
                    #expect(try await alice.download(url, headers: [("Range", "bytes=0-")]).status == 416)
                    continue
                }
                let last = Int64(count - 1)
                let ranges: [(String, ClosedRange<Int64>)] = [
                    ("bytes=0-0", 0...0), ("bytes=65535-65536", 65535...min(65536, last)), ("bytes=100000-", min(100000, last)...last),
                    ("bytes=-10", (last - 9)...last), ("bytes=\(last)-\(last + 1000)", last...last), ("bytes=70000-140000", min(70000, last)...min(140000, last)),
                ]
                for (header, expected) in ranges {
                    let part = try await alice.download(url, headers: [("Range", header)])
                    #expect(part.status == 206, "\(header): \(part.status)")
                    #expect(Array(part.body) == Array(bytes[Int(expected.lowerBound)...Int(expected.upperBound)]), "\(header) of \(count) bytes")
                    #expect(part.headers.first(name: "Content-Range") == "bytes \(expected.lowerBound)-\(expected.upperBound)/\(count)")
                }
                let beyond = try await alice.download(url, headers: [("Range", "bytes=\(count)-")])
                #expect(beyond.status == 416 && beyond.headers.first(name: "Content-Range") == "bytes */\(count)")
                // Several ranges, or one that does not parse, get the whole file.
                #expect(Array(try await alice.download(url, headers: [("Range", "bytes=0-1,5-6")]).body) == bytes)
                #expect(Array(try await alice.download(url, headers: [("Range", "bytes=9-2")]).body) == bytes)
            }
            let stored = try await TestFile.storedBlobs(in: server.server.configuration.dataDirectory)
            #expect(stored.count == 4 && stored.allSatisfy { $0.contains(".") } == sealed, "\(stored)")
        }
    }

    /// The same file is stored once per data key: twice for one owner is one file; another user's
    /// copy is a second file. A participant's upload into a shared zone is sealed with the zone
    /// owner's key. Files nothing refers to are collected as plain ones are (no history keeps
    /// them here: ``HistoryTests`` tries that).
    @Test func filesAreSharedWithinOneKeyOnly() async throws {
        try await TestServer.with(configure: { Self.sealing(&$0); $0.historyRetention = .zero }) { server in
            let bob = try await server.signUp("bob")
            let (alice, share) = try await SharingTests.aliceWithSharedList(server) { _ in [(bob.username!, .readWrite)] }
            _ = try await bob.shareMetadata(try #require(share.shareKeys?.shortGUID), accept: true)
            let bytes = TestFile.bytes(count: 100_000, seed: 9)
            let first = try await alice.upload(bytes, record: "a")
            let second = try await alice.upload(bytes, record: "b")
            _ = try await alice.save([.create("a", ["file": .asset(first)]), .create("b", ["file": .asset(second)])])
            let aliceTags = try await Self.storedTags(server)
            #expect(aliceTags.count == 1)

            let bobs = try await bob.upload(bytes, record: "c")
            _ = try await bob.save([.create("c", ["file": .asset(bobs)])])
            #expect(bobs.fileChecksum == first.fileChecksum)
            let tags = try await Self.storedTags(server)
            #expect(tags.count == 2 && Set(tags).count == 2, "one copy per key: \(tags)")

            // Bob's upload into Alice's shared zone is sealed with her key, and both read it.
            let token = try await bob.uploadURL(record: "photo", zone: "Lists", owner: alice.userRecordName, database: .shared)
            let photoBytes = TestFile.bytes(count: 70_000, seed: 10)
            let uploaded = try await Caller.post(photoBytes, to: token.url).decode(AssetUploadReceipt.self).singleFile
            var photo = SharingTests.record("photo", parent: "list")
            photo.fields["file"] = .asset(uploaded)
            #expect(try await bob.modify([RecordOperation(.create, photo)], zone: "Lists", owner: alice.userRecordName).first?.record != nil)
            #expect(Set(try await Self.storedTags(server)) == Set(tags), "sealed with the owner's key")
            let url = try #require(try AssetTests.asset(try await alice.lookup(["photo"], zone: "Lists", owner: nil).first?.record).downloadURL)
            #expect(Array(try await alice.download(url).body) == photoBytes)

            _ = try await alice.save([RecordOperation(.forceDelete, Record(recordName: "a")), RecordOperation(.forceDelete, Record(recordName: "b"))])
            _ = try await bob.save([RecordOperation(.forceDelete, Record(recordName: "c"))])
            server.clock.advance(by: .seconds(25 * 3600))
            let collected = try await server.server.services.assets.collectGarbage()
            #expect(collected.files == 2)
            #expect(try await Self.storedTags(server).count == 1, "the photo's file stays")
        }
    }

    /// A fetched record saved back whole keeps its sealed file, as does `assets/rereference`'s
    /// receipt; the public database's files stay plain; a reset key leaves the owner's files
    /// unreadable with the reason CloudKit gives, and files uploaded after it open.
    @Test func sealedFilesGoBackIntoRecordsAndEndWithTheirKey() async throws {
        try await TestServer.with(configure: Self.sealing) { server in
            let alice = try await server.signUp("alice")
            let bytes = TestFile.bytes(count: 90_000, seed: 4)
            let uploaded = try await alice.upload(bytes, record: "album")
            _ = try await alice.save([.create("album", ["cover": .asset(uploaded), "pages": .list(.asset, [.asset(uploaded)])])])
            var record = try #require(try await alice.lookup(["album"]).first?.record)
            record.fields["title"] = .string("Holiday")
            #expect(try await alice.modify([RecordOperation(.update, record)]).first?.record != nil)
            // Saved back with the checksum alone, into another record of the zone.
            let claimed = Asset(fileChecksum: uploaded.fileChecksum, size: uploaded.size)
            #expect(try await alice.modify([.create("again", ["file": .asset(claimed)])]).first?.record != nil)
            let request = AssetRereferenceRequest(assets: [.init(recordName: "album", fieldName: "cover")])
            let reused = try #require(try await alice.post(alice.path(.private, "assets/rereference"), request)
                .decode(AssetRereferenceResponse.self).assets.first)
            #expect(reused.fileChecksum == uploaded.fileChecksum)
            _ = try await alice.save([.create("copy", ["file": .asset(reused)])])
            for name in ["again", "copy"] {
                let url = try #require(try AssetTests.asset(try await alice.lookup([name]).first?.record).downloadURL)
                #expect(Array(try await alice.download(url).body) == bytes)
            }
            #expect(try await Self.storedTags(server).count == 1)

            let poster = try await alice.upload(TestFile.bytes(count: 1234), record: "poster", database: .public)
            _ = try await alice.save([.create("poster", ["file": .asset(poster)])], database: .public)
            let stored = try await TestFile.storedBlobs(in: server.server.configuration.dataDirectory)
            #expect(stored.filter { !$0.contains(".") }.count == 1, "the public database's file is plain: \(stored)")

            let url = try #require(try AssetTests.asset(try await alice.lookup(["copy"]).first?.record).downloadURL)
            try await server.server.services.keys.destroyKey(of: .user(alice.userRecordName!))
            let reset = try await alice.download(url)
            #expect(reset.errorCode == .zoneNotFound && reset.error?.reason.contains("userDidResetEncryptedDataKey") == true, "\(reset.text)")
            let fresh = try await alice.upload(bytes, record: "fresh")
            _ = try await alice.save([.create("fresh", ["file": .asset(fresh)])])
            let freshURL = try #require(try AssetTests.asset(try await alice.lookup(["fresh"]).first?.record).downloadURL)
            #expect(Array(try await alice.download(freshURL).body) == bytes)
        }
    }

    /// A sealed file changed on disk does not open: a range of the segments left alone still
    /// reads, a download through a changed segment fails (its connection cut, as the answer had
    /// started), and so does one of a file cut short by its empty last segment.
    @Test(.enabled(if: !TestServer.runsOnPostgres, "the blob store's files")) func aChangedSealedFileDoesNotOpen() async throws {
        try await TestServer.with(configure: Self.sealing) { server in
            let alice = try await server.signUp("alice")
            for (record, count) in [("changed", 200_000), ("cut", 1_048_576)] {
                let bytes = TestFile.bytes(count: count, seed: 12)
                _ = try await alice.save([.create(record, ["file": .asset(try await alice.upload(bytes, record: record))])])
                let url = try #require(try AssetTests.asset(try await alice.lookup([record]).first?.record).downloadURL)
                let folder = server.server.configuration.dataDirectory.appendingPathComponent("blobs")
                let name = try #require(try await TestFile.storedBlobs(in: server.server.configuration.dataDirectory).first { blob in
                    (try? Data(contentsOf: folder.appendingPathComponent(String(blob.prefix(2))).appendingPathComponent(blob)).count) ?? 0
                        > count })
                let file = folder.appendingPathComponent(String(name.prefix(2))).appendingPathComponent(name)
                var stored = try Data(contentsOf: file)
                if record == "changed" {
                    stored[SealedAssetFile.headerSize + SealedAssetFile.segmentSize + 100] ^= 1   // inside segment 1
                } else {
                    stored.removeLast(SealedAssetFile.segmentOverhead)   // the empty last segment
                }
                try stored.write(to: file)
                if record == "changed" {
                    #expect(Array(try await alice.download(url, headers: [("Range", "bytes=0-999")]).body) == Array(bytes[0..<1000]))
                }
                let whole = try? await alice.download(url)
                #expect(whole.map { Array($0.body) != bytes } ?? true, "\(record): the damaged file was served whole")
            }
        }
    }

    /// A real `stratus serve --encrypt-assets`, logging at debug level: an encrypted field's value
    /// and an uploaded file's bytes, both read back, are in no file of the data directory (the
    /// database, its WAL, the blob store), no line of the log, no export and no backup (`stratus
    /// backup`, or `pg_dump` of the database on PostgreSQL).
    @Test func sealedFilesAndFieldsAreInNoFileLogExportOrBackupInPlainText() async throws {
        let directory = TestServer.temporaryDirectory()
        let child = try ChildProcess(ServerProcess.executable.path, [
            "serve", "--data", directory.path, "--port", "0", "--log-level", "debug", "--ready-json", "--container", TestServer.containerID,
            "--encrypt-assets",
        ], capturingStandardError: true, environment: try await ServerProcess.environment(for: ["--data", directory.path]))
        let (ready, started) = try await ServerProcess.awaitReady(child)
        let alice = try await ServerEndpoint(baseURL: ready.url, apiToken: ready.ckAPIToken).signUp("alice")
        let fieldText = "the field only its owner reads"
        let fileText = "a paragraph only its owner reads"
        let file = Array(String(repeating: fileText + " ", count: 6000).utf8)
        let uploaded = try await alice.upload(file, record: "d1")
        var diary = Record(recordName: "d1", recordType: "Diary", fields: ["entry": .string(fieldText), "file": .asset(uploaded)])
        diary.encryptedFields = ["entry"]
        let saved = try await alice.modify([RecordOperation(.create, diary)])
        #expect(saved.first?.record?.fields["entry"] == .string(fieldText), "\(saved)")
        let fetched = try await alice.lookup(["d1"]).first?.record
        #expect(fetched?.fields["entry"] == .string(fieldText))
        #expect(Array(try await alice.download(try #require(try AssetTests.asset(fetched).downloadURL)).body) == file)

        let (export, backup) = try await KeyVaultTests.exportAndBackUp(directory)
        child.send(SIGTERM)
        let output = await child.readToEnd()
        _ = try await ChildProcess.onThreadOfItsOwn { child.wait() }
        let files = try [directory, export, backup].flatMap(KeyVaultTests.files)
        let texts = [("the log", Data((started + output).utf8))] + (try files.map { ($0.path, try Data(contentsOf: $0)) })
        #expect(output.contains("records/modify") && texts.contains { $0.0.contains("/assets/") }, "the log names the requests; the export has the file")
        for (name, bytes) in texts {
            #expect(bytes.range(of: Data(fieldText.utf8)) == nil, "\(name) holds the encrypted field in plain text")
            #expect(bytes.range(of: Data(fileText.utf8)) == nil, "\(name) holds the file in plain text")
        }
    }
}
