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
    private var process: Process?
    private var output: Pipe?

    init(executable: URL, dataDirectory: URL) {
        self.executable = executable
        self.dataDirectory = dataDirectory
    }

    var baseURL: String { "http://127.0.0.1:\(port)" }

    /// The running server's process ID.
    var processIdentifier: Int32? { process?.processIdentifier }

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
    func start() throws {
        let process = Process()
        let output = Pipe()
        process.executableURL = executable
        process.arguments = ["serve", "--data", dataDirectory.path, "--port", String(port), "--log-level", "error"]
        process.standardOutput = output
        try process.run()
        var banner = ""
        while !banner.contains("ckAPIToken: ") || !banner.hasSuffix("\n") {
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else { throw SimulationError("stratus serve exited before listening: \(banner)") }
            banner += String(decoding: chunk, as: UTF8.self)
        }
        guard let address = banner.firstMatch(of: /running at http:\/\/127\.0\.0\.1:(\d+)/), let port = Int(address.1),
              let token = banner.firstMatch(of: /ckAPIToken: (\S+)/) else {
            throw SimulationError("unexpected banner: \(banner)")
        }
        self.port = port
        apiToken = String(token.1)
        self.process = process
        self.output = output
    }

    /// Kills the server with `SIGKILL` (no chance to flush or close anything) and reaps it.
    func kill() {
        guard let process else { return }
        Foundation.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        self.process = nil
        output = nil
    }

    /// Stops the server for good.
    func stop() {
        guard let process else { return }
        process.terminate()
        process.waitUntilExit()
        self.process = nil
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
