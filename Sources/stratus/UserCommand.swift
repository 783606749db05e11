import ArgumentParser
import StratusCore
import StratusServer

/// `stratus user …`: a container's users, through the server's admin service.
struct UserCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "user", abstract: "Manage a container's users.",
        subcommands: [List.self, Create.self, Disable.self, Enable.self, ResetPassword.self, SignOut.self, Delete.self, Role.self])

    /// `stratus user list`: one user per line: username, user record name, email, state.
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List a container's users (at most 1,000), optionally those matching a text.")
        @OptionGroup var location: DataLocation
        @Option(help: "Only users whose username or email address contains this text.") var search: String?

        func run() async throws {
            let users = try await location.server().services.admin.listUsers(containerID: location.container, matching: search)
            for user in users {
                let state = user.disabledAt.map { "disabled \(AdminCall.date($0))" } ?? "active"
                print("\(user.username)\t\(user.userRecordName)\t\(user.email ?? "-")\t\(state)")
            }
        }
    }

    /// Which user (`--data`, `--container`, the username).
    struct Account: ParsableArguments {
        @OptionGroup var location: DataLocation
        @Argument(help: "The user's username.") var username: String

        /// Disables or enables the account, and says whether that changed anything.
        func setDisabled(_ disabled: Bool) async throws {
            let changed = try await AdminCall.run {
                try await location.server().services.admin.setDisabled(disabled, username: username, containerID: location.container)
            }
            let state = disabled ? "disabled" : "enabled"
            print(changed ? "\(username) is \(state)" : "\(username) was already \(state)")
        }
    }

    /// `stratus user create`: an account, as signing up makes one; prints its user record name.
    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Create a user; print their user record name.")
        @OptionGroup var account: Account
        @Option(name: .customLong("password-file"), help: "A file whose first line is the password; - reads standard input.")
        var passwordFile: String
        @Option(help: "The user's email address.") var email: String?

        func run() async throws {
            let password = try AdminCall.password(from: passwordFile)
            let user = try await AdminCall.run {
                try await account.location.server().services.admin.createUser(
                    containerID: account.location.container, username: account.username, password: password, email: email)
            }
            print(user.userRecordName)
        }
    }

    /// `stratus user disable`: the user's sessions and push connections end; sign-in is refused.
    struct Disable: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Disable a user: end their sessions, refuse their sign-ins.")
        @OptionGroup var account: Account

        func run() async throws {
            try await account.setDisabled(true)
        }
    }

    /// `stratus user enable`: a disabled user may sign in again.
    struct Enable: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Enable a disabled user again.")
        @OptionGroup var account: Account

        func run() async throws {
            try await account.setDisabled(false)
        }
    }

    /// `stratus user reset-password`: a new password; every session of the user ends.
    struct ResetPassword: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "reset-password", abstract: "Set a user's password (their sessions end).")
        @OptionGroup var account: Account
        @Option(name: .customLong("password-file"), help: "A file whose first line is the new password; - reads standard input.")
        var passwordFile: String

        func run() async throws {
            let password = try AdminCall.password(from: passwordFile)
            try await AdminCall.run {
                try await account.location.server().services.admin.resetPassword(
                    username: account.username, containerID: account.location.container, to: password)
            }
            print("\(account.username) has a new password; their sessions ended")
        }
    }

    /// `stratus user delete`: the account and its private data, as the user's own deletion does.
    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Delete a user: their private zones, shares and participations, subscriptions and sessions (their public records stay).")
        @OptionGroup var account: Account

        func run() async throws {
            try await AdminCall.run {
                try await account.location.server().services.admin.deleteUser(username: account.username, containerID: account.location.container)
            }
            print("\(account.username) is deleted")
        }
    }

    /// `stratus user sign-out`: every session of the user ends, on every device.
    struct SignOut: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "sign-out", abstract: "End every session of a user.")
        @OptionGroup var account: Account

        func run() async throws {
            let admin = try await account.location.server().services.admin
            let ended = try await AdminCall.run {
                let user = try await admin.user(username: account.username, containerID: account.location.container)
                return try await admin.signOutEverywhere(user: user.userRecordName)
            }
            print("\(ended) sessions of \(account.username) ended")
        }
    }

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
                let server = try await target.location.server()
                for role in try await server.userRoles(username: target.username, container: target.location.container,
                                                       environment: try target.parsedEnvironment()).sorted() {
                    print(role)
                }
            }
        }

        static func set(_ role: String, granted: Bool, _ target: Target) async throws {
            let server = try await target.location.server()
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
