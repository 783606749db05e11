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

        @OptionGroup var location: DataLocation

        func run() async throws {
            guard let token = try await location.server().apiToken(of: location.container) else {
                throw ValidationError("no container '\(location.container)' in \(location.data)")
            }
            print(token)
        }
    }
}
