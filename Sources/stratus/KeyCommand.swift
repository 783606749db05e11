import ArgumentParser
import Foundation
import StratusServer

/// `stratus key …`: a container's server-to-server keys, with which backends sign requests to the
/// public database (CloudKit's `X-Apple-CloudKit-Request-*` headers).
struct KeyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "key", abstract: "Manage server-to-server keys.", subcommands: [Add.self, List.self, Revoke.self])

    /// `stratus key add`: registers a public key; prints its key ID alone on the last line.
    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Register an ECDSA P-256 public key (PEM, as `openssl ec -pubout` writes it); print its key ID.")

        @OptionGroup var location: DataLocation
        @Option(name: .customLong("public-key"), help: "The PEM file of the public key.") var publicKey: String

        func run() async throws {
            let pem = try String(contentsOfFile: publicKey, encoding: .utf8)
            print(try await location.server().addServerKey(container: location.container, publicKeyPEM: pem))
        }
    }

    /// `stratus key list`: one line per key: its ID, when it was added, and whether it is revoked.
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List a container's keys.")

        @OptionGroup var location: DataLocation

        func run() async throws {
            for key in try await location.server().serverKeys(container: location.container) {
                let added = Date(timeIntervalSince1970: Double(key.createdAt) / 1000).formatted(.iso8601)
                let revoked = key.revokedAt.map { " revoked " + Date(timeIntervalSince1970: Double($0) / 1000).formatted(.iso8601) } ?? ""
                print("\(key.keyID) added \(added)\(revoked)")
            }
        }
    }

    /// `stratus key revoke`: the key signs nothing from then on.
    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Revoke a key.")

        @OptionGroup var location: DataLocation
        @Argument(help: "The key ID.") var keyID: String

        func run() async throws {
            guard try await location.server().revokeServerKey(keyID, container: location.container) else {
                throw ValidationError("container '\(location.container)' has no key \(keyID) that is not revoked already")
            }
            print("revoked \(keyID)")
        }
    }
}
