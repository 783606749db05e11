import Crypto
import Foundation

/// The file operations of backups, restores and container archives: copies made durable,
/// emptiness checks, manifests, and the check that an asset file still holds the bytes its name
/// (their SHA-256) promises.
enum BackupFiles {
    /// Creates `directory`, which must not exist or be empty.
    static func prepareEmpty(_ directory: URL, role: String) throws {
        let manager = FileManager.default
        if manager.fileExists(atPath: directory.path) {
            guard (try manager.contentsOfDirectory(atPath: directory.path)).isEmpty else {
                throw TransferError("the \(role) \(directory.path) is not empty")
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
        guard descriptor >= 0 else { throw TransferError("cannot open \(path) (errno \(errno))") }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw TransferError("cannot fsync \(path) (errno \(errno))") }
    }

    /// The name of the file a backup or an archive writes last: without it, the directory was cut short.
    static let manifestFile = "manifest.json"

    /// Writes `manifest` into `directory` as its `manifest.json`, durably, after everything else.
    static func writeManifest(_ manifest: some Encodable, to directory: URL) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let file = directory.appendingPathComponent(manifestFile)
        try encoder.encode(manifest).write(to: file)
        try synchronize(file.path)
        try synchronize(directory.path)
    }

    /// Reads `directory`'s `manifest.json`; `what` names what the directory should be ("a backup").
    static func readManifest<Manifest: Decodable>(_ type: Manifest.Type, from directory: URL, what: String) throws -> Manifest {
        guard let data = FileManager.default.contents(atPath: directory.appendingPathComponent(manifestFile).path) else {
            throw TransferError("\(directory.path) holds no \(manifestFile): it is not \(what), or it was cut short")
        }
        do {
            return try JSONDecoder().decode(type, from: data)
        } catch {
            throw TransferError("\(directory.path)'s \(manifestFile) does not read as \(what)'s: \(error)")
        }
    }

    /// Writes the store's files with these checksums into `folder`, laid out as a data
    /// directory's `blobs/` (`ab/abcdef…`), each fsynced; returns their bytes. `progress` hears
    /// how many are written, now and then.
    static func copyAssetFiles(_ checksums: [String], from store: any BlobStore, to folder: URL, progress: (Int) -> Void) async throws -> Int64 {
        var bytes: Int64 = 0
        for (index, checksum) in checksums.enumerated() {
            guard let name = FileBlobStore.relativePath(forChecksum: checksum) else {
                throw TransferError("the store names a malformed checksum \(checksum)")
            }
            let file = folder.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            guard FileManager.default.createFile(atPath: file.path, contents: nil) else { throw TransferError("cannot create \(file.path)") }
            let handle = try FileHandle(forWritingTo: file)
            defer { try? handle.close() }
            let found = try await store.read(checksum: checksum) { piece in
                try handle.write(contentsOf: piece.readableBytesView)
                bytes += Int64(piece.readableBytes)
            }
            guard found else { throw TransferError("the store has no file for asset \(checksum)") }
            try handle.synchronize()
            if (index + 1) % 100 == 0 || index + 1 == checksums.count { progress(index + 1) }
        }
        return bytes
    }

    /// The asset files under `folder` (relative paths), once it is checked that there are `count`
    /// of them and that each holds the bytes its name promises; `source` names what they came in.
    static func checkAssetFiles(in folder: URL, count: Int, of source: String, progress: (Int) -> Void) throws -> [String] {
        let files = try assetFiles(in: folder)
        guard files.count == count else {
            throw TransferError("\(source) lists \(count) asset files but holds \(files.count)")
        }
        for (index, file) in files.enumerated() {
            guard try holdsItsChecksum(folder.appendingPathComponent(file)) else {
                throw TransferError("asset file \(file) does not hold the bytes its checksum names: \(source) is damaged")
            }
            if (index + 1) % 100 == 0 || index + 1 == files.count { progress(index + 1) }
        }
        return files
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

    /// Whether the file's SHA-256, in hex, is its name; reads it in 1 MiB pieces. A sealed file
    /// (``SealedAssetFile``, named by its plain checksum and a key tag) cannot be checked without
    /// its key: its header and size are (its segments' tags check the rest when it is read).
    static func holdsItsChecksum(_ file: URL) throws -> Bool {
        let handle = try FileHandle(forReadingFrom: file)
        defer { try? handle.close() }
        if file.lastPathComponent.contains(".") {
            let header = try handle.read(upToCount: SealedAssetFile.headerSize) ?? Data()
            let size = try handle.seekToEnd()
            return header.prefix(4).elementsEqual(SealedAssetFile.magic) && SealedAssetFile.plaintextSize(ofStored: Int64(size)) != nil
        }
        var hasher = SHA256()
        while let piece = try handle.read(upToCount: 1 << 20), !piece.isEmpty { hasher.update(data: piece) }
        return SecretGenerator.hex(hasher.finalize()) == file.lastPathComponent
    }
}
