import ArgumentParser
import Foundation
import StratusServer

/// Which data directory and container a command works on (`--data`, `--container`).
struct DataLocation: ParsableArguments {
    @Option(help: "The data directory.") var data = "./stratus-data"
    @Option(help: "The container identifier.") var container = "iCloud.dev.stratus"

    /// The server over the data directory (not serving), which must exist.
    func server() async throws -> StratusServer {
        try await Self.server(at: data)
    }

    /// The server over the data directory `data` (not serving), which must exist.
    static func server(at data: String) async throws -> StratusServer {
        guard FileManager.default.fileExists(atPath: data) else { throw ValidationError("no data directory at \(data)") }
        return try await StratusServer(configuration: ServerConfiguration(dataDirectory: URL(fileURLWithPath: data)))
    }
}
