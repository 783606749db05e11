import ArgumentParser
import Foundation
import StratusServer

/// `stratus admin …`: the server's administrators, who sign in to the web console at `/console`.
struct AdminCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "admin", abstract: "Manage the administrators who sign in to the web console (/console).",
        subcommands: [Create.self, List.self, Remove.self])

    /// `stratus admin create NAME --password-file F`
    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Create an administrator (the password is stored hashed).")
        @OptionGroup var store: StoreLocation
        @Argument(help: "The administrator's name.") var name: String
        @Option(help: "A file whose first line is the password (- reads standard input).") var passwordFile: String

        func run() async throws {
            let password = try AdminCall.password(from: passwordFile)
            try await AdminCall.run { try await store.server().services.admin.createAdministrator(username: name, password: password) }
            print("administrator \(name) created; sign in at /console")
        }
    }

    /// `stratus admin list`
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the administrators.")
        @OptionGroup var store: StoreLocation

        func run() async throws {
            for administrator in try await store.server().services.admin.listAdministrators() {
                print("\(administrator.username)\tcreated \(AdminCall.date(administrator.createdAt))")
            }
        }
    }

    /// `stratus admin remove NAME`
    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove an administrator; their console sessions end.")
        @OptionGroup var store: StoreLocation
        @Argument(help: "The administrator's name.") var name: String

        func run() async throws {
            try await AdminCall.run { try await store.server().services.admin.removeAdministrator(username: name) }
            print("administrator \(name) removed")
        }
    }
}
