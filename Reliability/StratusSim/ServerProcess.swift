import Foundation

/// A real `stratus serve` process over a data directory, which the reliability tools kill with
/// `SIGKILL` and start again on the same port and files: the one crash harness.
final class ServerProcess: @unchecked Sendable {
    /// The container `stratus serve` creates by default.
    static let containerID = "iCloud.dev.stratus"
    let executable: URL
    let dataDirectory: URL
    private(set) var port = 0
    private(set) var apiToken = ""
    private var pid: pid_t?
    /// The read end of the server's standard output, kept open so the server never writes to a
    /// closed pipe.
    private var output: FileHandle?

    init(executable: URL, dataDirectory: URL) {
        self.executable = executable
        self.dataDirectory = dataDirectory
    }

    var baseURL: String { "http://127.0.0.1:\(port)" }

    /// The running server's process ID.
    var processIdentifier: Int32? { pid }

    /// The running server's resident memory (`VmRSS`) in MiB and its open file descriptors.
    func usage() -> (rssMiB: Double, fileDescriptors: Int)? {
        guard let pid = processIdentifier,
              let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
              let kilobytes = Double(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") else { return nil }
        let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count) ?? -1
        return (kilobytes / 1024, descriptors)
    }

    /// Starts the server (on a free port the first time, on the same port afterwards) and returns
    /// once it has printed its banner: it is listening.
    ///
    /// Spawned with `posix_spawn` rather than Foundation's `Process`, whose `run()` crashed (a bad
    /// read in `memmove`) once in some hundred starts made while other threads were busy.
    func start() throws {
        var pipe: [Int32] = [0, 0]
        guard Glibc.pipe(&pipe) == 0 else { throw SimulationError("pipe failed: errno \(errno)") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pipe[1], 1)
        posix_spawn_file_actions_addclose(&actions, pipe[0])
        posix_spawn_file_actions_addclose(&actions, pipe[1])
        let arguments = [executable.path, "serve", "--data", dataDirectory.path, "--port", String(port), "--log-level", "error"]
        var argv = arguments.map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var child: pid_t = 0
        let status = posix_spawn(&child, executable.path, &actions, nil, &argv, environ)
        close(pipe[1])
        let output = FileHandle(fileDescriptor: pipe[0], closeOnDealloc: true)
        guard status == 0 else { throw SimulationError("could not start \(executable.path): errno \(status)") }
        pid = child
        self.output = output
        var banner = ""
        while !banner.contains("ckAPIToken: ") || !banner.hasSuffix("\n") {
            let chunk = output.availableData
            guard !chunk.isEmpty else { throw SimulationError("stratus serve exited before listening: \(banner)") }
            banner += String(decoding: chunk, as: UTF8.self)
        }
        guard let address = banner.firstMatch(of: /running at http:\/\/127\.0\.0\.1:(\d+)/), let port = Int(address.1),
              let token = banner.firstMatch(of: /ckAPIToken: (\S+)/) else {
            throw SimulationError("unexpected banner: \(banner)")
        }
        self.port = port
        apiToken = String(token.1)
    }

    /// Kills the server with `SIGKILL` (no chance to flush or close anything) and reaps it.
    func kill() {
        end(with: SIGKILL)
    }

    /// Stops the server for good (`SIGTERM`, a graceful shutdown).
    func stop() {
        end(with: SIGTERM)
    }

    private func end(with signal: Int32) {
        guard let pid else { return }
        Glibc.kill(pid, signal)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        self.pid = nil
        output = nil
    }

    /// The `stratus` executable built next to this one (same configuration).
    static func siblingExecutable() -> URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("stratus")
    }
}

struct SimulationError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
