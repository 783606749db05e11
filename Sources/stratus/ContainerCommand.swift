import ArgumentParser
import Foundation
import StratusServer

/// `stratus container …`: container administration.
struct ContainerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "container", abstract: "Manage containers.", subcommands: [Token.self])

    /// `stratus container token`: prints a container's API token, alone on the last line.
    struct Token: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print a container's ckAPIToken.")

        @Option(help: "The data directory.") var data = "./stratus-data"
        @Option(help: "The container identifier.") var container = "iCloud.dev.stratus"

        func run() async throws {
            guard FileManager.default.fileExists(atPath: data) else {
                throw ValidationError("no data directory at \(data)")
            }
            let server = try StratusServer(configuration: ServerConfiguration(dataDirectory: URL(fileURLWithPath: data)))
            guard let token = try await server.apiToken(of: container) else {
                throw ValidationError("no container '\(container)' in \(data)")
            }
            print(token)
        }
    }
}
