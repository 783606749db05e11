import ArgumentParser
import Foundation
import StratusCore
import StratusServer

/// `stratus apns …`: a container's credentials for Apple's push service, with which its
/// subscriptions wake iOS apps through APNs.
struct APNsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "apns", abstract: "Manage a container's APNs credentials.", subcommands: [Set.self, Show.self, Remove.self])

    /// `stratus apns set`: the token key (`.p8`), its key ID, the team ID and the app's bundle ID.
    struct Set: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Set the APNs token key, key ID, team ID and bundle ID.")

        @OptionGroup var location: DataLocation
        @Option(name: .customLong("key-file"), help: "The .p8 file Apple gave for the key.") var keyFile: String
        @Option(name: .customLong("key-id"), help: "The key's 10-character ID.") var keyID: String
        @Option(name: .customLong("team-id"), help: "The developer team's 10-character ID.") var teamID: String
        @Option(help: "The app's bundle ID, each push's apns-topic.") var topic: String

        func run() async throws {
            let pem = try String(contentsOfFile: keyFile, encoding: .utf8)
            do {
                try await location.server().setAPNsCredentials(container: location.container, keyID: keyID, teamID: teamID,
                                                                 topic: topic, privateKeyPEM: pem)
            } catch let error as CloudKitError {
                throw ValidationError(error.reason)
            }
            print("APNs credentials set for \(location.container): key \(keyID), team \(teamID), topic \(topic)")
        }
    }

    /// `stratus apns show`: the key ID, team ID and topic (never the key).
    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show the key ID, team ID and bundle ID in use.")
        @OptionGroup var location: DataLocation

        func run() async throws {
            guard let credentials = try await location.server().apnsCredentials(container: location.container) else {
                print("no APNs credentials for \(location.container)")
                return
            }
            print("key \(credentials.keyID), team \(credentials.teamID), topic \(credentials.topic)")
        }
    }

    /// `stratus apns remove`: the container pushes through APNs no more.
    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove the container's APNs credentials.")
        @OptionGroup var location: DataLocation

        func run() async throws {
            try await location.server().removeAPNsCredentials(container: location.container)
            print("APNs credentials removed from \(location.container)")
        }
    }
}
