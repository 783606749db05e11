import Foundation

/// What a container archive holds, written last into its directory as `manifest.json`: an
/// archive without one was cut short and is refused by an import.
public struct ArchiveManifest: Codable, Sendable, Equatable {
    /// The layout of the archive; this release writes and reads 1.
    public var format: Int
    /// The release of Stratus that wrote it.
    public var serverVersion: String
    public var containerID: String
    /// When the snapshot it holds was taken, in milliseconds since 1970.
    public var exportedAt: Int64
    /// The last change sequence of the store it came from, when it was written.
    public var changeSequence: Int64
    /// That store's epoch (see ``StratusServer/restore(from:into:progress:)``).
    public var epoch: Int64
    /// Whether it holds password hashes, sessions and APNs credentials and device tokens.
    public var includesSecrets: Bool
    /// Lines of `container.jsonl` by kind.
    public var items: [String: Int]
    /// The hex SHA-256 of `container.jsonl`.
    public var linesSHA256: String
    /// Asset files in `assets/`, and their bytes.
    public var assetFiles: Int
    public var assetBytes: Int64

    static let currentFormat = 1
    /// The name of the manifest's file in an archive directory.
    public static var fileName: String { BackupFiles.manifestFile }

    /// Every line of `container.jsonl`.
    public var itemCount: Int { items.values.reduce(0, +) }

    static func read(from directory: URL) throws -> ArchiveManifest {
        let manifest = try BackupFiles.readManifest(ArchiveManifest.self, from: directory, what: "a container archive")
        guard manifest.format == currentFormat else {
            throw TransferError("the archive's format is \(manifest.format); this release reads format \(currentFormat)")
        }
        return manifest
    }
}

/// How far a long transfer has come, for a progress bar: `done` of `total` in its current `step`.
public struct TransferProgress: Sendable, Equatable {
    public var step: String
    public var done: Int
    public var total: Int
}
