import Foundation
import Logging

/// Online backups of a data directory, and restores into a new one.
///
/// A backup is a directory holding `stratus.sqlite` (a consistent snapshot, taken by SQLite's
/// online backup while the server runs and writes go on), `asset-url.key`, `blobs/` (every asset
/// file the snapshot can refer to) and, written last, `manifest.json`.
///
/// While the files are copied, asset collection is held off (``AssetCollectionHold``), so no file
/// the snapshot refers to can be removed between the snapshot and its copy.
///
/// A restore copies the backup into an empty directory, checks every asset file against its
/// checksum, and gives the store a new ``StratusStorage/epoch``: every change token issued before
/// then answers `CHANGE_TOKEN_EXPIRED`, so devices that had seen changes the backup does not hold
/// list their zones again instead of meeting an error they cannot leave.
package enum Backup {
    static let databaseFile = "stratus.sqlite"
    package static let assetKeyFile = "asset-url.key"
    static let blobsDirectory = "blobs"

    static func take(_ services: StratusServices, configuration: ServerConfiguration, to destination: URL,
                     progress: (String) -> Void) async throws -> BackupManifest {
        try BackupFiles.prepareEmpty(destination, role: "backup directory")
        let start = configuration.clock.milliseconds
        return try await AssetCollectionHold.during(services.storage, now: start) {
            try await copy(services.storage, configuration: configuration, to: destination, takenAt: start, progress: progress)
        }
    }

    private static func copy(_ storage: any StratusStorage, configuration: ServerConfiguration, to destination: URL, takenAt: Int64,
                             progress: (String) -> Void) async throws -> BackupManifest {
        let database = destination.appendingPathComponent(databaseFile)
        try await storage.backup(to: database.path)
        try BackupFiles.synchronize(database.path)
        progress("database copied")
        let changeSequence = try await storage.read { try await $0.currentChangeSequence() }
        try BackupFiles.copy(URL(fileURLWithPath: configuration.assetKeyPath), to: destination.appendingPathComponent(assetKeyFile))
        // Collection is held: every file the snapshot names is still in the store (and some
        // written since, which do no harm).
        let checksums = try await storage.read { try await $0.assetBlobChecksums() }
        let bytes = try await BackupFiles.copyAssetFiles(checksums, from: FileBlobStore(directory: configuration.blobDirectory),
                                                   to: destination.appendingPathComponent(blobsDirectory)) {
            progress("asset files \($0)/\(checksums.count)")
        }
        let manifest = BackupManifest(format: BackupManifest.currentFormat, serverVersion: StratusServer.version, takenAt: takenAt,
                                      changeSequence: changeSequence, assetFiles: checksums.count, assetBytes: bytes)
        try manifest.write(to: destination)
        return manifest
    }

    static func restore(from backup: URL, into dataDirectory: URL, storageDrivers: [StorageDriver], progress: (String) -> Void) async throws -> BackupManifest {
        let manifest = try BackupManifest.read(from: backup)
        let blobs = backup.appendingPathComponent(blobsDirectory)
        let files = try BackupFiles.checkAssetFiles(in: blobs, count: manifest.assetFiles, of: "the backup") {
            progress("asset files checked \($0)/\(manifest.assetFiles)")
        }
        try BackupFiles.prepareEmpty(dataDirectory, role: "data directory")
        var configuration = ServerConfiguration(dataDirectory: dataDirectory)
        configuration.storageDrivers = storageDrivers
        let driver = try configuration.storageDriver()
        try BackupFiles.copy(backup.appendingPathComponent(databaseFile), to: URL(fileURLWithPath: configuration.databasePath))
        try BackupFiles.copy(backup.appendingPathComponent(assetKeyFile), to: URL(fileURLWithPath: configuration.assetKeyPath))
        for file in files {
            try BackupFiles.copy(blobs.appendingPathComponent(file), to: configuration.blobDirectory.appendingPathComponent(file))
        }
        let storage = try await driver.open(configuration, Logger(label: "stratus-restore"))
        let epoch = newEpoch(other: storage.epoch)
        try await storage.write { try await begin(epoch: epoch, in: $0) }
        progress("restored into \(dataDirectory.path); change tokens issued before now will expire")
        return manifest
    }

    /// Gives a restored store its new epoch, and moves every webhook endpoint's cursor to the end
    /// of the restored log: each hears `database.restored` (``WebhookCourier``), then what is
    /// logged after.
    static func begin(epoch: Int64, in transaction: any StorageTransaction) async throws {
        try await transaction.setStoreEpoch(epoch)
        try await transaction.resetWebhookCursors(to: try await transaction.recordLogPosition(before: nil))
    }

    /// A random epoch, never 0 (the epoch of a store never restored) nor `other`.
    static func newEpoch(other: Int64) -> Int64 {
        var epoch: Int64
        repeat { epoch = Int64.random(in: 1...Int64.max) } while epoch == other
        return epoch
    }
}
