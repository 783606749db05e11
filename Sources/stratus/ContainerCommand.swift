import ArgumentParser
import Foundation
import StratusServer

/// `stratus container …`: container administration, through the server's admin service.
struct ContainerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "container", abstract: "Manage containers.",
        subcommands: [Create.self, List.self, Token.self, RotateToken.self, WebOrigins.self, HistoryDays.self])

    /// `stratus container create`: a new container; prints its API token alone on the last line.
    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Create a container and print its ckAPIToken.")
        @OptionGroup var location: DataLocation

        func run() async throws {
            // The one command that may come first on a new machine: it makes the data directory.
            let server = try await StratusServer(configuration: location.store.configuration())
            let container = try await AdminCall.run { try await server.services.admin.createContainer(id: location.container) }
            print(container.apiToken)
        }
    }

    /// `stratus container list`: one container per line, with when it was made.
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the containers.")
        @OptionGroup var store: StoreLocation

        func run() async throws {
            for container in try await store.server().services.admin.listContainers() {
                print("\(container.id)\tcreated \(AdminCall.date(container.createdAt))")
            }
        }
    }

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

    /// `stratus container rotate-token`: a new API token; apps built with the old one stop working.
    struct RotateToken: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rotate-token",
            abstract: "Give a container a new ckAPIToken (the old one stops working at once) and print it.")
        @OptionGroup var location: DataLocation

        func run() async throws {
            print(try await AdminCall.run { try await location.server().services.admin.rotateAPIToken(containerID: location.container) })
        }
    }

    /// `stratus container web-origin add|remove|list ORIGIN`: the web apps that may sign their users
    /// in through the server's sign-in page; prints the container's web origins, one per line.
    struct WebOrigins: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "web-origin",
            abstract: "Add, remove or list the web apps (https://app.example.com) that may sign users in through the sign-in page.")
        @OptionGroup var location: DataLocation
        @Argument(help: "add, remove or list.") var action: String
        @Argument(help: "The web app's origin: scheme://host[:port], never *.") var origin: String?

        func run() async throws {
            let admin = try await location.server().services.admin
            let origins: [String]
            switch (action, origin) {
            case ("add", let origin?): origins = try await AdminCall.run { try await admin.addWebOrigin(origin, containerID: location.container) }
            case ("remove", let origin?): origins = try await AdminCall.run { try await admin.removeWebOrigin(origin, containerID: location.container) }
            case ("list", nil): origins = try await AdminCall.run { try await admin.webOrigins(containerID: location.container) }
            default: throw ValidationError("use: web-origin add ORIGIN, web-origin remove ORIGIN, or web-origin list")
            }
            for origin in origins { print(origin) }
        }
    }

    /// `stratus container history-days [DAYS|default]`: how many days the container keeps record
    /// history (its own number, or the server's `--history-days`); prints the setting.
    struct HistoryDays: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "history-days",
            abstract: "Show or set how many days the container keeps record history (0: none; default: the server's --history-days).")
        @OptionGroup var location: DataLocation
        @Argument(help: "A number of days, or default; leave it out to show the setting.") var days: String?

        func run() async throws {
            let admin = try await location.server().services.admin
            if let days {
                let setting: Int?
                if days == "default" { setting = nil } else {
                    guard let number = Int(days) else { throw ValidationError("'\(days)' is neither a number of days nor default") }
                    setting = number
                }
                try await AdminCall.run { try await admin.setHistoryDays(setting, containerID: location.container) }
            }
            let current = try await AdminCall.run { try await admin.historyDays(containerID: location.container) }
            print(current.map { "\($0) days" } ?? "the server's --history-days")
        }
    }
}
