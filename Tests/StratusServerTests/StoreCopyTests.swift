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
        let (seeded, apiToken) = try await TestServer.with(dataDirectory: source, onSQLite: true) { server in
            (try await ArchiveTests.seed(server), server.apiToken)
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

        try await TestServer.with(dataDirectory: targetDirectory, configure: {
            if TestServer.runsOnPostgres { $0.databaseURL = target }
        }) { server in
            #expect(server.apiToken == apiToken, "the container keeps its API token")
            // The session came along, and so did every token: nothing changed since.
            let alice = Caller(server: server.endpoint, webAuthToken: seeded.alice.webAuthToken, userRecordName: seeded.alice.userRecordName)
            try await ArchiveTests.expectTokensFilesAndIndexHold(alice, seeded)
            // The participant still writes into the shared zone.
            let bob = Caller(server: server.endpoint, webAuthToken: seeded.bob.webAuthToken, userRecordName: seeded.bob.userRecordName)
            let shared = try await bob.modify([.create("from-bob")], zone: "Notes", owner: seeded.alice.userRecordName)
            #expect(shared.first?.record != nil, "\(String(describing: shared.first?.error))")
            #expect(try await server.server.services.storage.read { try await $0.administrator(username: "root") } != nil)
        }
    }
}
