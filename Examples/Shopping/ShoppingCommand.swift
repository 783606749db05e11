import ArgumentParser
import Foundation
import ShoppingKit
import StratusClient

/// `shopping`: Shopping UK's shared shopping list on Stratus, as a command-line program. Each
/// device keeps its settings and state in its own directory (`--device`).
@main
struct Shopping: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Shared shopping lists, synced through Stratus.",
        subcommands: [Setup.self, New.self, Lists.self, Show.self, Add.self, Check.self, Uncheck.self, Delete.self, Rename.self,
                      Recolor.self, Share.self, Accept.self, Leave.self, Unshare.self, Remove.self, Activity.self, Mode.self,
                      ApplyHeld.self, Compact.self, Restore.self, Products.self, Publish.self, Sync.self, Diagnostics.self])

    struct DeviceOption: ParsableArguments {
        @Option(help: "The device's directory.") var device: String

        func open() async throws -> ShoppingDevice { try await ShoppingDevice(directory: URL(fileURLWithPath: device)) }

        /// Runs a command, then syncs when the server is reachable.
        func run(_ body: (ShoppingDevice) async throws -> Void) async throws {
            let device = try await open()
            try await body(device)
            do {
                try await device.syncNow()
            } catch let error as CloudError where error.code == .networkUnavailable || error.code == .networkFailure {
                print("(offline: saved on this device; it syncs when the server is reachable)")
            }
        }
    }

    struct Setup: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Sign a device in (or up).")
        @Option var device: String
        @Option var server = "http://127.0.0.1:8080"
        @Option var container = "iCloud.dev.stratus"
        @Option var apiToken: String
        @Option var user: String
        @Option var password: String
        @Flag var signUp = false

        func run() async throws {
            try await ShoppingDevice.setup(directory: URL(fileURLWithPath: device), server: server, container: container, apiToken: apiToken,
                                           username: user, password: password, signUp: signUp)
            print("device ready")
        }
    }

    struct New: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Create a list.")
        @OptionGroup var device: DeviceOption
        @Argument var name: String

        func run() async throws { try await device.run { print(try await $0.newList(name: name)) } }
    }

    struct Lists: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "The lists on this device.")
        @OptionGroup var device: DeviceOption

        func run() async throws {
            for list in try await device.open().lists() { print("\(list.id)\t\(list.name)") }
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "A list's items in order.")
        @OptionGroup var device: DeviceOption
        @Argument var list: String

        func run() async throws {
            let device = try await device.open()
            guard let view = try await device.view(try await device.list(named: list)) else { return }
            print("\(view.name) (\(view.color))")
            for item in view.items { print("\(item.checked ? "[x]" : "[ ]") \(item.text)") }
        }
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Add an item, at the top or after another.")
        @OptionGroup var device: DeviceOption
        @Argument var list: String
        @Argument var text: String
        @Option(help: "The item it follows.") var after: String?

        func run() async throws {
            try await device.run { device in
                let id = try await device.list(named: list)
                let previous = try await after.asyncMap { try await device.item($0, in: id) }
                try await device.add(text, after: previous, to: id)
            }
        }
    }

    struct Check: AsyncParsableCommand {
        @OptionGroup var device: DeviceOption
        @Argument var list: String
        @Argument var item: String
        func run() async throws { try await device.run { let id = try await $0.list(named: list); try await $0.check(try await $0.item(item, in: id), in: id) } }
    }

    struct Uncheck: AsyncParsableCommand {
        @OptionGroup var device: DeviceOption
        @Argument var list: String
        @Argument var item: String
        func run() async throws { try await device.run { let id = try await $0.list(named: list); try await $0.uncheck(try await $0.item(item, in: id), in: id) } }
    }

    struct Delete: AsyncParsableCommand {
        @OptionGroup var device: DeviceOption
        @Argument var list: String
        @Argument var item: String
        func run() async throws { try await device.run { let id = try await $0.list(named: list); try await $0.delete(try await $0.item(item, in: id), in: id) } }
    }

    struct Rename: AsyncParsableCommand {
        @OptionGroup var device: DeviceOption
        @Argument var list: String
        @Argument var name: String
        func run() async throws { try await device.run { try await $0.rename(try await $0.list(named: list), to: name) } }
    }

    struct Recolor: AsyncParsableCommand {
        @OptionGroup var device: DeviceOption
        @Argument var list: String
        @Argument var color: String
        func run() async throws { try await device.run { try await $0.recolor(try await $0.list(named: list), to: color) } }
    }

    struct Share: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Share a list; prints the invitation URL.")
        @OptionGroup var device: DeviceOption
        @Argument var list: String
        @Option(help: "A user to invite (repeatable).") var with: [String]
        @Flag(help: "Invite them read-only.") var readOnly = false

        func run() async throws {
            let device = try await device.open()
            print(try await device.share(try await device.list(named: list), with: with.map { ($0, readOnly ? .readOnly : .readWrite) }))
        }
    }

    struct Accept: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Accept an invitation URL.")
        @OptionGroup var device: DeviceOption
        @Argument var url: String
        func run() async throws { print(try await device.open().accept(url)) }
    }

    struct Leave: AsyncParsableCommand {
        @OptionGroup var device: DeviceOption
        @Argument var list: String
        func run() async throws { let device = try await device.open(); try await device.leave(try await device.list(named: list)) }
    }

    struct Unshare: AsyncParsableCommand {
        @OptionGroup var device: DeviceOption
        @Argument var list: String
        func run() async throws { let device = try await device.open(); try await device.unshare(try await device.list(named: list)) }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove a participant from a list.")
        @OptionGroup var device: DeviceOption
        @Argument var list: String
        @Argument var user: String
        func run() async throws { let device = try await device.open(); try await device.remove(user, from: try await device.list(named: list)) }
    }

    struct Activity: AsyncParsableCommand {
        @OptionGroup var device: DeviceOption
        @Argument var list: String
        func run() async throws {
            let device = try await device.open()
            for line in try await device.activity(try await device.list(named: list)) { print(line) }
        }
    }

    struct Mode: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Shopping mode: hold others' new items until `apply-held`.")
        @OptionGroup var device: DeviceOption
        @Argument(help: "on or off") var state: String
        func validate() throws {
            guard state == "on" || state == "off" else { throw ValidationError("say `on` or `off`") }
        }
        func run() async throws { try await device.open().setShoppingMode(state == "on") }
    }

    struct ApplyHeld: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "apply-held", abstract: "Apply the items held in shopping mode.")
        @OptionGroup var device: DeviceOption
        func run() async throws { try await device.open().applyHeld() }
    }

    struct Compact: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Compact a list's journal on the server (entries older than 14 days).")
        @OptionGroup var device: DeviceOption
        @Argument var list: String
        func run() async throws {
            let device = try await device.open()
            print("removed \(try await device.compact(try await device.list(named: list), force: true)) entries")
        }
    }

    struct Restore: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Bring one of your lists back to how it was at a moment (ISO 8601, within the server's history), then sync.")
        @OptionGroup var device: DeviceOption
        @Argument var list: String
        @Option(help: "The moment, e.g. 2026-12-01T09:30:00Z.") var to: String
        func run() async throws {
            guard let moment = ISO8601DateFormatter().date(from: to) else { throw ValidationError("'\(to)' is not an ISO 8601 time") }
            let device = try await device.open()
            let summary = try await device.restore(try await device.list(named: list), to: moment)
            try await device.syncNow()
            print("\(summary.restored.count) entries brought back, \(summary.deleted.count) removed"
                  + (summary.failures.isEmpty ? "" : ", \(summary.failures.count) could not be restored"))
        }
    }

    struct Products: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "The public catalogue's products, by aisle (synced first when the server is reachable).")
        @OptionGroup var device: DeviceOption
        func run() async throws {
            let device = try await device.open()
            do {
                try await device.syncCatalogue()
            } catch let error as CloudError where error.code == .networkUnavailable || error.code == .networkFailure {
                print("(offline: the catalogue as this device last fetched it)")
            }
            for product in try await device.products() { print("\(product.aisle): \(product.name)") }
        }
    }

    struct Publish: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Publish a product to the public catalogue, for every user.")
        @OptionGroup var device: DeviceOption
        @Argument var name: String
        @Option(help: "The aisle it is found in.") var aisle: String
        func run() async throws {
            let device = try await device.open()
            _ = try await device.publish(name, aisle: aisle)
            try await device.syncCatalogue()
        }
    }

    struct Sync: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "sync", abstract: "Sync now.")
        @OptionGroup var device: DeviceOption
        func run() async throws { try await device.open().syncNow() }
    }

    struct Diagnostics: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "status", abstract: "What waits to be sent, what is set aside and why, and the apply queue.",
                                                        aliases: ["diagnostics"])
        @OptionGroup var device: DeviceOption
        func run() async throws { print(try await device.open().diagnostics()) }
    }
}

extension Optional {
    func asyncMap<T>(_ transform: (Wrapped) async throws -> T) async rethrows -> T? {
        guard let value = self else { return nil }
        return try await transform(value)
    }
}
