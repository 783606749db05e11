import Crypto
import Foundation
import NIOCore
import StratusCore
import _NIOFileSystem

/// Asset files, content-addressed under `blobs/` in the data directory: a file's name is the hex
/// SHA-256 of its bytes, so identical uploads share one file.
///
/// Files stream in and out in chunks: an upload is hashed and written as it arrives (never held
/// whole in memory), fsynced, and only then moved into place.
package struct BlobStore: Sendable {
    let directory: URL
    private var incoming: URL { directory.appendingPathComponent("incoming") }

    /// Opens the store, creating its directories. (Other processes — `stratus schema`, say —
    /// open it too while the server runs, so opening never touches uploads in progress.)
    init(directory: URL) throws {
        self.directory = directory
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("incoming"), withIntermediateDirectories: true)
    }

    /// Deletes the files of uploads that started longer ago than `age` (a crash cut them off).
    func removeIncoming(olderThan age: Duration) {
        let cutoff = Date().addingTimeInterval(-Double(age.components.seconds))
        let files = (try? FileManager.default.contentsOfDirectory(at: incoming, includingPropertiesForKeys: [.contentModificationDateKey])) ?? []
        for file in files {
            let modified = (try? file.resourceValues(forKeys: [.contentModificationDateKey]))?.contentModificationDate ?? .distantPast
            if modified < cutoff { try? FileManager.default.removeItem(at: file) }
        }
    }

    /// A file that has fully arrived but is not in the store yet.
    struct ReceivedFile: Sendable {
        var temporaryPath: String
        /// Base64 SHA-256 of the bytes: the asset's `fileChecksum`.
        var checksum: String
        var size: Int64
    }

    /// Writes a request body to a temporary file, hashing it on the way. More than `limit` bytes
    /// is `LIMIT_EXCEEDED`; nothing is left behind on any failure.
    ///
    /// Arriving bytes are gathered into blocks that are written while the next ones arrive and are
    /// hashed, with at most ``blocksInFlight`` blocks pending: memory stays bounded whatever the
    /// size. An fsync every ``blocksPerSync`` blocks overlaps the disk's writeback with the transfer.
    func receive<Body: AsyncSequence>(_ body: Body, limit: Int64) async throws -> ReceivedFile where Body.Element == ByteBuffer {
        let path = incoming.appendingPathComponent(SecretGenerator.uuid()).path
        do {
            let (digest, size) = try await FileSystem.shared.withFileHandle(forWritingAt: FilePath(path)) { handle in
                let result = try await withThrowingTaskGroup(of: Void.self) { writes in
                    var hasher = SHA256()
                    var size: Int64 = 0
                    var block = ByteBuffer()
                    var pending = 0
                    var blocks = 0
                    func flush() async throws {
                        guard block.readableBytes > 0 else { return }
                        if pending == Self.blocksInFlight {
                            try await writes.next()
                            pending -= 1
                        }
                        let (bytes, offset) = (block, size - Int64(block.readableBytes))
                        blocks += 1
                        let synchronize = blocks % Self.blocksPerSync == 0
                        writes.addTask {
                            _ = try await handle.write(contentsOf: bytes, toAbsoluteOffset: offset)
                            if synchronize { try await handle.synchronize() }
                        }
                        pending += 1
                        block = ByteBuffer()
                    }
                    for try await chunk in body {
                        size += Int64(chunk.readableBytes)
                        if size > limit { throw Self.tooLarge(limit) }
                        chunk.withUnsafeReadableBytes { hasher.update(bufferPointer: $0) }
                        if block.readableBytes == 0 { block.reserveCapacity(Self.blockSize) }
                        block.writeImmutableBuffer(chunk)
                        if block.readableBytes >= Self.blockSize { try await flush() }
                    }
                    try await flush()
                    try await writes.waitForAll()
                    return (hasher.finalize(), size)
                }
                try await handle.synchronize()
                return result
            }
            return ReceivedFile(temporaryPath: path, checksum: Data(digest).base64EncodedString(), size: size)
        } catch {
            try? FileManager.default.removeItem(atPath: path)
            throw Self.fault(error)
        }
    }

    /// A disk that is full or failing as a retryable CloudKit error; other errors unchanged.
    static func fault(_ error: any Error) -> any Error {
        guard let error = error as? FileSystemError else { return error }
        if let call = error.cause as? FileSystemError.SystemCallError, call.errno.rawValue == ENOSPC || call.errno.rawValue == EDQUOT {
            return CloudKitError(.tryAgainLater, "the server's asset storage is full; nothing was stored", retryAfter: 60)
        }
        if error.code == .io {
            return CloudKitError(.tryAgainLater, "the server could not write the asset; nothing was stored", retryAfter: 5)
        }
        return error
    }

    /// Bytes gathered before a write, and writes allowed to be pending at once.
    static let blockSize = 1024 * 1024
    static let blocksInFlight = 2
    /// Blocks between fsyncs while the file arrives, so the final fsync has little left to do.
    static let blocksPerSync = 8

    static func tooLarge(_ limit: Int64) -> CloudKitError {
        .limitExceeded("the asset is larger than the \(limit)-byte limit")
    }

    /// Copies a file already checked to hold the bytes `checksum` names (an archive's) into the
    /// incoming folder, ready for ``store(_:)``.
    func receive(copyOf file: URL, checksum: String) throws -> ReceivedFile {
        let copy = incoming.appendingPathComponent(SecretGenerator.uuid())
        try BackupFiles.copy(file, to: copy)
        let size = Int64((try FileManager.default.attributesOfItem(atPath: copy.path)[.size] as? NSNumber)?.int64Value ?? 0)
        return ReceivedFile(temporaryPath: copy.path, checksum: checksum, size: size)
    }

    /// Moves a received file into place; returns false, leaving it, when the store already has
    /// those bytes (the caller then deletes it, outside any transaction). Call it inside the write
    /// transaction that records the file, so it cannot race a collection.
    func store(_ file: ReceivedFile) throws -> Bool {
        guard let path = path(forChecksum: file.checksum) else { throw CloudKitError(.internalError, "bad checksum") }
        if FileManager.default.fileExists(atPath: path) { return false }
        let folder = (path as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        guard rename(file.temporaryPath, path) == 0 else {
            throw CloudKitError(.internalError, "cannot move the upload into the blob store (errno \(errno))")
        }
        Self.synchronizeDirectory(folder)
        return true
    }

    /// Deletes the file with this checksum, if there is one.
    func remove(checksum: String) {
        guard let path = path(forChecksum: checksum) else { return }
        try? FileManager.default.removeItem(atPath: path)
    }

    /// Where the file with this checksum lives: `blobs/<first two hex digits>/<hex>`.
    func path(forChecksum checksum: String) -> String? {
        guard let digest = Data(base64Encoded: checksum), digest.count == SHA256.byteCount else { return nil }
        let hex = SecretGenerator.hex(digest)
        return directory.appendingPathComponent(String(hex.prefix(2))).appendingPathComponent(hex).path
    }

    /// The checksum of the file a store names `name` (its hex SHA-256), or nil for another name.
    static func checksum(ofFileNamed name: String) -> String? {
        let digits = Array(name.utf8)
        guard digits.count == 2 * SHA256.byteCount else { return nil }
        var digest: [UInt8] = []
        digest.reserveCapacity(SHA256.byteCount)
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let high = hexValue(digits[index]), let low = hexValue(digits[index + 1]) else { return nil }
            digest.append(high << 4 | low)
        }
        return Data(digest).base64EncodedString()
    }

    private static func hexValue(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        default: nil
        }
    }

    /// Makes a rename in `folder` durable.
    private static func synchronizeDirectory(_ folder: String) {
        let descriptor = open(folder, O_RDONLY)
        guard descriptor >= 0 else { return }
        fsync(descriptor)
        close(descriptor)
    }
}
