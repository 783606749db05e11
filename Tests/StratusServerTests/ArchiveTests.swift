import Foundation
import StratusCore
import StratusSQLite
import StratusTesting
import Testing
@testable import StratusServer

/// `stratus export` and `stratus import` (container archives), run as the real executable, and
/// `serve --import --export-on-exit`: round trips that lose nothing and keep what should be kept.
@Suite struct ArchiveTests {
    /// What a container holds before its export: records of several kinds (an asset, a
    /// reference, a double that must keep its spelling, a tombstone), two zones, a zone shared
    /// with an accepted participant, a subscription and a queryable schema.
    struct Seeded: Sendable {
        var alice: Caller
        var bob: Caller
        var zoneToken: String
        var databaseToken: String
        var photo: [UInt8]
    }

    static func seed(_ server: TestServer) async throws -> Seeded {
        try await server.server.importSchema(QueryTests.schema, container: TestServer.containerID)
        let alice = try await server.signUp("alice")
        let bob = try await server.signUp("bob")
        try await alice.createZone("Notes")
        let photo = TestFile.bytes(count: 150_000, seed: 11)
        let asset = try await alice.upload(photo, record: "photo")
        _ = try await alice.save([.create("photo", ["file": .asset(asset), "score": .double(1.0)])])
        _ = try await alice.save([.create("apple", type: "Item", ["name": .string("apple"), "qty": .int64(3)]),
                                  .create("bread", type: "Item", ["name": .string("bread"), "qty": .int64(7)])])
        _ = try await alice.save([.create("n0"), .create("n1", ["parent": .reference(Reference(recordName: "n0", action: .deleteSelf))]),
                                  .create("gone")], zone: "Notes")
        _ = try await alice.save([RecordOperation(.forceDelete, Record(recordName: "gone"))], zone: "Notes")
        let share = try await alice.share(nil, zone: "Notes", participants: [(try #require(bob.username), .readWrite)])
        let shortGUID = try #require(share.shareKeys?.shortGUID)
        _ = try await bob.shareMetadata(shortGUID, accept: true)
        let subscription = CloudSubscription(subscriptionID: "notes", subscriptionType: .zone, zoneID: ZoneID(zoneName: "Notes"))
        let subscribed = try await alice.post(alice.path(.private, "subscriptions/modify"),
                                              SubscriptionsModifyRequest(operations: [.init(.create, subscription)]))
        #expect(subscribed.status == 200, "\(subscribed.text)")
        return Seeded(alice: alice, bob: bob, zoneToken: try await alice.allZoneChanges("Notes").token,
                      databaseToken: try await alice.databaseChanges().syncToken, photo: photo)
    }

    /// What a seeded container moved into a new store still does for its owner: the tokens from
    /// before hold (nothing changed since, then a new save shows), the file downloads, and the
    /// query index was rebuilt from the records.
    static func expectTokensFilesAndIndexHold(_ alice: Caller, _ seeded: Seeded) async throws {
        #expect(try await alice.allZoneChanges("Notes", from: seeded.zoneToken).records.isEmpty)
        _ = try await alice.save([.create("n2")], zone: "Notes")
        #expect(try await alice.allZoneChanges("Notes", from: seeded.zoneToken).records.compactMap(\.recordName) == ["n2"])
        #expect(try await alice.databaseChanges(token: seeded.databaseToken).zones.map(\.zoneID.zoneName) == ["Notes"])
        let photo = try #require(try await alice.lookup(["photo"]).first?.record)
        guard case .asset(let asset) = photo.fields["file"] else { throw TestFailure("no asset") }
        #expect(try await alice.download(try #require(asset.downloadURL)).body == Data(seeded.photo))
        #expect(try await QueryTests.names(alice, [QueryFilter(.greaterThan, fieldName: "qty", .int64(5))]) == ["bread"])
    }

    static func lines(_ archive: URL) throws -> String {
        try String(contentsOf: archive.appendingPathComponent("container.jsonl"), encoding: .utf8)
    }

    @Test(.timeLimit(.minutes(4)))
    func anExportImportedIntoANewDataDirectoryHoldsEverythingAndExportsTheSame() async throws {
        let source = TestServer.temporaryDirectory()
        let archive = TestServer.temporaryDirectory()
        let seeded = try await TestServer.with(dataDirectory: source) { server in
            let seeded = try await Self.seed(server)
            // Exported while the server runs.
            let export = try await ServerProcess.run(["export", "--data", source.path, "--container", TestServer.containerID, "--to", archive.path])
            #expect(export.status == 0, "\(export.output)")
            #expect(export.output.contains("7 records") && export.output.contains("1 asset files (150000 bytes)"), "\(export.output)")
            #expect(export.output.contains("rows: "), "the progress is shown: \(export.output)")
            return seeded
        }
        let text = try Self.lines(archive)
        #expect(!text.contains("passwordHash") && !text.contains("\"kind\":\"session\""), "no secrets unless asked")
        #expect(!text.contains("\"kind\":\"logEntry\""), "no history unless asked")
        #expect(text.contains(#""score":{"value":1.0,"type":"DOUBLE"}"#), "fields are written as stored")

        let target = TestServer.temporaryDirectory().appendingPathComponent("new")
        let imported = try await ServerProcess.run(["import", "--data", target.path, "--from", archive.path])
        #expect(imported.status == 0, "\(imported.output)")
        #expect(imported.output.contains("reset-password"), "\(imported.output)")
        let again = TestServer.temporaryDirectory()
        await #expect(try ServerProcess.run(["export", "--data", target.path, "--container", TestServer.containerID, "--to", again.path]).status == 0)
        #expect(try Self.lines(again) == text, "an imported container exports line for line as it was exported")
        let twice = try await ServerProcess.run(["import", "--data", target.path, "--from", archive.path])
        #expect(twice.status != 0 && twice.output.contains("already has container"), "\(twice.output)")

        try await TestServer.with(dataDirectory: target) { server in
            // Without password hashes and sessions: signed out, and signed in again after a reset.
            let oldSession = Caller(server: server.endpoint, webAuthToken: seeded.alice.webAuthToken, userRecordName: seeded.alice.userRecordName)
            #expect(try await oldSession.get(oldSession.path(.private, "zones/list")).status == 401)
            let aliceName = try #require(seeded.alice.username)
            #expect(try await AdministrationTests.signIn(server, aliceName, "password-alice").status == 401)
            _ = try await AdministrationTests.stratus(["user", "reset-password", aliceName, "--password-file", AdministrationTests.passwordFile("a new password")],
                                                target)
            let session = try await AdministrationTests.signIn(server, aliceName, "a new password").decode(SignInResponse.self)
            let alice = Caller(server: server.endpoint, webAuthToken: session.ckWebAuthToken, userRecordName: session.userRecordName)
            #expect(alice.userRecordName == seeded.alice.userRecordName)

            try await Self.expectTokensFilesAndIndexHold(alice, seeded)
            // The reference still cascades.
            _ = try await alice.save([RecordOperation(.forceDelete, Record(recordName: "n0"))], zone: "Notes")
            #expect(try await alice.lookup(["n1"], zone: "Notes").first?.record == nil)
        }
    }

    /// With secrets and history, into a store whose ids and sequences differ: the sessions, the
    /// versions (their files too) and the recycle bin come along.
    @Test(.timeLimit(.minutes(4)))
    func secretsAndHistoryCarrySessionsAndVersionsIntoAStoreWithData() async throws {
        let archive = TestServer.temporaryDirectory()
        let oldPhoto = TestFile.bytes(count: 40_000, seed: 12)
        let seeded = try await TestServer.with { server in
            let seeded = try await Self.seed(server)
            // The photo's first version holds a file no current record does.
            let first = try await seeded.alice.upload(oldPhoto, record: "album")
            _ = try await seeded.alice.save([.create("album", ["file": .asset(first)])])
            let second = try await seeded.alice.upload(TestFile.bytes(count: 40_000, seed: 13), record: "album")
            _ = try await seeded.alice.save([RecordOperation(.forceUpdate, Record(recordName: "album", fields: ["file": .asset(second)]))])
            let export = try await ServerProcess.run(["export", "--data", server.server.configuration.dataDirectory.path, "--container", TestServer.containerID,
                                                      "--to", archive.path, "--with-secrets", "--with-history"])
            #expect(export.status == 0, "\(export.output)")
            return seeded
        }
        #expect(try Self.lines(archive).contains("passwordHash"))
        #expect(try Self.lines(archive).contains(#""kind":"logEntry""#))

        // A store whose other container already uses the archive's row ids.
        let store = TestServer.temporaryDirectory()
        _ = try await AdministrationTests.stratus(["container", "create"], store, container: "iCloud.test.other")
        let operations = try AdministrationTests.file(#"{"operations":[{"operationType":"create","record":{"recordName":"x","recordType":"Note","fields":{"title":{"value":"X"}}}}]}"#)
        _ = try await AdministrationTests.stratus(["records", "save", "--file", operations], store, container: "iCloud.test.other")
        let imported = try await ServerProcess.run(["import", "--data", store.path, "--from", archive.path])
        #expect(imported.status == 0, "\(imported.output)")

        try await TestServer.with(dataDirectory: store) { server in
            let merged = server.endpoint
            // The session came along; the tokens of the archive's store expire (its ids and
            // sequences are not this store's), and a sync from the start sees everything.
            let alice = Caller(server: merged, webAuthToken: seeded.alice.webAuthToken, userRecordName: seeded.alice.userRecordName)
            guard case .failure(let error) = try await alice.zoneChanges("Notes", token: seeded.zoneToken) else {
                Issue.record("a token of the archive's store was honoured"); return
            }
            #expect(error.serverErrorCode == .changeTokenExpired)
            let databaseAnswer = try await alice.post(alice.path(.private, "changes/database"), DatabaseChangesRequest(syncToken: seeded.databaseToken))
            #expect(databaseAnswer.errorCode == .changeTokenExpired, "\(databaseAnswer.text)")
            let listed = try await alice.allZoneChanges("Notes")
            #expect(Set(listed.records.compactMap(\.recordName)).isSuperset(of: ["n0", "n1"]))
            _ = try await alice.save([.create("n2")], zone: "Notes")
            #expect(try await alice.allZoneChanges("Notes", from: listed.token).records.compactMap(\.recordName) == ["n2"])
            // The participant still sees the shared zone, under its new id.
            let bob = Caller(server: merged, webAuthToken: seeded.bob.webAuthToken, userRecordName: seeded.bob.userRecordName)
            let shared = try await bob.modify([.create("from-bob")], zone: "Notes", owner: seeded.alice.userRecordName)
            #expect(shared.first?.record != nil, "\(String(describing: shared.first?.error))")

            // History came along: the recycle bin undeletes, the old version's file downloads.
            #expect(try await alice.deletedRecords(zone: "Notes").records.map(\.recordName) == ["gone"])
            let gone = try await alice.history("gone", zone: "Notes").versions
            let undeleted = try await alice.restore([.init(recordName: "gone", recordChangeTag: try #require(gone.last?.recordChangeTag))], zone: "Notes")
            #expect(undeleted.records.first?.record != nil, "\(undeleted)")
            let album = try await alice.history("album").versions
            #expect(album.count == 2)
            let old = try AssetTests.asset(try #require(album.last))
            #expect(Array(try await alice.download(try #require(old.downloadURL)).body) == oldPhoto)
        }
    }

    @Test func aDamagedArchiveLoadsNothing() async throws {
        let archive = TestServer.temporaryDirectory()
        try await TestServer.with { server in
            _ = try await Self.seed(server)
            _ = try await server.server.services.admin.exportContainer(id: TestServer.containerID, to: archive, includingSecrets: false, includingHistory: false) { _ in }
        }
        let file = archive.appendingPathComponent("container.jsonl")
        let original = try Self.lines(archive)
        try original.replacingOccurrences(of: "\"apple\"", with: "\"apples\"").write(to: file, atomically: true, encoding: .utf8)
        let target = TestServer.temporaryDirectory()
        let damaged = try await ServerProcess.run(["import", "--data", target.path, "--from", archive.path])
        #expect(damaged.status != 0 && damaged.output.contains("damaged"), "\(damaged.output)")
        var configuration = ServerConfiguration(dataDirectory: target)
        configuration.storageDrivers = [.sqlite]
        let server = try await StratusServer(configuration: configuration)
        #expect(try await server.apiToken(of: TestServer.containerID) == nil, "nothing of it was written")
        #expect(try await TestFile.storedBlobs(in: target).isEmpty, "the asset file it brought in went again")

        try (original.split(separator: "\n").dropLast().joined(separator: "\n") + "\n").write(to: file, atomically: true, encoding: .utf8)
        let short = try await ServerProcess.run(["import", "--data", target.path, "--from", archive.path])
        #expect(short.status != 0 && short.output.contains("damaged"), "\(short.output)")
        try FileManager.default.removeItem(at: archive.appendingPathComponent("manifest.json"))
        let incomplete = try await ServerProcess.run(["import", "--data", target.path, "--from", archive.path])
        #expect(incomplete.status != 0 && incomplete.output.contains("cut short"), "\(incomplete.output)")
    }

    @Test func anArchiveLineLongerThanAnyRecordIsRefused() async throws {
        let archive = TestServer.temporaryDirectory()
        try FileManager.default.createDirectory(at: archive, withIntermediateDirectories: true)
        try Data(repeating: UInt8(ascii: "x"), count: ArchiveLine.maxBytes + 2).write(to: archive.appendingPathComponent("container.jsonl"))
        let manifest = ArchiveManifest(format: 1, serverVersion: StratusServer.version, containerID: TestServer.containerID, exportedAt: 0,
                                       changeSequence: 0, epoch: 0, includesSecrets: false, items: ["container": 1], linesSHA256: "",
                                       assetFiles: 0, assetBytes: 0)
        try BackupFiles.writeManifest(manifest, to: archive)
        let result = try await ServerProcess.run(["import", "--data", TestServer.temporaryDirectory().path, "--from", archive.path])
        #expect(result.status != 0 && result.output.contains("longer than"), "\(result.output)")
    }

    /// `serve --import DIR --export-on-exit`: what a development server held when it stopped is
    /// there when it starts again, accounts and sessions included.
    @Test(.timeLimit(.minutes(5)))
    func aDevelopmentServerSavesItsContainersOnExitAndStartsFromThem() async throws {
        let saved = TestServer.temporaryDirectory()
        let first = try await ServerProcess.started(dataDirectory: TestServer.temporaryDirectory(), arguments: ["--import", saved.path, "--export-on-exit"])
        #expect(first.startOutput.contains("nothing to import"), "\(first.startOutput)")
        let alice = try await first.endpoint.signUp("alice")
        _ = try await alice.save([.create("kept")])
        let (status, ending) = await first.stop()
        #expect(status == 0, "\(ending)")
        #expect(FileManager.default.fileExists(atPath: saved.appendingPathComponent(TestServer.containerID).appendingPathComponent("manifest.json").path),
                "\(ending)")

        let second = try await ServerProcess.started(dataDirectory: TestServer.temporaryDirectory(), arguments: ["--import", saved.path])
        defer { second.kill() }
        let endpoint = second.endpoint
        let again = Caller(server: endpoint, webAuthToken: alice.webAuthToken, userRecordName: alice.userRecordName)
        #expect(try await again.lookup(["kept"]).first?.record != nil, "the session and the record came back")

        let alone = try await ServerProcess.run(["serve", "--data", TestServer.temporaryDirectory().path, "--export-on-exit"])
        #expect(alone.status != 0 && alone.output.contains("give both"), "\(alone.output)")
    }
}
