import ArgumentParser
import Foundation
import NotesKit
import StratusClient
import StratusHarness
import StratusSync

/// `notes`: the seed article's one-note app on Stratus, as a command-line program. Each device
/// keeps its settings, note and sync state in its own directory (`--device`).
@main
struct Notes: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "One note, synced between devices through Stratus, offline first.",
        subcommands: [Setup.self, Show.self, Edit.self, Sync.self, Watch.self, Status.self, Resolve.self])

    struct DeviceOption: ParsableArguments {
        @Option(help: "The device's directory (settings, note, sync state).") var device: String

        var url: URL { URL(fileURLWithPath: device) }

        func open() async throws -> NoteDevice {
            // The crash-window tests arm a moment to be killed at in debug builds only: a release
            // build has no way to be killed by its environment.
            #if DEBUG
            InstalledHarness.install(ProcessHarness.from(environment: ProcessInfo.processInfo.environment))
            #endif
            return try await NoteDevice(directory: url)
        }
    }

    struct Setup: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Sign a device in (or up) to a Stratus server.")
        @OptionGroup var device: DeviceOption
        @Option(help: "The server's base URL.") var server = "http://127.0.0.1:8080"
        @Option(help: "The container.") var container = "iCloud.dev.stratus"
        @Option(help: "The container's API token.") var apiToken: String
        @Option(help: "Username.") var user: String?
        @Option(help: "Password.") var password: String?
        @Flag(help: "Create the account.") var signUp = false
        @Option(help: "Sign in with Apple instead: a file holding the identity token Apple gave the app.")
        var appleIdentityTokenFile: String?
        @Option(help: "The nonce whose SHA-256 the identity token carries, if the app gave Apple one.") var appleNonce: String?

        func run() async throws {
            let signIn: NoteDevice.SignIn
            switch (user, password, appleIdentityTokenFile) {
            case (let user?, let password?, nil):
                signIn = .password(username: user, password: password, signUp: signUp)
            case (nil, nil, let file?):
                let token = try String(contentsOfFile: file, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
                signIn = .apple(identityToken: token, nonce: appleNonce)
            default:
                throw ValidationError("give --user and --password, or --apple-identity-token-file")
            }
            try await NoteDevice.setup(directory: device.url, server: server, container: container, apiToken: apiToken, signIn: signIn)
            print("device ready: \(device.url.path)")
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print the note as this device has it.")
        @OptionGroup var device: DeviceOption

        func run() async throws {
            let device = try await device.open()
            if let refusal = try await device.refusal() {
                print("refused: \(refusal)")
                return
            }
            guard let note = try await device.note() else {
                print("(no note yet)")
                return
            }
            print(note.text)
            if try await device.store.hasUnsentChanges() {
                print("(not synced yet)")
            }
        }
    }

    struct Edit: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Replace the note's text; it syncs now, or later if offline.")
        @OptionGroup var device: DeviceOption
        @Argument(help: "The new text.") var text: String

        func run() async throws {
            let device = try await device.open()
            try await device.edit(text)
            do {
                try await device.sync()
                print("saved and synced")
            } catch let error as CloudError where error.code == .networkUnavailable || error.code == .networkFailure {
                print("saved on this device; it will sync when the server is reachable (`notes sync`)")
            }
        }
    }

    struct Watch: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print the note each time another device changes it (until Ctrl-C).")
        @OptionGroup var device: DeviceOption

        func run() async throws {
            let device = try await device.open()
            FileHandle.standardOutput.write(Data("\(try await device.note()?.text ?? "(no note yet)")\n".utf8))
            try await device.watch { note in
                let time = Date(timeIntervalSince1970: Double(note.modified) / 1000).formatted(date: .omitted, time: .standard)
                FileHandle.standardOutput.write(Data("[\(time)] \(note.text)\n".utf8))
            }
        }
    }

    struct Status: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "What waits to be sent, and what is set aside and why.")
        @OptionGroup var device: DeviceOption

        func run() async throws {
            print(try await device.open().status())
        }
    }

    struct Resolve: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Settle the note's set-aside change, then sync.")
        @OptionGroup var device: DeviceOption
        @Option(help: "retry, server (keep the server's version) or mine (keep this device's and send it again).") var keep: String

        func run() async throws {
            let resolution: SetAsideResolution
            switch keep {
            case "retry": resolution = .retry
            case "server": resolution = .keepServerVersion
            case "mine": resolution = .keepLocalVersion
            default: throw ValidationError("--keep is retry, server or mine")
            }
            try await device.open().resolve(resolution)
            print("resolved")
        }
    }

    struct Sync: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Send this device's edits and fetch the others'.")
        @OptionGroup var device: DeviceOption

        func run() async throws {
            let device = try await device.open()
            try await device.sync()
            if let refusal = try await device.refusal() {
                print("refused: \(refusal)")
                throw ExitCode(2)
            }
            print(try await device.note()?.text ?? "(no note yet)")
        }
    }
}
