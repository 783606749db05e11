import Foundation

/// What a backup holds, written last into its directory as `manifest.json`: a backup directory
/// without one was cut short and is refused by a restore.
public struct BackupManifest: Codable, Sendable, Equatable {
    /// The layout of the backup directory; this release writes and reads 1.
    public var format: Int
    /// The release of Stratus that took it.
    public var serverVersion: String
    /// When the database snapshot was taken, in milliseconds since 1970.
    public var takenAt: Int64
    /// The last change sequence in the snapshot.
    public var changeSequence: Int64
    /// Asset files copied, and their bytes.
    public var assetFiles: Int
    public var assetBytes: Int64

    static let currentFormat = 1

    func write(to directory: URL) throws {
        try BackupFiles.writeManifest(self, to: directory)
    }

    static func read(from directory: URL) throws -> BackupManifest {
        let manifest = try BackupFiles.readManifest(BackupManifest.self, from: directory, what: "a backup")
        guard manifest.format == currentFormat else {
            throw TransferError("the backup's format is \(manifest.format); this release reads format \(currentFormat)")
        }
        return manifest
    }
}
