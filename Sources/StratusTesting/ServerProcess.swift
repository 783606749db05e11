import Foundation
import Synchronization
import StratusServer

/// A `stratus serve` child process over a data directory, reached through the
/// ``ServerReadyLine`` it prints with `--ready-json`: how tests, benchmarks and the reliability
/// tools run the server as a process of its own, to kill it, restart it or run several.
///
/// The first start takes a free port; later starts (after ``kill()`` or ``stop()``) bind the same
/// one, so clients reach the restarted server where they reached the first.
package final class ServerProcess: Sendable {
    package let executable: URL
    package let dataDirectory: URL
    /// `serve` options after the data directory, port and log level.
    package let arguments: [String]
    package let logLevel: String
    /// Variables set for the child on top of this process's environment.
    package let environment: [String: String]
    /// What the running server announced, once started.
    package var ready: ServerReadyLine? { state.withLock { $0.ready } }
    /// Everything the server printed up to and including its ready line.
    package var startOutput: String { state.withLock { $0.startOutput } }
    private var child: ChildProcess? { state.withLock { $0.child } }
    private var port: Int { state.withLock { $0.port } }

    private struct State {
        var ready: ServerReadyLine?
        var startOutput = ""
        var child: ChildProcess?
        var port = 0
    }

    private let state = Mutex(State())

    package init(executable: URL, dataDirectory: URL, arguments: [String] = [], logLevel: String = "error",
                 environment: [String: String] = [:]) {
        self.executable = executable
        self.dataDirectory = dataDirectory
        self.arguments = arguments
        self.logLevel = logLevel
        self.environment = environment
    }

    /// The running server's base URL.
    package var baseURL: String { ready?.url ?? "http://127.0.0.1:\(port)" }
    /// The container's API token.
    package var apiToken: String { ready?.ckAPIToken ?? "" }
    /// The running server's process ID.
    package var processIdentifier: Int32? { child?.processIdentifier }

    /// Starts the server and returns once it has announced that it is ready.
    @discardableResult
    package func start() async throws -> ServerReadyLine {
        let child = try ChildProcess(executable.path, ["serve", "--data", dataDirectory.path, "--port", String(port), "--log-level", logLevel,
                                                       "--ready-json"] + arguments, environment: environment)
        state.withLock { $0.child = child }
        let (ready, output) = try await Self.awaitReady(child)
        guard let port = URLComponents(string: ready.url)?.port else { throw ChildProcessError("a ready line without a port: \(output)") }
        state.withLock { state in
            state.port = port
            state.ready = ready
            state.startOutput = output
        }
        return ready
    }

    /// Reads `child`'s output until its ready line (it runs `stratus serve --ready-json`).
    package static func awaitReady(_ child: ChildProcess) async throws -> (ready: ServerReadyLine, output: String) {
        let output = try await child.read { ServerReadyLine.first(in: $0) != nil }
        guard let ready = ServerReadyLine.first(in: output) else { throw ChildProcessError("no ready line in: \(output)") }
        return (ready, output)
    }

    /// Reads what the server prints after its ready line until `isComplete` holds for all of it
    /// read so far.
    package func read(until isComplete: @escaping @Sendable (String) -> Bool) async throws -> String {
        guard let child else { throw ChildProcessError("the server is not running") }
        return try await child.read(until: isComplete)
    }

    /// Kills the server with `SIGKILL` (no chance to flush or close anything) and reaps it.
    package func kill() {
        state.withLock { state in
            defer { state.child = nil }
            return state.child
        }?.end(with: SIGKILL)
    }

    /// Stops the server with `SIGTERM` (a graceful shutdown), waits for it to exit and returns
    /// its exit status and what it printed after its ready line. It blocks the calling thread for
    /// the shutdown, as a `defer` needs.
    @discardableResult
    package func stop() -> (status: Int32, output: String) {
        let running = state.withLock { state in
            defer { state.child = nil }
            return state.child
        }
        guard let child = running else { return (-1, "") }
        child.send(SIGTERM)
        let output = child.readToEnd()
        return (child.wait(), output)
    }

    /// Replaces the development schema of `container` with `file`'s through `stratus schema import`
    /// on the server's store: its data directory and, when its options name one (`--database`), its
    /// PostgreSQL database.
    package func importSchema(_ file: URL, container: String) async throws {
        let database = arguments.firstIndex(of: "--database").map { ["--database", arguments[$0 + 1]] } ?? []
        let (status, output) = try await ChildProcess.run(executable.path, ["schema", "import", file.path, "--data", dataDirectory.path,
                                                                            "--container", container] + database)
        guard status == 0 else { throw ChildProcessError("stratus schema import failed (\(status)): \(output)") }
    }

    /// ``stop()`` on a thread of its own, so that waiting for the shutdown holds none of the
    /// threads tasks run on.
    @discardableResult
    package func stop() async -> (status: Int32, output: String) {
        (try? await ChildProcess.onThreadOfItsOwn { self.stop() as (Int32, String) }) ?? (-1, "")
    }

    /// The `stratus` executable built next to the running one (same configuration), or
    /// `STRATUS_BINARY`.
    package static var siblingExecutable: URL {
        if let path = ProcessInfo.processInfo.environment["STRATUS_BINARY"] { return URL(fileURLWithPath: path) }
        return URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("stratus")
    }
}
