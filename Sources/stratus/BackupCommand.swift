import ArgumentParser
import Foundation
import Logging
import StratusServer

/// `stratus backup`: a consistent backup of a data directory, taken while the server runs.
struct BackupCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Back up a data directory (database, asset files, the asset URL key; never the key store: `stratus keys backup`) while the server runs and writes go on.")

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
            try await StratusServer.restore(from: URL(fileURLWithPath: from), into: URL(fileURLWithPath: data),
                                             storageDrivers: Stratus.storageDrivers) { print($0) }
        }
        print("restored the backup taken at \(AdminCall.date(manifest.takenAt)) into \(data)")
    }
}

/// `stratus migrate`: a store's schema brought up to this release, for those who migrate before
/// starting their servers (`serve` migrates too, under PostgreSQL's advisory lock).
struct MigrateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Apply the schema migrations this release needs to a store (its PostgreSQL database or data directory) and exit.")

    @OptionGroup var store: StoreLocation
    @Flag(help: "The store was just restored from a dump (pg_restore): give it a new epoch, so change tokens issued before expire and devices fetch again. Stop its servers first.")
    var afterRestore = false

    func run() async throws {
        var logger = Logger(label: "stratus")
        logger.logLevel = .info
        let server = try await StratusServer(configuration: store.configuration(), logger: logger)
        guard await server.services.storage.isReady() else { throw ValidationError("the store's schema is not current after migrating") }
        if afterRestore {
            try await server.services.admin.startNewEpoch()
            print("the store has a new epoch: change tokens issued before now will expire")
        }
        print("the \(store.database == nil ? "data directory's" : "database's") schema is current for Stratus \(StratusServer.version)")
    }
}
