import ArgumentParser
import Foundation
import StratusServer

/// `stratus key …`: a container's server-to-server keys, with which backends sign requests to the
/// public database (CloudKit's `X-Apple-CloudKit-Request-*` headers).
struct KeyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "key", abstract: "Manage server-to-server keys.", subcommands: [Add.self, List.self, Revoke.self])

    /// The options every key command takes.
    struct Place: ParsableArguments {
        @Option(help: "The data directory.") var data = "./stratus-data"
        @Option(help: "The container identifier.") var container = "iCloud.dev.stratus"

        func server() throws -> StratusServer {
            guard FileManager.default.fileExists(atPath: data) else { throw ValidationError("no data directory at \(data)") }
            return try StratusServer(configuration: ServerConfiguration(dataDirectory: URL(fileURLWithPath: data)))
        }
    }

    /// `stratus key add`: registers a public key; prints its key ID alone on the last line.
    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Register an ECDSA P-256 public key (PEM, as `openssl ec -pubout` writes it); print its key ID.")

        @OptionGroup var place: Place
        @Option(name: .customLong("public-key"), help: "The PEM file of the public key.") var publicKey: String

        func run() async throws {
            let pem = try String(contentsOfFile: publicKey, encoding: .utf8)
            print(try await place.server().addServerKey(container: place.container, publicKeyPEM: pem))
        }
    }

    /// `stratus key list`: one line per key: its ID, when it was added, and whether it is revoked.
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List a container's keys.")

        @OptionGroup var place: Place

        func run() async throws {
            for key in try await place.server().serverKeys(container: place.container) {
                let added = Date(timeIntervalSince1970: Double(key.createdAt) / 1000).formatted(.iso8601)
                let revoked = key.revokedAt.map { " revoked " + Date(timeIntervalSince1970: Double($0) / 1000).formatted(.iso8601) } ?? ""
                print("\(key.keyID) added \(added)\(revoked)")
            }
        }
    }

    /// `stratus key revoke`: the key signs nothing from then on.
    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Revoke a key.")

        @OptionGroup var place: Place
        @Argument(help: "The key ID.") var keyID: String

        func run() async throws {
            guard try await place.server().revokeServerKey(keyID, container: place.container) else {
                throw ValidationError("container '\(place.container)' has no key \(keyID) that is not revoked already")
            }
            print("revoked \(keyID)")
        }
    }
}
