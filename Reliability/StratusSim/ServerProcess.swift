import Foundation
import StratusTesting

/// A real `stratus serve` process over a data directory, which the reliability tools kill with
/// `SIGKILL` and start again on the same port and files: the one crash harness.
final class ServerProcess: @unchecked Sendable {
    /// The container `stratus serve` creates by default.
    static let containerID = "iCloud.dev.stratus"
    let executable: URL
    let dataDirectory: URL
    private(set) var port = 0
    private(set) var apiToken = ""
    private var child: ChildProcess?

    init(executable: URL, dataDirectory: URL) {
        self.executable = executable
        self.dataDirectory = dataDirectory
    }

    var baseURL: String { "http://127.0.0.1:\(port)" }

    /// The running server's process ID.
    var processIdentifier: Int32? { child?.processIdentifier }

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
    func start() async throws {
        let child = try ChildProcess(executable.path, ["serve", "--data", dataDirectory.path, "--port", String(port), "--log-level", "error"])
        self.child = child
        let banner = try await child.read { $0.contains("ckAPIToken: ") && $0.hasSuffix("\n") }
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
        child?.end(with: signal)
        child = nil
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
