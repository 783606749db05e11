import Crypto
import Foundation
import StratusTesting
import Testing
import StratusCore
@testable import StratusServer

/// The master key, the key store and what is sealed under them (issue 64), on the backend the
/// suite runs on: the mail holding a code is sealed for its user, never in plain text in a file;
/// deleting the account destroys the user's data key, so a backup taken before cannot be opened
/// with the key store after; a server refuses to start without its master key or with another;
/// a rotation interrupted midway is finished by running it again.
@Suite struct KeyVaultTests {
    static let auth = "/auth/1/\(TestServer.containerID)/development"
    /// A mailer that reaches nothing: a mail stays in the outbox, to be retried.
    static let unreachableMailer = SMTPMailer(host: "127.0.0.1", port: 9, from: "stratus@example.com")

    /// The outbox's mails as stored (claimed, so the courier leaves them alone).
    static func storedMails(_ server: TestServer) async throws -> [StoredMail] {
        try await server.server.services.storage.write { try await $0.claimMail(now: .max / 2, leaseUntil: .max / 2, limit: 100) }
    }

    @Test func aMailedCodeIsSealedForItsUserAndDeletingTheAccountMakesEveryCopyUnreadable() async throws {
        let directory = TestServer.temporaryDirectory()
        let backup = TestServer.temporaryDirectory()
        let (user, sealed) = try await TestServer.with(dataDirectory: directory, configure: { $0.smtp = Self.unreachableMailer }) { server in
            let signedUp = try await server.anonymous.post("\(Self.auth)/signup", Credentials(username: "carol", password: "carol password",
                                                                                             email: "carol@example.com")).decode(SignInResponse.self)
            let mail = try #require(try await Self.storedMails(server).first { $0.recipient == "carol@example.com" })
            #expect(mail.sealedFor == KeyScope.user(signedUp.userRecordName).name)
            #expect(mail.subject.hasPrefix(KeyVault.sealedPrefix) && mail.body.hasPrefix(KeyVault.sealedPrefix))
            let body = String(decoding: try await server.server.services.keys.open(mail.body, for: .user(signedUp.userRecordName)), as: UTF8.self)
            #expect(body.contains("Enter this code to confirm your email address"))
            if !TestServer.runsOnPostgres {
                for file in try Self.files(under: directory) {
                    let bytes = try Data(contentsOf: file)
                    #expect(bytes.range(of: Data("confirm your email address".utf8)) == nil, "\(file.path) holds the mail in plain text")
                    #expect(bytes.range(of: Data("verification code".utf8)) == nil, "\(file.path) holds the subject in plain text")
                }
                _ = try await server.server.backup(to: backup)
            }
            try await server.server.services.admin.deleteAccount(user: signedUp.userRecordName, containerID: TestServer.containerID)
            await #expect(throws: KeyVaultError.self, "the key is destroyed with the account") {
                try await server.server.services.keys.open(mail.body, for: .user(signedUp.userRecordName))
            }
            return (signedUp.userRecordName, mail.body)
        }
        // A server on a backup taken before the deletion, with today's key store and master key:
        // what it holds for the deleted user stays sealed.
        guard !TestServer.runsOnPostgres else { return }
        try await Self.withRestored(backup, keysOf: directory) { server in
            let account = try await server.server.services.storage.read { try await $0.user(recordName: user) }
            #expect(account != nil, "the backup still has the account")
            await #expect(throws: KeyVaultError.self) { try await server.server.services.keys.open(sealed, for: .user(user)) }
        }
    }

    /// A mail with a code waiting in the outbox of a real `stratus serve` (its SMTP server
    /// unreachable, so the mail stays): its subject and body are in no file of the data directory,
    /// no line the server logged at debug level, no export and no backup (`stratus backup`, or
    /// `pg_dump` of the whole database on PostgreSQL, where the mail's row is).
    @Test func aSealedMailIsInNoFileLogExportOrBackupInPlainText() async throws {
        let directory = TestServer.temporaryDirectory()
        // Its standard error too, where it logs.
        let child = try ChildProcess(ServerProcess.executable.path, [
            "serve", "--data", directory.path, "--port", "0", "--log-level", "debug", "--ready-json", "--container", TestServer.containerID,
            "--smtp-host", "127.0.0.1", "--smtp-port", "9",
        ], capturingStandardError: true, environment: try await ServerProcess.environment(for: ["--data", directory.path]))
        let (ready, started) = try await ServerProcess.awaitReady(child)
        let endpoint = ServerEndpoint(baseURL: ready.url, apiToken: ready.ckAPIToken)
        let signedUp = try await endpoint.anonymous.post("\(Self.auth)/signup", Credentials(username: "erin", password: "erin's password",
                                                                                          email: "erin@example.com"))
        #expect(signedUp.status == 200, "\(signedUp.text)")
        // The courier has tried, and failed, to send it.
        let logged = try await child.read { $0.contains("could not be sent") }
        let (export, backup) = try await Self.exportAndBackUp(directory)
        let copies = [directory, export, backup]
        child.send(SIGTERM)
        let output = await child.readToEnd()
        _ = try await ChildProcess.onThreadOfItsOwn { child.wait() }
        let texts = [("the log", Data((started + logged + output).utf8))] + (try copies.flatMap(Self.files).map { ($0.path, try Data(contentsOf: $0)) })
        #expect(texts.count > 3 && logged.contains("/signup"), "the log names the request, and the copies have files: \(texts.map(\.0))")
        for (name, bytes) in texts {
            #expect(bytes.range(of: Data("confirm your email address".utf8)) == nil, "\(name) holds the mail in plain text")
            #expect(bytes.range(of: Data("Your verification code".utf8)) == nil, "\(name) holds the subject in plain text")
        }
    }

    /// `password/forgot` never makes a key (its write would make the answer slower for an account
    /// than for an address nobody has): an account with no key yet (from before keys) gets its mail
    /// sealed for the container, as the decoy is; one with a key, for its user.
    @Test func aPasswordResetRequestMakesNoKey() async throws {
        try await TestServer.with(configure: { $0.smtp = Self.unreachableMailer }) { server in
            let keys = server.server.services.keys
            try await server.server.services.storage.write { transaction in
                try await transaction.insertUser(StoredUser(userRecordName: "_legacy", containerID: TestServer.containerID, username: "legacy",
                                                            passwordHash: "", createdAt: 0, email: "legacy@example.com", emailVerified: true))
            }
            for email in ["legacy@example.com", "nobody@example.com"] {
                #expect(try await server.anonymous.post("\(Self.auth)/password/forgot", ["email": email]).status == 200)
            }
            // The decoy may be gone already (the courier forgets decoys unsent).
            let mail = try #require(try await Self.storedMails(server).first { $0.recipient == "legacy@example.com" })
            #expect(mail.sealedFor == KeyScope.container(TestServer.containerID).name)
            let userKeys = try await keys.store.transaction { try await $0.dataKeyScopes(startingWith: KeyScope.user("").name, after: "", limit: 10) }
            #expect(userKeys.isEmpty, "no key was made for the account: \(userKeys)")
        }
    }

    /// A deletion that stopped between its commit and its key's destruction leaves a key whose
    /// user is gone: maintenance destroys it, and leaves every living user's key.
    @Test func maintenanceDestroysTheKeysOfDeletedUsers() async throws {
        try await TestServer.with { server in
            let keys = server.server.services.keys
            let alice = try await server.signUp("alice")
            let living = try await keys.seal(Array("alice's".utf8), for: .user(try #require(alice.userRecordName)))
            let orphaned = try await keys.seal(Array("gone".utf8), for: .user("_deleted-before-its-key"))
            #expect(try await Maintenance.destroyKeysOfDeletedUsers(server.server.services) == 1)
            await #expect(throws: KeyVaultError.self) { try await keys.open(orphaned, for: .user("_deleted-before-its-key")) }
            let opened = try await keys.open(living, for: .user(try #require(alice.userRecordName)))
            #expect(opened == Array("alice's".utf8))
        }
    }

    /// On SQLite: the PostgreSQL run gives every server of the suite one master key.
    @Test(.enabled(if: !TestServer.runsOnPostgres, "about a data directory's own key"))
    func aServerRefusesToStartWithoutItsMasterKeyOrWithAnother() async throws {
        let directory = TestServer.temporaryDirectory()
        let keyFile = directory.appendingPathComponent("master.key")
        let fingerprint = try await TestServer.with(dataDirectory: directory) { server in
            _ = try await server.server.services.keys.seal(Array("a secret".utf8), for: .container(TestServer.containerID))
            return try #require(server.server.services.keys.master).fingerprint
        }
        #expect(try MasterKey(file: keyFile.path).fingerprint == fingerprint, "a server given no key made master.key in its data directory")
        let kept = directory.deletingLastPathComponent().appendingPathComponent("kept-\(UUID().uuidString).key")
        try FileManager.default.moveItem(at: keyFile, to: kept)
        await #expect { try await TestServer.with(dataDirectory: directory) { _ in } } throws: { error in
            "\(error)".contains("wrapped by master key \(fingerprint)") && "\(error)".contains("given no master key")
        }
        let other = directory.deletingLastPathComponent().appendingPathComponent("other-\(UUID().uuidString).key")
        let wrong = try MasterKey.create(at: other.path)
        await #expect { try await TestServer.with(dataDirectory: directory, configure: { $0.encryptionKeyFile = other.path }) { _ in } } throws: { error in
            "\(error)".contains("wrapped by master key \(fingerprint)") && "\(error)".contains(wrong.fingerprint)
        }
        #expect(throws: MasterKeyError.self, "a master key file is never overwritten") { try MasterKey.create(at: other.path) }
        let base64 = try String(contentsOf: kept, encoding: .utf8)
        try await TestServer.with(dataDirectory: directory, configure: { $0.encryptionKey = base64 }) { server in
            #expect(server.server.services.keys.master?.fingerprint == fingerprint, "the key from the environment opens the store")
        }
    }

    @Test func aRotationStoppedMidwayIsFinishedByRunningItAgain() async throws {
        let directory = TestServer.temporaryDirectory()
        let oldKey = directory.deletingLastPathComponent().appendingPathComponent("old-\(UUID().uuidString).key")
        let newKey = directory.deletingLastPathComponent().appendingPathComponent("new-\(UUID().uuidString).key")
        let old = try MasterKey.create(at: oldKey.path)
        let new = try MasterKey.create(at: newKey.path)
        // Containers' scopes: a user's key outlives no user (maintenance destroys it).
        let scopes = (0..<5).map { KeyScope.container("rotated-\($0)") }
        let sealed = try await TestServer.with(dataDirectory: directory, configure: { $0.encryptionKeyFile = oldKey.path }) { server in
            try await scopes.asyncMap { try await server.server.services.keys.seal(Array("secret of \($0)".utf8), for: $0) }
        }
        let rotating: @Sendable (inout ServerConfiguration) -> Void = { configuration in
            configuration.encryptionKeyFile = newKey.path
            configuration.previousEncryptionKeyFile = oldKey.path
        }
        // Stopped after two of five keys: both masters still wrap keys.
        struct Stopped: Error {}
        try await TestServer.with(dataDirectory: directory, configure: rotating) { server in
            await #expect(throws: Stopped.self) {
                try await server.server.services.keys.rotateMaster(batch: 2) { done in if done >= 2 { throw Stopped() } }
            }
        }
        await #expect { try await TestServer.with(dataDirectory: directory, configure: { $0.encryptionKeyFile = newKey.path }) { _ in } } throws: { error in
            "\(error)".contains("wrapped by master key \(old.fingerprint)")
        }
        let count = try await TestServer.with(dataDirectory: directory, configure: rotating) { server in
            let count = try await server.server.rotateMasterKey()
            let audit = try await server.server.services.admin.auditEntries()
            #expect(audit.contains { $0.action == "keys.rotate-master" && $0.detail.contains(new.fingerprint) })
            return count
        }
        #expect(count == 3, "the second run re-wraps only the keys the first left")
        try await TestServer.with(dataDirectory: directory, configure: { $0.encryptionKeyFile = newKey.path }) { server in
            for (scope, value) in zip(scopes, sealed) {
                let opened = try await server.server.services.keys.open(value, for: scope)
                #expect(String(decoding: opened, as: UTF8.self) == "secret of \(scope)")
            }
        }
        await #expect { try await TestServer.with(dataDirectory: directory, configure: { $0.encryptionKeyFile = oldKey.path }) { _ in } } throws: { error in
            "\(error)".contains("wrapped by master key \(new.fingerprint)")
        }
    }

    /// `stratus keys rotate-master` killed with SIGKILL after its first transaction, then run
    /// again: the second run re-wraps what the first left, and the store then opens with the new
    /// key alone. `stratus keys backup` writes the key store apart, every data key still wrapped.
    @Test(.enabled(if: !TestServer.runsOnPostgres, "a data directory's own key store"))
    func aRotationKilledMidwayFinishesWhenRunAgain() async throws {
        let directory = TestServer.temporaryDirectory()
        let newKey = directory.deletingLastPathComponent().appendingPathComponent("new-\(UUID().uuidString).key")
        let (old, probe) = try await TestServer.with(dataDirectory: directory) { server in
            let keys = server.server.services.keys
            let old = try #require(keys.master)
            let wrapped = try (0..<2_000).map { try KeyVault.wrap(SymmetricKey(size: .bits256), scope: KeyScope.container("c\($0)").name, with: old, at: 0) }
            try await keys.store.transaction { transaction in
                for key in wrapped { try await transaction.insertDataKey(key) }
            }
            return (old, try await keys.seal(Array("kept".utf8), for: .container("c1999")))
        }
        let backup = directory.deletingLastPathComponent().appendingPathComponent("keys-\(UUID().uuidString)")
        let (backedUp, written) = try await ServerProcess.run(["keys", "backup", "--data", directory.path, "--to", backup.path])
        #expect(backedUp == 0 && written.contains("2000 data keys written"), "\(written)")
        let file = try Data(contentsOf: backup.appendingPathComponent("keystore.json"))
        #expect(file.range(of: Data("kept".utf8)) == nil)
        let contents = try JSONDecoder().decode(KeyStoreBackup.self, from: file)
        #expect(contents.dataKeys.allSatisfy { $0.master == old.fingerprint })

        let new = try MasterKey.create(at: newKey.path)
        #expect(new.fingerprint != old.fingerprint)
        let arguments = ["keys", "rotate-master", "--data", directory.path, "--new-key-file", newKey.path]
        // One key a transaction: the kill lands with most of the keys still to do.
        let first = try ChildProcess(ServerProcess.executable.path, arguments + ["--batch", "1"])
        _ = try await first.read { $0.contains("data keys re-wrapped so far") }
        _ = first.end(with: SIGKILL)
        let (status, output) = try await ServerProcess.run(arguments + ["--encryption-key-file", directory.appendingPathComponent("master.key").path])
        let rewrapped = Int(output.split(separator: "\n").last?.split(separator: " ").first ?? "") ?? -1
        #expect(status == 0 && (1..<2_000).contains(rewrapped), "the second run finishes what the first began: \(output)")
        try await TestServer.with(dataDirectory: directory, configure: { $0.encryptionKeyFile = newKey.path }) { server in
            let opened = try await server.server.services.keys.open(probe, for: .container("c1999"))
            #expect(opened == Array("kept".utf8))
        }
    }

    /// Runs `body` on a server over a SQLite backup restored into a new directory, with the key
    /// store and master key of the data directory it was taken from, as they are today.
    static func withRestored(_ backup: URL, keysOf directory: URL, _ body: @Sendable (TestServer) async throws -> Void) async throws {
        let restored = TestServer.temporaryDirectory()
        _ = try await StratusServer.restore(from: backup, into: restored, storageDrivers: [.sqlite])
        try await TestServer.with(dataDirectory: restored, onSQLite: true, configure: { configuration in
            configuration.keyStoreDirectory = directory.appendingPathComponent("keys")
            configuration.encryptionKeyFile = directory.appendingPathComponent("master.key").path
        }, body)
    }

    /// Every regular file under `directory`.
    /// The container exported (`stratus export`) and the data backed up — `stratus backup`, or on
    /// PostgreSQL a plain `pg_dump` of the database — from a server's data directory.
    static func exportAndBackUp(_ directory: URL) async throws -> (export: URL, backup: URL) {
        let export = TestServer.temporaryDirectory()
        let exported = try await ServerProcess.run(["export", "--data", directory.path, "--container", TestServer.containerID, "--to", export.path])
        #expect(exported.status == 0, "\(exported.output)")
        let backup = TestServer.temporaryDirectory()
        if let base = TestServer.postgresURL {
            try FileManager.default.createDirectory(at: backup, withIntermediateDirectories: true)
            let dumped = try await ChildProcess.run("pg_dump", ["-f", backup.appendingPathComponent("dump.sql").path,
                                                                "-d", try await TestDatabase.url(for: directory, base: base)])
            #expect(dumped.status == 0, "\(dumped.output)")
        } else {
            let backedUp = try await ServerProcess.run(["backup", "--data", directory.path, "--to", backup.path])
            #expect(backedUp.status == 0, "\(backedUp.output)")
        }
        return (export, backup)
    }

    static func files(under directory: URL) throws -> [URL] {
        guard let walker = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: [.isRegularFileKey]) else { return [] }
        return try walker.compactMap { item in
            guard let url = item as? URL, try url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile == true else { return nil }
            return url
        }
    }
}
