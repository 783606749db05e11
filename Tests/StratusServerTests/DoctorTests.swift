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
        let sink = try MailSink(["--cert", certificate.certificate.path, "--key", certificate.privateKey.path, "--login", "relay:s3cret pass"])
        defer { sink.stop() }
        try await sink.ready()
        let (status, output) = try await ServerProcess.run([
            "doctor", "--data", data.path, "--public-url", "https://sync.example.com", "--trusted-proxy", "10.0.0.0/8",
            "--tls-cert", certificate.certificate.path, "--tls-key", certificate.privateKey.path,
            "--smtp-host", "localhost", "--smtp-port", "\(sink.port)", "--smtp-username", "relay", "--smtp-password-file", passwordFile.path,
            "--smtp-ca-file", certificate.authority.path,
        ])
        #expect(status == 0, "\(output)")
        for line in ["ok       data directory: \(data.path): writable", "every migration applied", "ok       TLS: certificate and key load",
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
        for line in ["error    data directory: \(file.path) is a file", "error    TLS: /nonexistent/cert.pem and /nonexistent/key.pem do not load",
                     "warning  public URL: http://sync.example.com is cleartext", "error    trusted proxies: ::/0 trusts every client",
                     "error    mail: ", "4 error(s), 1 warning(s)"] {
            #expect(output.contains(line), "\(line)\n\(output)")
        }
        #expect(output.components(separatedBy: "fix: ").count - 1 == 5, "every finding that is not ok says how to fix it")
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
