import Foundation
import GRDB
import Testing
import StratusTesting
@testable import StratusServer

/// `stratus doctor` on a deployment ready to go live and on a broken one, as an operator runs it.
@Suite(.enabled(if: MailSink.isAvailable, "needs the aiosmtpd package (scripts/test.sh installs it)"))
struct DoctorTests {
    /// A data directory a server has made and run on (migrated; closed to other users, as the
    /// server makes it).
    static func preparedDataDirectory() async throws -> URL {
        let data = TestServer.temporaryDirectory()
        let process = try await ServerProcess.started(dataDirectory: data)
        await process.stop()
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: data.path)[.posixPermissions] as? NSNumber)
        #expect(mode.intValue == 0o700, "the server makes its data directory for its owner only")
        return data
    }

    @Test func aDeploymentReadyToGoLiveHasNoError() async throws {
        let certificate = try TestCertificate.makeIssuedByAuthority(days: 90)
        defer { certificate.remove() }
        let passwordFile = certificate.directory.appendingPathComponent("smtp-password")
        try Data("s3cret pass\n".utf8).write(to: passwordFile)
        let data = try await Self.preparedDataDirectory()
        defer { try? FileManager.default.removeItem(at: data) }
        // The master key kept apart from the data, as docs/security.md asks (the PostgreSQL run's
        // servers all have the suite's).
        let masterKey = certificate.directory.appendingPathComponent("master.key")
        if TestServer.runsOnPostgres {
            try Data(TestDatabase.masterKey.utf8).write(to: masterKey)
        } else {
            try FileManager.default.moveItem(at: data.appendingPathComponent("master.key"), to: masterKey)
        }
        let sink = try MailSink(["--cert", certificate.certificate.path, "--key", certificate.privateKey.path, "--login", "relay:s3cret pass"])
        defer { sink.stop() }
        try await sink.ready()
        let (status, output) = try await ServerProcess.run([
            "doctor", "--data", data.path, "--public-url", "https://sync.example.com", "--trusted-proxy", "10.0.0.0/8",
            "--tls-cert", certificate.certificate.path, "--tls-key", certificate.privateKey.path,
            "--smtp-host", "localhost", "--smtp-port", "\(sink.port)", "--smtp-username", "relay", "--smtp-password-file", passwordFile.path,
            "--smtp-ca-file", certificate.authority.path, "--encryption-key-file", masterKey.path,
        ])
        #expect(status == 0, "\(output)")
        let fingerprint = try MasterKey(file: masterKey.path).fingerprint
        for line in ["ok       data directory: \(data.path): writable", "every migration applied", "ok       TLS: certificate and key load",
                     "ok       master key: \(fingerprint)",
                     "ok       public URL: https://sync.example.com", "ok       trusted proxies: 10.0.0.0/8",
                     "ok       mail: localhost:\(sink.port) answers, over STARTTLS with a verified certificate, authenticated as relay",
                     "0 error(s), 0 warning(s)"] {
            #expect(output.contains(line), "\(line)\n\(output)")
        }
        #expect(sink.messageCount == 0, "the check sends no mail")
    }

    @Test func aBrokenDeploymentGetsAnErrorAndAFixForEachProblem() async throws {
        let file = TestServer.temporaryDirectory()
        try Data("not a directory".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let closedPort = try MailSink.freePort()
        let (status, output) = try await ServerProcess.run([
            "doctor", "--data", file.path, "--host", "0.0.0.0", "--public-url", "http://sync.example.com", "--trusted-proxy", "::/0",
            "--tls-cert", "/nonexistent/cert.pem", "--tls-key", "/nonexistent/key.pem", "--smtp-host", "127.0.0.1", "--smtp-port", "\(closedPort)",
        ])
        #expect(status == 1, "\(output)")
        // The PostgreSQL run gives every command the suite's master key.
        let keyGiven = TestServer.runsOnPostgres
        for line in ["error    data directory: \(file.path) is a file", "error    TLS: /nonexistent/cert.pem and /nonexistent/key.pem do not load",
                     "warning  public URL: http://sync.example.com is cleartext", "error    trusted proxies: ::/0 trusts every client",
                     "error    mail: "] + (keyGiven ? ["4 error(s), 1 warning(s)"] : ["warning  master key: none given", "4 error(s), 2 warning(s)"]) {
            #expect(output.contains(line), "\(line)\n\(output)")
        }
        #expect(output.components(separatedBy: "fix: ").count - 1 == (keyGiven ? 5 : 6), "every finding that is not ok says how to fix it")
    }

    /// A master key other than the store's, or none, is an error naming the key the store expects;
    /// one kept in the data directory is a warning.
    @Test(.disabled(if: TestServer.runsOnPostgres, "the data directory's own key")) func aWrongMasterKeyIsAnError() async throws {
        let data = try await Self.preparedDataDirectory()
        defer { try? FileManager.default.removeItem(at: data) }
        let fingerprint = try MasterKey(file: data.appendingPathComponent("master.key").path).fingerprint
        let (_, kept) = try await ServerProcess.run(["doctor", "--data", data.path])
        #expect(kept.contains("warning  master key: \(fingerprint), kept in the data directory"), "\(kept)")
        let other = data.deletingLastPathComponent().appendingPathComponent("other-\(UUID().uuidString).key")
        defer { try? FileManager.default.removeItem(at: other) }
        let (status, output) = try await ServerProcess.run(["keys", "init", "--key-file", other.path])
        let made = try MasterKey(file: other.path).fingerprint
        #expect(status == 0 && output.contains(made), "\(output)")
        let (again, refused) = try await ServerProcess.run(["keys", "init", "--key-file", other.path])
        #expect(again != 0 && refused.contains("never overwritten"), "\(refused)")
        let (wrong, checked) = try await ServerProcess.run(["doctor", "--data", data.path, "--encryption-key-file", other.path])
        #expect(wrong == 1 && checked.contains("error    master key: the key store's data keys are wrapped by master key \(fingerprint)"), "\(checked)")
    }

    /// A store a newer Stratus migrated cannot be served by this one: migrations only go forward.
    @Test(.disabled(if: TestServer.runsOnPostgres, "the SQLite file's migrations")) func aDatabaseFromANewerVersionIsAnError() async throws {
        let data = try await Self.preparedDataDirectory()
        defer { try? FileManager.default.removeItem(at: data) }
        let database = data.appendingPathComponent("stratus.sqlite").path
        let (_, before) = try await ServerProcess.run(["doctor", "--data", data.path])
        #expect(before.contains("ok       database: SQLite \(database): reachable, every migration applied"), "\(before)")
        try await DatabaseQueue(path: database).write { try $0.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v99-from-the-future')") }
        let (status, output) = try await ServerProcess.run(["doctor", "--data", data.path])
        #expect(status == 1 && output.contains("error    database: SQLite \(database) was migrated by a newer Stratus (v99-from-the-future)"), "\(output)")
    }
}
