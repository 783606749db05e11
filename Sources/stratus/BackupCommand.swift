import ArgumentParser
import Foundation
import StratusServer

/// `stratus backup`: a consistent backup of a data directory, taken while the server runs.
struct BackupCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Back up a data directory (database, asset files, keys) while the server runs and writes go on.")

    @OptionGroup var store: StoreLocation
    @Option(help: "The backup directory to create (it must not exist, or be empty).") var to: String

    func run() async throws {
        let server = try await store.server()
        let manifest = try await TransferCall.run { try await server.backup(to: URL(fileURLWithPath: to)) { print($0) } }
        print("backed up \(store.data) to \(to): change sequence \(manifest.changeSequence), \(manifest.assetFiles) asset files (\(manifest.assetBytes) bytes)")
    }
}

/// `stratus restore`: a backup brought back into a new data directory.
struct RestoreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: "Restore a backup into a new data directory; devices' change tokens then expire and they refetch.")

    @Option(help: "The backup directory, as `stratus backup` wrote it.") var from: String
    @Option(help: "The data directory to create (it must not exist, or be empty).") var data: String

    func run() async throws {
        let manifest = try await TransferCall.run {
            try await StratusServer.restore(from: URL(fileURLWithPath: from), into: URL(fileURLWithPath: data)) { print($0) }
        }
        print("restored the backup taken at \(AdminCall.date(manifest.takenAt)) into \(data)")
    }
}
