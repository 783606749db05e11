import Foundation
import Testing
import StratusCore
import StratusTesting

@Suite struct DurabilityTests {
    @Test func restartedServerServesSameDataAndHonoursOldTokens() async throws {
        let directory = TestServer.temporaryDirectory()
        let (alice, token, databaseToken, apiToken) = try await TestServer.with(dataDirectory: directory) { server in
            let alice = try await server.signUp()
            try await alice.createZone("Notes")
            _ = try await alice.save((0..<20).map { .create("n\($0)", ["i": .int64(Int64($0))]) }, zone: "Notes")
            let token = try await alice.allZoneChanges("Notes").token
            return (alice, token, try await alice.databaseChanges().syncToken, server.apiToken)
        }
        try await TestServer.with(dataDirectory: directory) { server in
            #expect(server.apiToken == apiToken, "the container keeps its API token")
            let caller = Caller(server: server.endpoint, webAuthToken: alice.webAuthToken, userRecordName: alice.userRecordName)
            let records = try await caller.lookup((0..<20).map { "n\($0)" }, zone: "Notes")
            #expect(records.compactMap { $0.record?.fields["i"] } == (0..<20).map { .int64(Int64($0)) })
            #expect(try await caller.allZoneChanges("Notes", from: token).records.isEmpty)
            #expect(try await caller.databaseChanges(token: databaseToken).zones.isEmpty)
            _ = try await caller.save([.create("after-restart")], zone: "Notes")
            #expect(try await caller.allZoneChanges("Notes", from: token).records.compactMap(\.recordName) == ["after-restart"])
        }
    }

    /// Every write the server acknowledged is there after `kill -9` and a restart.
    @Test func acknowledgedWritesSurviveKillNine() async throws {
        let directory = TestServer.temporaryDirectory()
        var process = try await ServerProcess(dataDirectory: directory)
        let server = try await process.endpoint()
        let alice = try await server.signUp()
        try await alice.createZone("Notes")
        var acknowledged: [String] = []
        for batch in 0..<10 {
            let saved = try await alice.save((0..<20).map { .create("b\(batch)-\($0)") }, zone: "Notes")
            acknowledged += saved.compactMap(\.recordName)
        }
        process.kill9()

        process = try await ServerProcess(dataDirectory: directory)
        defer { process.kill9() }
        let restarted = try await process.endpoint()
        let caller = Caller(server: restarted, webAuthToken: alice.webAuthToken, userRecordName: alice.userRecordName)
        let changes = try await caller.allZoneChanges("Notes")
        #expect(changes.records.compactMap(\.recordName).sorted() == acknowledged.sorted())
    }
}

/// The `stratus` executable running as a child process, for tests that must kill it.
struct ServerProcess {
    let child: ChildProcess

    init(dataDirectory: URL, logLevel: String = "error", arguments: [String] = []) async throws {
        let arguments = ["serve", "--data", dataDirectory.path, "--port", "0", "--container", TestServer.containerID, "--log-level", logLevel] + arguments
        child = try ChildProcess(Self.executable.path, arguments, environment: try await Self.environment(for: arguments))
    }

    /// The built `stratus` binary next to the test bundle (`swift build` builds it).
    static var executable: URL {
        if let path = ProcessInfo.processInfo.environment["STRATUS_BINARY"] { return URL(fileURLWithPath: path) }
        return URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("stratus")
    }

    /// Runs `stratus` with `arguments` to its end: its exit status and everything it wrote.
    static func run(_ arguments: [String]) async throws -> (status: Int32, output: String) {
        try await ChildProcess.run(executable.path, arguments, environment: try await environment(for: arguments))
    }

    /// When the suite runs on PostgreSQL, the database of the `--data` directory the arguments
    /// name (as `STRATUS_DATABASE_URL`, which only commands with `--database` read).
    static func environment(for arguments: [String]) async throws -> [String: String] {
        guard let base = ProcessInfo.processInfo.environment["STRATUS_TEST_POSTGRES"],
              let flag = arguments.firstIndex(of: "--data"), flag + 1 < arguments.count else { return [:] }
        return ["STRATUS_DATABASE_URL": try await TestDatabase.url(for: URL(fileURLWithPath: arguments[flag + 1]), base: base)]
    }

    /// Reads the banner for the port and the API token.
    func endpoint() async throws -> ServerEndpoint {
        try Self.endpoint(inBanner: try await banner())
    }

    /// Reads the banner up to the API token's line and, when given, a line containing `marker`.
    func banner(through marker: String? = nil) async throws -> String {
        try await child.read { text in
            text.contains("ckAPIToken: ") && text.hasSuffix("\n") && marker.map { text.contains($0) } != false
        }
    }

    /// The port and the API token a banner names.
    static func endpoint(inBanner text: String) throws -> ServerEndpoint {
        let lines = text.split(separator: "\n")
        guard let url = lines.first(where: { $0.contains("running at") })?.split(separator: " ").last,
              let token = lines.first(where: { $0.hasPrefix("ckAPIToken: ") })?.split(separator: " ").last else {
            throw TestFailure("unexpected banner: \(text)")
        }
        return ServerEndpoint(baseURL: String(url), apiToken: String(token))
    }

    func kill9() {
        child.end(with: SIGKILL)
    }
}
