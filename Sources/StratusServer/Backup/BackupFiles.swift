import Crypto
import Foundation

/// The file operations of backups and restores: copies made durable, emptiness checks, and the
/// check that an asset file still holds the bytes its name (their SHA-256) promises.
enum BackupFiles {
    /// Creates `directory`, which must not exist or be empty.
    static func prepareEmpty(_ directory: URL, role: String) throws {
        let manager = FileManager.default
        if manager.fileExists(atPath: directory.path) {
            guard (try manager.contentsOfDirectory(atPath: directory.path)).isEmpty else {
                throw BackupError("the \(role) \(directory.path) is not empty")
            }
        }
        try manager.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    /// Copies a file and fsyncs the copy.
    static func copy(_ source: URL, to destination: URL) throws {
        try FileManager.default.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: source, to: destination)
        try synchronize(destination.path)
    }

    /// Makes a file's bytes (or a directory's entries) durable.
    static func synchronize(_ path: String) throws {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw BackupError("cannot open \(path) (errno \(errno))") }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw BackupError("cannot fsync \(path) (errno \(errno))") }
    }

    /// The asset files under a `blobs/` directory, by path relative to it (`ab/abcdef…`).
    static func assetFiles(in blobs: URL) throws -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: blobs.path) else { return [] }
        var files: [String] = []
        while let path = walker.nextObject() as? String {
            let parts = path.split(separator: "/")
            if parts.count == 2, parts[0] != "incoming" { files.append(path) }
        }
        return files.sorted()
    }

    /// Whether the file's SHA-256, in hex, is its name; reads it in 1 MiB pieces.
    static func holdsItsChecksum(_ file: URL) throws -> Bool {
        let handle = try FileHandle(forReadingFrom: file)
        defer { try? handle.close() }
        var hasher = SHA256()
        while let piece = try handle.read(upToCount: 1 << 20), !piece.isEmpty { hasher.update(data: piece) }
        return SecretGenerator.hex(hasher.finalize()) == file.lastPathComponent
    }
}
