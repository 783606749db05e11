import ArgumentParser
import Foundation
import StratusServer

/// The `stratus` command: run the server and administer its data directory.
@main
struct Stratus: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stratus",
        abstract: "A self-hostable, CloudKit-compatible sync server.",
        version: StratusServer.version,
        subcommands: [Serve.self, ContainerCommand.self, SchemaCommand.self, KeyCommand.self, UserCommand.self, APNsCommand.self,
                      BackupCommand.self, RestoreCommand.self],
        defaultSubcommand: Serve.self)

    /// Runs the command the arguments name, with options also taken from `STRATUS_…` environment
    /// variables (see ``EnvironmentOptions``).
    static func main() async {
        let arguments = EnvironmentOptions.arguments(Array(CommandLine.arguments.dropFirst()),
                                                     environment: ProcessInfo.processInfo.environment)
        await main(arguments)
    }
}
