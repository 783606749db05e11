import Foundation
import Testing
import StratusCore
import StratusTesting
@testable import StratusServer

/// `stratus backup` and `stratus restore`, run as the real executable against a server that keeps
/// writing, and the restored directory served again.
@Suite struct BackupTests {
    @Test(.timeLimit(.minutes(5)), .enabled(if: !TestServer.runsOnPostgres, "about SQLite"))
    func anOnlineBackupRestoresAConsistentStateAndExpiresOlderTokens() async throws {
        let directory = TestServer.temporaryDirectory()
        let backup = TestServer.temporaryDirectory()
        let restored = TestServer.temporaryDirectory()
        let photo = TestFile.bytes(count: 200_000, seed: 3)
        let (alice, apiToken, zoneToken, databaseToken, acknowledged) = try await TestServer.with(dataDirectory: directory) { server in
            let alice = try await server.signUp("alice")
            try await alice.createZone("Notes")
            let asset = try await alice.upload(photo, record: "photo")
            _ = try await alice.save([.create("photo", ["file": .asset(asset)])])
            _ = try await alice.save((0..<10).map { .create("before-\($0)") }, zone: "Notes")
            let zoneToken = try await alice.allZoneChanges("Notes").token
            let databaseToken = try await alice.databaseChanges().syncToken

            // Batches of ten go on being saved before, while and after the backup runs: each is
            // all there or not at all.
            let saved = Counter()
            let writer = Task {
                do {
                    while !Task.isCancelled {
                        let batch = await saved.value
                        let results = try await alice.modify((0..<10).map { .create("during-\(batch)-\($0)") }, zone: "Notes", atomic: true)
                        guard results.allSatisfy({ $0.record != nil }) else { throw TestFailure("a batch failed") }
                        await saved.increment()
                    }
                } catch {
                    await saved.fail(error)
                }
            }
            try await saved.wait(atLeast: 10)
            let result = try await Task.detached {
                try await ServerProcess.run(["backup", "--data", directory.path, "--to", backup.path])
            }.value
            try await saved.wait(atLeast: await saved.value + 5)
            writer.cancel()
            _ = await writer.result
            let batches = await saved.value
            #expect(result.status == 0, "\(result.output)")
            #expect(result.output.contains("1 asset files"), "\(result.output)")
            return (alice, server.apiToken, zoneToken, databaseToken, batches)
        }
        #expect(acknowledged > 0)

        let restore = try await ServerProcess.run(["restore", "--from", backup.path, "--data", restored.path])
        #expect(restore.status == 0, "\(restore.output)")
        try await TestServer.with(dataDirectory: restored) { server in
            #expect(server.apiToken == apiToken)
            // The session survives: the backup holds it.
            let caller = Caller(server: server.endpoint, webAuthToken: alice.webAuthToken, userRecordName: alice.userRecordName)
            let names = try await caller.allZoneChanges("Notes").records.compactMap(\.recordName)
            #expect(Set((0..<10).map { "before-\($0)" }).isSubset(of: names))
            var batches: [String: Int] = [:]
            for name in names where name.hasPrefix("during-") { batches[String(name.split(separator: "-")[1]), default: 0] += 1 }
            #expect(batches.values.allSatisfy { $0 == 10 }, "a batch was cut in two: \(batches)")
            // The snapshot has the batches saved before it, not those saved after the backup ended.
            #expect(batches.count >= 10 && batches.count < acknowledged, "\(batches.count) of \(acknowledged) batches")

            let photoRecord = try #require(try await caller.lookup(["photo"]).first?.record)
            guard case .asset(let restoredAsset) = photoRecord.fields["file"] else { throw TestFailure("no asset") }
            #expect(try await caller.download(try #require(restoredAsset.downloadURL)).body == Data(photo))

            // Tokens from before the restore expire; a fetch from the start works, and its tokens hold.
            guard case .failure(let error) = try await caller.zoneChanges("Notes", token: zoneToken) else {
                Issue.record("a token from before the restore was honoured"); return
            }
            #expect(error.serverErrorCode == .changeTokenExpired)
            let databaseAnswer = try await caller.post(caller.path(.private, "changes/database"), DatabaseChangesRequest(syncToken: databaseToken))
            #expect(databaseAnswer.status == 410 && databaseAnswer.errorCode == .changeTokenExpired)
            _ = try await caller.save([.create("after-restore")], zone: "Notes")
            let fresh = try await caller.allZoneChanges("Notes")
            let listedZone = try await caller.get(caller.path(.private, "zones/list")).decode(ZonesResponse.self)
            #expect(try await caller.allZoneChanges("Notes", from: fresh.token).records.isEmpty)
            let zoneListToken = try #require(listedZone.zones.compactMap(\.zone).first { $0.zoneID.zoneName == "Notes" }?.syncToken)
            #expect(try await caller.allZoneChanges("Notes", from: zoneListToken).records.isEmpty)
        }
    }

    @Test(.enabled(if: !TestServer.runsOnPostgres, "about SQLite")) func aRestoreRefusesAnIncompleteOrDamagedBackupAndAFullDirectory() async throws {
        let directory = TestServer.temporaryDirectory()
        let backup = TestServer.temporaryDirectory()
        try await TestServer.with(dataDirectory: directory) { server in
            let alice = try await server.signUp("alice")
            let asset = try await alice.upload(TestFile.bytes(count: 5_000, seed: 9), record: "a")
            _ = try await alice.save([.create("a", ["file": .asset(asset)])])
            _ = try await server.server.backup(to: backup)
        }
        let notEmpty = try await ServerProcess.run(["backup", "--data", directory.path, "--to", backup.path])
        #expect(notEmpty.status != 0 && notEmpty.output.contains("is not empty"), "\(notEmpty.output)")
        let intoExisting = try await ServerProcess.run(["restore", "--from", backup.path, "--data", directory.path])
        #expect(intoExisting.status != 0 && intoExisting.output.contains("is not empty"), "\(intoExisting.output)")

        let blob = try #require(FileManager.default.enumerator(atPath: backup.appendingPathComponent("blobs").path)?
            .compactMap { $0 as? String }.first { $0.split(separator: "/").count == 2 })
        let blobURL = backup.appendingPathComponent("blobs").appendingPathComponent(blob)
        let original = try Data(contentsOf: blobURL)
        try Data(original.reversed()).write(to: blobURL)
        let damaged = try await ServerProcess.run(["restore", "--from", backup.path, "--data", TestServer.temporaryDirectory().path])
        #expect(damaged.status != 0 && damaged.output.contains("damaged"), "\(damaged.output)")

        try original.write(to: blobURL)
        try FileManager.default.removeItem(at: backup.appendingPathComponent("manifest.json"))
        let incomplete = try await ServerProcess.run(["restore", "--from", backup.path, "--data", TestServer.temporaryDirectory().path])
        #expect(incomplete.status != 0 && incomplete.output.contains("cut short"), "\(incomplete.output)")
    }

    /// While a backup copies files, collection removes none (a file the snapshot names must not
    /// go before it is copied); once the backup is done, collection goes on.
    @Test func assetCollectionWaitsForABackup() async throws {
        try await TestServer.with { server in
            let alice = try await server.signUp("alice")
            _ = try await alice.upload(TestFile.bytes(count: 10_000, seed: 4))
            let storage = server.server.services.storage
            let later = server.now + 25 * 3600 * 1000
            try await storage.write { try await $0.holdAssetCollection(holder: "backup", until: later + 60_000) }
            server.clock.advance(by: .seconds(25 * 3600))
            var collected = try await server.server.services.assets.collectGarbage()
            #expect(collected.uploads == 0 && collected.files == 0)
            #expect(try await TestFile.storedBlobs(in: server.server.configuration.dataDirectory).count == 1)
            try await storage.write { try await $0.releaseAssetCollection(holder: "backup") }
            collected = try await server.server.services.assets.collectGarbage()
            #expect(collected.uploads == 1 && collected.files == 1)
        }
    }

    /// A mail waiting in the outbox holds a code, sealed for its user (``KeyVault``): the live
    /// store keeps it until it is sent or the code expires, a backup never has it, sealed or
    /// opened (not even in its free pages).
    @Test(.enabled(if: !TestServer.runsOnPostgres, "about SQLite")) func aBackupHoldsNoMailedCode() async throws {
        let directory = TestServer.temporaryDirectory()
        let backup = TestServer.temporaryDirectory()
        var mailer = SMTPMailer(host: "127.0.0.1", port: 9, from: "stratus@example.com")
        mailer.timeout = .seconds(1)
        let unreachable = mailer
        try await TestServer.with(dataDirectory: directory, configure: { $0.smtp = unreachable; $0.mailRetryInterval = .seconds(3600) }) { server in
            let signedUp = try await server.anonymous.post("/auth/1/\(TestServer.containerID)/development/signup",
                                                           Credentials(username: "coded", password: "coded password", email: "coded@example.com"))
            #expect(signedUp.status == 200)
            let waiting = try await server.server.services.storage.write { try await $0.claimMail(now: .max - 1, leaseUntil: 0, limit: 10) }
            let mail = try #require(waiting.first { $0.recipient == "coded@example.com" }, "the code's mail waits")
            let scope = KeyScope(name: try #require(mail.sealedFor))
            let subject = String(decoding: try await server.server.services.keys.open(mail.subject, for: scope), as: UTF8.self)
            #expect(subject.hasPrefix("Your verification code: "))
            _ = try await server.server.backup(to: backup)
            let copied = try Data(contentsOf: backup.appendingPathComponent(Backup.databaseFile))
            #expect(copied.range(of: Data(mail.subject.utf8)) == nil && copied.range(of: Data(subject.utf8)) == nil,
                    "the backup's file holds no mailed code, sealed or not")
        }
    }
}

/// A count shared between a test and a task it runs, and the task's failure.
private actor Counter {
    private(set) var value = 0
    private var failure: (any Error)?
    func increment() { value += 1 }
    func fail(_ error: any Error) { failure = error }

    /// Waits until the count reaches `target`; throws the task's failure if it failed first.
    func wait(atLeast target: Int) async throws {
        while value < target {
            if let failure { throw failure }
            try await Task.sleep(for: .milliseconds(10))
        }
    }
}
