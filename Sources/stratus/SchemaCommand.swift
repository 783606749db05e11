import ArgumentParser
import Foundation
import StratusCore
import StratusServer

/// `stratus schema …`: the schema as a text file kept with the app ("schema as code").
struct SchemaCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema", abstract: "Export, import and deploy record-type schemas.",
        subcommands: [Export.self, Import.self, Validate.self, Deploy.self, Reset.self])

    /// `stratus schema export`: prints an environment's schema.
    struct Export: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print an environment's schema in CloudKit's schema language.")
        @OptionGroup var location: DataLocation
        @Option(help: "development or production.") var environment = "development"

        func run() async throws {
            guard let environment = ContainerEnvironment(rawValue: environment) else {
                throw ValidationError("environment must be development or production")
            }
            print(try await location.server().exportSchema(container: location.container, environment: environment), terminator: "")
        }
    }

    /// `stratus schema import FILE`: makes a file the development schema.
    struct Import: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Replace the development schema with a schema file.")
        @OptionGroup var location: DataLocation
        @Argument(help: "The schema file.") var file: String

        func run() async throws {
            let text = try String(contentsOfFile: file, encoding: .utf8)
            try await SchemaCommand.reading(file) { try await location.server().importSchema(text, container: location.container) }
            print("imported \(file) into development")
        }
    }

    /// `stratus schema validate FILE`: checks a schema file without applying it.
    struct Validate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check a schema file without applying it: it parses, and whether production could take it.")
        @OptionGroup var location: DataLocation
        @Argument(help: "The schema file.") var file: String

        func run() async throws {
            let text = try String(contentsOfFile: file, encoding: .utf8)
            let checked = try await SchemaCommand.reading(file) {
                try await location.server().services.schema.validate(text, containerID: location.container)
            }
            print("\(file) is valid: \(checked.schema.recordTypes.count) record types, \(checked.schema.roles.count) roles")
            switch checked.deploy {
            case .success(let changes):
                print(changes.isEmpty ? "production has it already" : "production could take it, with \(changes.count) changes:")
                for change in changes { print("  \(change)") }
            case .failure(let conflict):
                print("production could not take it, it would lose data: \(conflict.problems.joined(separator: "; "))")
            }
        }
    }

    /// `stratus schema reset`: development becomes production again, its data gone.
    struct Reset: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Reset development to production's schema and delete every development zone and subscription.")
        @OptionGroup var location: DataLocation
        @Flag(help: "Confirm: development's data is deleted.") var yes = false

        func run() async throws {
            guard yes else { throw ValidationError("this deletes every development zone; run again with --yes to confirm") }
            let zones = try await location.server().services.schema.resetDevelopment(containerID: location.container)
            print("development has production's schema; \(zones) zones deleted")
        }
    }

    /// Runs `body` on a schema file's text, reporting a syntax error or a bad name against the file.
    static func reading<T>(_ file: String, _ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as SchemaTextError {
            throw ValidationError("\(file): \(error)")
        } catch let error as CloudKitError {
            throw ValidationError("\(file): \(error.reason)")
        }
    }

    /// `stratus schema deploy`: development → production, additive changes only.
    struct Deploy: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Deploy the development schema to production (additive changes only).")
        @OptionGroup var location: DataLocation

        func run() async throws {
            let changes: [SchemaChange]
            do {
                changes = try await location.server().deploySchema(container: location.container)
            } catch let conflict as SchemaConflict {
                throw ValidationError("deploy refused, production would lose data: \(conflict.problems.joined(separator: "; "))")
            }
            if changes.isEmpty { print("production is up to date") }
            for change in changes { print(change) }
        }
    }
}
