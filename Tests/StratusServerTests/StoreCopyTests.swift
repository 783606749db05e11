import Foundation
import Testing
import StratusCore
import StratusTesting
@testable import StratusServer

/// `stratus copy`: a SQLite deployment moved whole into another store (the PostgreSQL database in
/// the PostgreSQL run, a new data directory otherwise), where devices carry on with the tokens,
/// sessions and URLs they hold.
@Suite struct StoreCopyTests {
    @Test(.timeLimit(.minutes(3)))
    func aCopiedStoreServesEveryTokenSessionAndFileOfTheOriginal() async throws {
        let source = TestServer.temporaryDirectory()
        let (seeded, apiToken, sealed) = try await TestServer.with(dataDirectory: source, onSQLite: true) { server in
            let seeded = try await ArchiveTests.seed(server)
            let sealed = try await server.server.services.keys.seal(Array("alice's secret".utf8), for: .user(try #require(seeded.alice.userRecordName)))
            return (seeded, server.apiToken, sealed)
        }
        // Straight to the SQLite source (ServerProcess.run would name the suite's database).
        for arguments in [["container", "create", "--container", "iCloud.test.other"],
                          ["admin", "create", "root", "--password-file", try AdministrationTests.passwordFile("an administrator's password")]] {
            let result = try await ChildProcess.run(ServerProcess.executable.path, arguments + ["--data", source.path])
            #expect(result.status == 0, "\(result.output)")
        }

        // The target: the suite's PostgreSQL (asset files go into the database), or a new data
        // directory.
        let targetDirectory = TestServer.temporaryDirectory()
        let target = try await TestServer.postgresURL.asyncMap { try await TestDatabase.url(for: targetDirectory, base: $0) } ?? targetDirectory.path
        let copied = try await ServerProcess.run(["copy", "--from", source.path, "--to", target])
        #expect(copied.status == 0, "\(copied.output)")
        #expect(copied.output.contains("copied \(TestServer.containerID): 7 records") && copied.output.contains("copied iCloud.test.other"),
                "\(copied.output)")
        #expect(copied.output.contains("copied 1 console administrators; every container verified"), "\(copied.output)")
        let again = try await ServerProcess.run(["copy", "--from", source.path, "--to", target])
        #expect(again.status != 0 && again.output.contains("not empty"), "\(again.output)")

        // The key store is not copied: it moves apart, wrapped by the source's master key, into a
        // target whose key store holds no data key yet.
        let masterKey = source.appendingPathComponent("master.key").path
        let keys = TestServer.temporaryDirectory()
        let keysBackedUp = try await ChildProcess.run(ServerProcess.executable.path, ["keys", "backup", "--data", source.path, "--to", keys.path])
        #expect(keysBackedUp.status == 0, "\(keysBackedUp.output)")
        let restoreKeys = ["keys", "restore", "--from", keys.path, "--data", targetDirectory.path, "--encryption-key-file", masterKey]
        let loaded = try await ServerProcess.run(restoreKeys)
        #expect(loaded.status == 0 && loaded.output.contains("data keys restored"), "\(loaded.output)")
        let loadedAgain = try await ServerProcess.run(restoreKeys)
        #expect(loadedAgain.status != 0 && loadedAgain.output.contains("already holds data keys"), "\(loadedAgain.output)")

        try await TestServer.with(dataDirectory: targetDirectory, configure: {
            // The target's instances start with the source's master key.
            $0.encryptionKeyFile = masterKey
            if TestServer.runsOnPostgres { $0.databaseURL = target }
        }) { server in
            let opened = try await server.server.services.keys.open(sealed, for: .user(try #require(seeded.alice.userRecordName)))
            #expect(opened == Array("alice's secret".utf8), "the moved key store opens what the source sealed")
            #expect(server.apiToken == apiToken, "the container keeps its API token")
            // The session came along, and so did every token: nothing changed since.
            let alice = Caller(server: server.endpoint, webAuthToken: seeded.alice.webAuthToken, userRecordName: seeded.alice.userRecordName)
            try await ArchiveTests.expectTokensFilesAndIndexHold(alice, seeded)
            // The participant still writes into the shared zone.
            let bob = Caller(server: server.endpoint, webAuthToken: seeded.bob.webAuthToken, userRecordName: seeded.bob.userRecordName)
            let shared = try await bob.modify([.create("from-bob")], zone: "Notes", owner: seeded.alice.userRecordName)
            #expect(shared.first?.record != nil, "\(String(describing: shared.first?.error))")
            #expect(try await server.server.services.storage.read { try await $0.administrator(username: "root") } != nil)
            // History came along: the recycle bin still has the deleted record.
            #expect(try await alice.deletedRecords(zone: "Notes").records.map(\.recordName) == ["gone"])
        }
    }
}

/// A PostgreSQL store backed up with `pg_dump` and restored with `pg_restore` into a new
/// database, then given a new epoch by `stratus migrate --after-restore`, as the README's
/// "Scaling out" section says.
@Suite(.enabled(if: TestServer.runsOnPostgres, "needs PostgreSQL"))
struct PostgresDumpTests {
    @Test(.timeLimit(.minutes(4)))
    func aDumpRestoredIntoANewDatabaseServesItsDataWithANewEpoch() async throws {
        let base = try #require(TestServer.postgresURL)
        let source = TestServer.temporaryDirectory()
        let seeded = try await TestServer.with(dataDirectory: source) { try await ArchiveTests.seed($0) }
        let dump = FileManager.default.temporaryDirectory.appendingPathComponent("stratus-\(UUID().uuidString).dump")
        defer { try? FileManager.default.removeItem(at: dump) }
        let dumped = try await ChildProcess.run("pg_dump", ["-Fc", "-f", dump.path, "-d", try await TestDatabase.url(for: source, base: base)])
        #expect(dumped.status == 0, "\(dumped.output)")
        let target = TestServer.temporaryDirectory()
        let restored = try await ChildProcess.run("pg_restore", ["--no-owner", "-d", try await TestDatabase.url(for: target, base: base), dump.path])
        #expect(restored.status == 0, "\(restored.output)")
        let migrated = try await ServerProcess.run(["migrate", "--data", target.path, "--after-restore"])
        #expect(migrated.status == 0 && migrated.output.contains("new epoch"), "\(migrated.output)")

        try await TestServer.with(dataDirectory: target) { server in
            let alice = Caller(server: server.endpoint, webAuthToken: seeded.alice.webAuthToken, userRecordName: seeded.alice.userRecordName)
            guard case .failure(let error) = try await alice.zoneChanges("Notes", token: seeded.zoneToken) else {
                Issue.record("a token from before the restore was honoured"); return
            }
            #expect(error.serverErrorCode == .changeTokenExpired)
            #expect(Set(try await alice.allZoneChanges("Notes").records.compactMap(\.recordName)).isSuperset(of: ["n0", "n1"]))
            let photo = try #require(try await alice.lookup(["photo"]).first?.record)
            guard case .asset(let asset) = photo.fields["file"] else { throw TestFailure("no asset") }
            #expect(try await alice.download(try #require(asset.downloadURL)).body == Data(seeded.photo), "the file came back with the database")
        }
    }
}
