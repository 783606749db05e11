import Foundation
import StratusTesting

/// The suite's use of ``ServerProcess``: the test container, the suite's PostgreSQL database when
/// it runs on PostgreSQL, and the `stratus` binary built beside the tests.
extension ServerProcess {
    /// Starts `stratus serve` over `dataDirectory` in the test container.
    static func started(dataDirectory: URL, arguments: [String] = [], logLevel: String = "error") async throws -> ServerProcess {
        let process = ServerProcess(executable: executable, dataDirectory: dataDirectory, arguments: ["--container", TestServer.containerID] + arguments,
                                    logLevel: logLevel, environment: try await environment(for: ["--data", dataDirectory.path]))
        try await process.start()
        return process
    }

    /// The built `stratus` binary next to the test bundle (`swift build` builds it).
    static var executable: URL { siblingExecutable }

    /// Where the running server answers, and its API token.
    var endpoint: ServerEndpoint { ServerEndpoint(baseURL: baseURL, apiToken: apiToken) }

    /// Runs `stratus` with `arguments` to its end: its exit status and everything it wrote.
    static func run(_ arguments: [String]) async throws -> (status: Int32, output: String) {
        try await ChildProcess.run(executable.path, arguments, environment: try await environment(for: arguments))
    }

    /// When the suite runs on PostgreSQL, the database of the `--data` directory the arguments
    /// name (as `STRATUS_DATABASE_URL`, which only commands with `--database` read), and the run's
    /// master key.
    static func environment(for arguments: [String]) async throws -> [String: String] {
        guard let base = TestServer.postgresURL, let flag = arguments.firstIndex(of: "--data"), flag + 1 < arguments.count else { return [:] }
        return ["STRATUS_DATABASE_URL": try await TestDatabase.url(for: URL(fileURLWithPath: arguments[flag + 1]), base: base),
                "STRATUS_ENCRYPTION_KEY": TestDatabase.masterKey]
    }
}
