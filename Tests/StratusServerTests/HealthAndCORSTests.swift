import Foundation
import Synchronization
import GRDB
import HTTPTypes
import Testing
import StratusCore
import StratusTesting
@testable import StratusServer

/// `/healthz`, `/readyz`, CORS for configured origins, and the push WebSocket's `Origin` check.
@Suite struct HealthAndCORSTests {
    static let app = "https://app.example.com"

    @Test func healthAndReadiness() async throws {
        let directory = TestServer.temporaryDirectory()
        try await TestServer.with(dataDirectory: directory) { server in
            let probe = server.anonymous
            let health = try await probe.send(.GET, "/healthz", body: nil, apiToken: .some(nil))
            #expect(health.status == 200 && health.text.contains("\"ok\""))
            let ready = try await probe.send(.GET, "/readyz", body: nil, apiToken: .some(nil))
            #expect(ready.status == 200 && ready.text.contains("\"ready\""))

            // A database whose schema is behind the server's is not ready.
            if let base = TestServer.postgresURL {
                try await TestDatabase.execute("DELETE FROM stratus_migrations WHERE identifier = 'v1'", for: directory, base: base)
            } else {
                let queue = try DatabaseQueue(path: directory.appendingPathComponent("stratus.sqlite").path)
                try await queue.write { try $0.execute(sql: "DELETE FROM grdb_migrations WHERE identifier = 'v12-apns'") }
            }
            let behind = try await probe.send(.GET, "/readyz", body: nil, apiToken: .some(nil))
            #expect(behind.status == 503 && behind.text.contains("not ready"))
            #expect(try await probe.send(.GET, "/healthz", body: nil, apiToken: .some(nil)).status == 200)
        }
    }

    /// `stratus migrate` brings a new store's schema up to this release, and again changes
    /// nothing; a server over it is ready at once.
    @Test func migrateBringsANewStoreUpToDate() async throws {
        let directory = TestServer.temporaryDirectory()
        for _ in 0..<2 {
            let migrated = try await ServerProcess.run(["migrate", "--data", directory.path])
            #expect(migrated.status == 0 && migrated.output.contains("schema is current"), "\(migrated.output)")
            if TestServer.runsOnPostgres {
                #expect(migrated.output.contains("database's schema"), "the suite's database was migrated: \(migrated.output)")
            }
        }
        try await TestServer.with(dataDirectory: directory) { server in
            let ready = try await server.anonymous.send(.GET, "/readyz", body: nil, apiToken: .some(nil))
            #expect(ready.status == 200)
        }
    }

    @Test func configuredOriginsGetCORSHeadersAndPreflights() async throws {
        try await TestServer.with(configure: { $0.corsOrigins = [Self.app] }) { server in
            let alice = try await server.signUp()
            let path = alice.path(.private, "records/modify")
            let preflight = try await alice.send(.OPTIONS, path, body: nil, headers: [
                ("Origin", Self.app), ("Access-Control-Request-Method", "POST"),
                ("Access-Control-Request-Headers", "content-type, x-stratus-device-id")])
            #expect(preflight.status == 204)
            #expect(preflight.headers["Access-Control-Allow-Origin"].first == Self.app)
            #expect(preflight.headers["Access-Control-Allow-Methods"].first == "POST")
            #expect(preflight.headers["Access-Control-Allow-Headers"].first == "content-type, x-stratus-device-id")

            let body = try JSONEncoder().encode(RecordsModifyRequest(operations: [.create("r")]))
            let saved = try await alice.send(.POST, path, body: body, headers: [("Origin", Self.app)])
            #expect(saved.status == 200 && saved.headers["Access-Control-Allow-Origin"].first == Self.app)
            #expect(saved.headers["Access-Control-Expose-Headers"].first?.contains("X-Apple-Request-UUID") == true)
            // Errors carry the headers too, so the page can read them.
            let refused = try await alice.send(.POST, path, body: body, apiToken: .some("not-a-token"), headers: [("Origin", Self.app)])
            #expect(refused.status == 401 && refused.headers["Access-Control-Allow-Origin"].first == Self.app)

            let other = try await alice.send(.POST, path, body: body, headers: [("Origin", "https://evil.example")])
            #expect(other.headers["Access-Control-Allow-Origin"].isEmpty)
            let otherPreflight = try await alice.send(.OPTIONS, path, body: nil, headers: [
                ("Origin", "https://evil.example"), ("Access-Control-Request-Method", "POST")])
            #expect(otherPreflight.headers["Access-Control-Allow-Origin"].isEmpty)
        }
    }

    @Test func withoutConfiguredOriginsThereAreNoCORSHeaders() async throws {
        try await TestServer.with { server in
            let alice = try await server.signUp()
            let response = try await alice.send(.GET, alice.path(.private, "zones/list"), body: nil, headers: [("Origin", Self.app)])
            #expect(response.status == 200 && response.headers["Access-Control-Allow-Origin"].isEmpty)
        }
    }

    /// Origins are compared by scheme, host and port against the configured ones and the public
    /// URL; the request's `Host` (which a page's own DNS name can make anything) never admits.
    @Test func thePushWebSocketAdmitsOnlyConfiguredOriginsAndThePublicURL() async throws {
        try await TestServer.with(configure: {
            $0.corsOrigins = [Self.app]
            $0.publicURL = "https://sync.example.com/"
        }) { server in
            let alice = try await server.signUp()
            let url = PushBoundsTests.webSocketURL(alice)
            for refused in ["https://evil.example", "http://sync.example.com", "https://sync.example.com:8443", server.endpoint.baseURL,
                            Self.app.replacingOccurrences(of: "https://", with: "http://"), "null"] {
                let outcome = try await PushBoundsTests.connect(url, headers: [.origin: refused])
                #expect(outcome.closeCode == .unknown(4403), "\(refused) was admitted")
            }
            for admitted in [Self.app, "https://sync.example.com", "https://SYNC.example.com:443"] {
                let outcome = try await PushBoundsTests.connect(url, messages: 1, headers: [.origin: admitted])
                #expect(outcome.messages.count == 1 && outcome.closeCode != .unknown(4403), "\(admitted): the catch-up notification arrives")
            }
            let app = try await PushBoundsTests.connect(url, messages: 1)
            #expect(app.messages.count == 1, "an app sends no Origin")
        }
    }
}

/// What `stratus` refuses before it serves, and its version.
@Suite struct CommandLineTests {
    @Test func badServeOptionsAreErrorsNotDefaults() async throws {
        let directory = TestServer.temporaryDirectory()
        for (options, message) in [(["--log-level", "loud"], "--log-level must be one of"),
                                   (["--cors-origin", "https://app.example.com/path"], "--cors-origin takes an origin"),
                                   (["--tls-cert", "cert.pem"], "--tls-cert and --tls-key go together")] {
            let result = try await ServerProcess.run(["serve", "--data", directory.path, "--port", "0"] + options)
            #expect(result.status != 0 && result.output.contains(message), "\(options): \(result.output)")
        }
        #expect(!FileManager.default.fileExists(atPath: directory.path), "nothing was served or created")
    }

    /// Options from `STRATUS_…` variables: read for the command run, the command line winning.
    @Test func optionsComeFromTheEnvironmentToo() async throws {
        let directory = TestServer.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let stratus = ServerProcess.executable.path
        let refused = try await ChildProcess.run("/usr/bin/env", ["STRATUS_LOG_LEVEL=loud", stratus, "serve", "--data", directory.path])
        #expect(refused.status != 0 && refused.output.contains("--log-level must be one of"), "\(refused.output)")

        let server = try ChildProcess("/usr/bin/env", [
            "STRATUS_LOG_LEVEL=loud", "STRATUS_PORT=0", "STRATUS_DATA=\(directory.path)", "STRATUS_CONTAINER=iCloud.env.test",
            "STRATUS_CORS_ORIGIN=https://a.example, https://b.example", "STRATUS_BIND_DOWNLOAD_URLS=true",
            "STRATUS_READY_JSON=true", stratus, "serve", "--log-level", "error"])
        let (ready, _) = try await ServerProcess.awaitReady(server)
        _ = server.end(with: SIGTERM)
        #expect(ready.container == "iCloud.env.test", "the environment's container, and the command line's log level won")

        // A serve variable does not disturb a command without that option.
        let keys = try await ChildProcess.run("/usr/bin/env", ["STRATUS_PORT=1", "STRATUS_CONTAINER=iCloud.env.test", stratus, "key", "list",
                                                         "--data", directory.path])
        #expect(keys.status == 0, "\(keys.output)")
        let flagValue = try await ChildProcess.run("/usr/bin/env", ["STRATUS_BIND_DOWNLOAD_URLS=maybe", stratus, "serve", "--data", directory.path])
        #expect(flagValue.status != 0)
    }

    /// A JSON config file (`--config` or `STRATUS_CONFIG`): below the environment, which is below
    /// the command line; one file serves every command; unknown keys and bad values are errors.
    @Test func optionsComeFromAConfigFileBelowTheEnvironment() async throws {
        let directory = TestServer.temporaryDirectory()
        let config = directory.path + ".json"
        defer { try? FileManager.default.removeItem(at: directory); try? FileManager.default.removeItem(atPath: config) }
        try #"{"port": 0, "data": "\#(directory.path)", "container": "iCloud.file.test", "log-level": "error", "cors-origin": ["https://a.example"], "bind-download-urls": true}"#
            .write(toFile: config, atomically: true, encoding: .utf8)
        let stratus = ServerProcess.executable.path
        func container(_ executable: String, _ arguments: [String]) async throws -> String {
            let server = try ChildProcess(executable, arguments + ["--ready-json"])
            let (ready, _) = try await ServerProcess.awaitReady(server)
            _ = server.end(with: SIGTERM)
            return ready.container
        }
        #expect(try await container(stratus, ["serve", "--config", config]) == "iCloud.file.test")
        #expect(try await container("/usr/bin/env", ["STRATUS_CONFIG=\(config)", "STRATUS_CONTAINER=iCloud.env.test", stratus, "serve"]) == "iCloud.env.test")
        #expect(try await container("/usr/bin/env", ["STRATUS_CONTAINER=iCloud.env.test", stratus, "serve", "--config=\(config)",
                                               "--container", "iCloud.cli.test"]) == "iCloud.cli.test")
        // The same file serves a command without most of those options.
        let keys = try await ChildProcess.run(stratus, ["key", "list", "--config", config])
        #expect(keys.status == 0, "\(keys.output)")

        try #"{"data": "\#(directory.path)", "prot": 8080}"#.write(toFile: config, atomically: true, encoding: .utf8)
        let unknown = try await ChildProcess.run(stratus, ["serve", "--config", config])
        #expect(unknown.status != 0 && unknown.output.contains("'prot', which no command has"), "\(unknown.output)")
        try #"{"data": "\#(directory.path)", "port": "eighty"}"#.write(toFile: config, atomically: true, encoding: .utf8)
        let badValue = try await ChildProcess.run(stratus, ["serve", "--config", config])
        #expect(badValue.status != 0 && badValue.output.contains("port"), "\(badValue.output)")
        try "port = 80".write(toFile: config, atomically: true, encoding: .utf8)
        let notJSON = try await ChildProcess.run(stratus, ["serve", "--config", config])
        #expect(notJSON.status != 0 && notJSON.output.contains("is not a JSON object"), "\(notJSON.output)")
    }

    @Test func versionIsPrinted() async throws {
        let result = try await ServerProcess.run(["--version"])
        #expect(result.status == 0 && result.output.trimmingCharacters(in: .whitespacesAndNewlines) == StratusServer.version)
    }
}

/// The access log: a JSON line per request at the default level, with no secret in it.
@Suite struct AccessLogTests {
    @Test func eachRequestIsAJSONLineWithoutSecrets() async throws {
        let directory = TestServer.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let process = try await ServerProcess.started(dataDirectory: directory, logLevel: "info")
        defer { process.kill() }
        let endpoint = process.endpoint
        let alice = try await endpoint.signUp("alice")
        _ = try await alice.save([.create("r")])
        let courier = try await alice.post("/database/1/\(TestServer.containerID)/development/tokens/create", TokenCreateRequest())
            .decode(TokenCreateResponse.self).webcourierURL
        _ = try await alice.send(.GET, String(courier.dropFirst(endpoint.baseURL.count)) + "?wait=0", body: nil, apiToken: .some(nil))
            .status

        let output = try await process.read { $0.contains("/push/1/courier/") && $0.hasSuffix("\n") }
        let entries = output.split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
        }
        let modify = try #require(entries.first { ($0["path"] as? String)?.contains("records/modify") == true })
        #expect(modify["method"] as? String == "POST" && modify["status"] as? Int == 200 && modify["ms"] is Double)
        #expect((modify["path"] as? String)?.hasSuffix("?ckAPIToken=REDACTED&ckWebAuthToken=REDACTED") == true)
        #expect(modify["uuid"] is String)
        #expect(modify["client"] as? String == "127.0.0.1", "the client's address")
        #expect(entries.contains { $0["path"] as? String == "/push/1/courier/REDACTED?wait=REDACTED" })
        for secret in [endpoint.apiToken, try #require(alice.webAuthToken), String(courier.split(separator: "/").last ?? "")] {
            #expect(!output.contains(secret), "a secret in the log")
        }
    }

    @Test func aLineIsJSONWithItsStringsEscaped() throws {
        let line = AccessLog.line(client: "::1", method: "GET", uri: "/a\"b\\c\u{1}d/é", status: 404, milliseconds: 1.234, uuid: "U")
        #expect(line.hasPrefix(#"{"client":"::1","method":"GET","ms":1.23,"path":"/a\"b\\c\u0001d/é","status":404,"time":""#), "\(line)")
        let entry = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(entry["path"] as? String == "/a\"b\\c\u{1}d/é" && entry["uuid"] as? String == "U" && entry["status"] as? Int == 404)
        #expect(AccessLog.mattersToSecurity(path: "/auth/1/c/development/signin", status: 401))
        #expect(AccessLog.mattersToSecurity(path: "/database/1/c/development/private/records/modify", status: 429))
        #expect(!AccessLog.mattersToSecurity(path: "/database/1/c/development/private/records/modify", status: 200))
    }

    /// A reader that stops reading costs requests nothing: ordinary lines past the buffer are
    /// dropped and counted, lines that matter to security are kept.
    @Test func aStalledReaderDropsOrdinaryLinesButNeverSecurityOnes() async throws {
        let pipe = Pipe()
        let output = LogOutput(handle: pipe.fileHandleForWriting)
        let ordinary = String(repeating: "x", count: 200)
        // 5 MB while nobody reads (a pipe holds 64 KB): a write that waited for the reader would
        // never return, since the reading starts only after them.
        for _ in 0..<25_000 { output.write(ordinary, keep: false) }
        for index in 0..<10 { output.write("kept \(index)", keep: true) }
        let received = Mutex("")
        Thread.detachNewThread {
            while true {
                let data = pipe.fileHandleForReading.availableData
                guard !data.isEmpty else { return }
                received.withLock { $0 += String(decoding: data, as: UTF8.self) }
            }
        }
        // What arrives within a minute (it all comes at once; the bound only turns a lost line into
        // a failure instead of a hang).
        for _ in 0..<600 where !received.withLock({ $0.contains("kept 9\n") && $0.contains("\"dropped\":") }) {
            try await Task.sleep(for: .milliseconds(100))
        }
        let text = received.withLock { $0 }
        #expect(text.contains("\"dropped\":"), "the drops are said")
        #expect((0..<10).allSatisfy { text.contains("kept \($0)\n") })
        let ordinaryLines = text.components(separatedBy: ordinary + "\n").count - 1
        #expect(ordinaryLines < 25_000 && ordinaryLines > 0, "\(ordinaryLines) ordinary lines arrived")
    }

    @Test func capabilitiesAndQueryValuesAreRedacted() {
        #expect(AccessLog.redacted("/assets/1/download/abc?x=1") == "/assets/1/download/REDACTED?x=REDACTED")
        #expect(AccessLog.redacted("/share/GUID") == "/share/REDACTED")
        #expect(AccessLog.redacted("/healthz") == "/healthz")
        // CloudKit JS sends the session as ckSession.
        #expect(AccessLog.redacted("/database/1/c/development/public/records/query?ckAPIToken=a&ckSession=b&ckWebAuthToken=c")
                == "/database/1/c/development/public/records/query?ckAPIToken=REDACTED&ckSession=REDACTED&ckWebAuthToken=REDACTED")
    }
}
