import ArgumentParser
import Foundation
import StratusServer

/// `stratus export`: one container written out as a container archive.
struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write one container (records, zones, schema, users, shares, subscriptions, asset files) to a directory as JSON Lines, while the server runs.")

    @OptionGroup var location: DataLocation
    @Option(help: "The archive directory to create (it must not exist, or be empty).") var to: String
    @Flag(help: "Also write password hashes, sessions, and APNs credentials and device tokens (keep the archive as safe as the data directory).")
    var withSecrets = false
    @Flag(help: "Also write record history: every kept version of the records (and the files only they hold), for undelete and restore after an import.")
    var withHistory = false

    func run() async throws {
        let server = try await location.server()
        let progress = ProgressBar()
        let manifest = try await TransferCall.run {
            try await server.services.admin.exportContainer(id: location.container, to: URL(fileURLWithPath: to), includingSecrets: withSecrets,
                                                            includingHistory: withHistory, progress: progress.show)
        }
        print("exported \(manifest.containerID) to \(to): \(TransferCall.summary(manifest))")
    }
}

/// `stratus import`: a container archive loaded into a data directory.
struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Load a container archive written by `stratus export` into a data directory (made if missing) that does not have its container.")

    @OptionGroup var store: StoreLocation
    @Option(help: "The archive directory, as `stratus export` wrote it.") var from: String

    func run() async throws {
        // Like `container create`, it may come first on a new machine: it makes the data directory.
        let server = try await StratusServer(configuration: store.configuration())
        let progress = ProgressBar()
        let manifest = try await TransferCall.run {
            try await server.services.admin.importContainer(from: URL(fileURLWithPath: from), progress: progress.show)
        }
        print("imported \(manifest.containerID) into \(store.data): \(TransferCall.summary(manifest))")
        if !manifest.includesSecrets, (manifest.items["user"] ?? 0) > 0 {
            print("the archive holds no password hashes: users sign in once `stratus user reset-password` gives them one")
        }
    }
}

/// What the transfer commands (backup, restore, export, import) share: their errors shown as
/// usage errors, and the archive summary line.
enum TransferCall {
    static func run<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await AdminCall.run(body)
        } catch let error as TransferError {
            throw ValidationError(error.description)
        }
    }

    static func summary(_ manifest: ArchiveManifest) -> String {
        let records = manifest.items["record"] ?? 0
        return "\(records) records, \(manifest.items["zone"] ?? 0) zones, \(manifest.items["user"] ?? 0) users, "
            + "\(manifest.assetFiles) asset files (\(manifest.assetBytes) bytes)"
    }
}

/// `stratus copy`: a whole store copied into a new one, PostgreSQL usually.
struct CopyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "copy",
        abstract: "Copy a whole store (every container with its records, tombstones, users, sessions, shares, subscriptions, schema and assets, and the console's administrators) into a new, empty one, keeping devices' change tokens valid, then verify the copy. Stop the server first.")

    @Option(help: "The data directory to copy.") var from: String
    @Option(help: "The store to copy into: a PostgreSQL database (postgres://user:password@host:5432/database) or a new data directory.")
    var to: String

    func run() async throws {
        guard FileManager.default.fileExists(atPath: from) else { throw ValidationError("no data directory at \(from)") }
        let source = try await StratusServer(configuration: StoreLocation(data: from).configuration())
        let isDatabase = to.hasPrefix("postgres://") || to.hasPrefix("postgresql://")
        // A PostgreSQL target keeps asset files in the database; files pass through the source's
        // `blobs/incoming/` on their way.
        let target = try await StratusServer(configuration: StoreLocation(data: isDatabase ? from : to, database: isDatabase ? to : nil).configuration())
        let progress = ProgressBar()
        let summary = try await TransferCall.run {
            try await source.services.admin.copyStore(to: target.services.admin, progress: progress.show)
        }
        for manifest in summary.containers { print("copied \(manifest.containerID): \(TransferCall.summary(manifest))") }
        print("copied \(summary.administrators) console administrators; every container verified in \(isDatabase ? "the database" : to)")
    }
}
