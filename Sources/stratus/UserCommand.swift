import ArgumentParser
import StratusCore
import StratusServer

/// `stratus user …`: a container's users.
struct UserCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "user", abstract: "Manage a container's users.", subcommands: [Role.self])

    /// `stratus user role add|remove|list`: the public database's custom security roles a user holds.
    struct Role: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Give users the custom security roles of a schema (CREATE ROLE), take them away, list them.",
            subcommands: [Add.self, Remove.self, List.self])

        /// Which user, in which environment.
        struct Target: ParsableArguments {
            @OptionGroup var location: DataLocation
            @Option(help: "development or production.") var environment = "development"
            @Argument(help: "The user's username.") var username: String

            func parsedEnvironment() throws -> ContainerEnvironment {
                guard let parsed = ContainerEnvironment(rawValue: environment) else {
                    throw ValidationError("environment must be development or production")
                }
                return parsed
            }
        }

        struct Add: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Give a user a role.")
            @OptionGroup var target: Target
            @Argument(help: "The role, as the schema's CREATE ROLE names it.") var role: String

            func run() async throws {
                try await Role.set(role, granted: true, target)
            }
        }

        struct Remove: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Take a role away from a user.")
            @OptionGroup var target: Target
            @Argument(help: "The role.") var role: String

            func run() async throws {
                try await Role.set(role, granted: false, target)
            }
        }

        struct List: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "List a user's roles, one per line.")
            @OptionGroup var target: Target

            func run() async throws {
                let server = try target.location.server()
                for role in try await server.userRoles(username: target.username, container: target.location.container,
                                                       environment: try target.parsedEnvironment()).sorted() {
                    print(role)
                }
            }
        }

        static func set(_ role: String, granted: Bool, _ target: Target) async throws {
            let server = try target.location.server()
            let changed: Bool
            do {
                changed = try await server.setUserRole(role, granted: granted, username: target.username,
                                                       container: target.location.container, environment: try target.parsedEnvironment())
            } catch let error as CloudKitError {
                throw ValidationError(error.reason)
            }
            let state = granted ? (changed ? "now holds" : "already held") : (changed ? "no longer holds" : "did not hold")
            print("\(target.username) \(state) \(role)")
        }
    }
}
