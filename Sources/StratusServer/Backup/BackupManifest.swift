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

    static let fileName = "manifest.json"
    static let currentFormat = 1

    func write(to directory: URL) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let file = directory.appendingPathComponent(Self.fileName)
        try encoder.encode(self).write(to: file)
        try BackupFiles.synchronize(file.path)
        try BackupFiles.synchronize(directory.path)
    }

    static func read(from directory: URL) throws -> BackupManifest {
        let file = directory.appendingPathComponent(fileName)
        guard let data = FileManager.default.contents(atPath: file.path) else {
            throw BackupError("\(directory.path) holds no \(fileName): it is not a backup, or the backup was cut short")
        }
        let manifest = try JSONDecoder().decode(BackupManifest.self, from: data)
        guard manifest.format == currentFormat else {
            throw BackupError("the backup's format is \(manifest.format); this release reads format \(currentFormat)")
        }
        return manifest
    }
}

/// Why a backup or a restore stopped.
public struct BackupError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
