import ArgumentParser
import Foundation
import StratusPostgreSQL
import StratusSQLite
import StratusServer

/// The `stratus` command: run the server and administer its data directory.
@main
struct Stratus: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stratus",
        abstract: "A self-hostable, CloudKit-compatible sync server.",
        version: StratusServer.version,
        subcommands: [Serve.self, DoctorCommand.self, ContainerCommand.self, SchemaCommand.self, KeyCommand.self, KeysCommand.self, UserCommand.self, RecordsCommand.self, WebhookCommand.self, APNsCommand.self,
                      BackupCommand.self, RestoreCommand.self, ExportCommand.self, ImportCommand.self, CopyCommand.self, MigrateCommand.self,
                      AdminCommand.self],
        defaultSubcommand: Serve.self)

    /// The stores every command can open: the data directory's SQLite file, or PostgreSQL.
    static let storageDrivers: [StorageDriver] = [.sqlite, .postgreSQL]

    /// Runs the command the arguments name, with options also taken from `STRATUS_…` environment
    /// variables (see ``EnvironmentOptions``) and from a config file (see ``ConfigFile``).
    static func main() async {
        let environment = ProcessInfo.processInfo.environment
        let (arguments, configPath) = ConfigFile.extractPath(from: Array(CommandLine.arguments.dropFirst()), environment: environment)
        var settings = environment
        if let configPath {
            do {
                let known = Set(EnvironmentOptions.allCommands().flatMap { EnvironmentOptions.options(of: $0).map(\.name) })
                settings = try ConfigFile.variables(at: configPath, knownOptions: known).merging(environment) { _, fromEnvironment in fromEnvironment }
            } catch {
                exit(withError: error)
            }
        }
        // Whatever the command changes is recorded in the audit log as done from here, by whoever runs it.
        await AuditActor.$current.withValue(.commandLine) {
            await main(EnvironmentOptions.arguments(arguments, environment: settings))
        }
    }
}
