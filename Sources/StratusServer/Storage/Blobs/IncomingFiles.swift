import Crypto
import Foundation
import NIOCore
import StratusCore
import _NIOFileSystem

/// Files arriving on this instance's disk before they go into the ``BlobStore``: uploads, hashed
/// and written as they arrive (never held whole in memory) and fsynced, and archives' files.
/// They live in `blobs/incoming/` in the data directory, whichever store keeps the bytes after.
package struct IncomingFiles: Sendable {
    let directory: URL

    /// Opens the folder, creating it. (Other processes — `stratus schema`, say — open it too
    /// while the server runs, so opening never touches uploads in progress.)
    init(directory: URL) throws {
        self.directory = directory
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    /// Deletes the files of uploads that started longer ago than `age` before `now` (a crash cut
    /// them off).
    func remove(olderThan age: Duration, now: Date) {
        let cutoff = now.addingTimeInterval(-Double(age.components.seconds))
        let files = (try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: [.contentModificationDateKey])) ?? []
        for file in files {
            let modified = (try? file.resourceValues(forKeys: [.contentModificationDateKey]))?.contentModificationDate ?? .distantPast
            if modified < cutoff { try? FileManager.default.removeItem(at: file) }
        }
    }

    /// Writes a request body to a temporary file, hashing it on the way. More than `limit` bytes
    /// is `LIMIT_EXCEEDED`; nothing is left behind on any failure.
    ///
    /// Arriving bytes are gathered into blocks; each block is then hashed (in order, each hash
    /// continuing the one before, in a task of its own) and written, while the next block arrives.
    /// At most ``blocksInFlight`` blocks are being hashed or written at once: memory stays bounded
    /// whatever the size, and the receiving loop only copies bytes. An fsync every
    /// ``blocksPerSync`` blocks overlaps the disk's writeback with the transfer.
    func receive<Body: AsyncSequence>(_ body: Body, limit: Int64) async throws -> ReceivedFile where Body.Element == ByteBuffer {
        let path = directory.appendingPathComponent(SecretGenerator.uuid()).path
        do {
            let (digest, size) = try await FileSystem.shared.withFileHandle(forWritingAt: FilePath(path)) { handle in
                let result = try await withThrowingTaskGroup(of: Void.self) { writes in
                    var hashed: Task<SHA256, any Error>?
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
                        let previous = hashed
                        let hash = Task {
                            var hasher = try await previous?.value ?? SHA256()
                            bytes.withUnsafeReadableBytes { hasher.update(bufferPointer: $0) }
                            return hasher
                        }
                        hashed = hash
                        writes.addTask {
                            _ = try await handle.write(contentsOf: bytes, toAbsoluteOffset: offset)
                            if synchronize { try await handle.synchronize() }
                            // A block is done once hashed too: no more than `blocksInFlight` wait.
                            _ = try await hash.value
                        }
                        pending += 1
                        block = ByteBuffer()
                    }
                    for try await chunk in body {
                        size += Int64(chunk.readableBytes)
                        if size > limit { throw Self.tooLarge(limit) }
                        if block.readableBytes == 0 { block.reserveCapacity(Self.blockSize) }
                        block.writeImmutableBuffer(chunk)
                        if block.readableBytes >= Self.blockSize { try await flush() }
                    }
                    try await flush()
                    try await writes.waitForAll()
                    return (try await hashed?.value.finalize() ?? SHA256().finalize(), size)
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
    /// folder, ready for ``BlobStore/store(_:in:)``.
    func receive(copyOf file: URL, checksum: String) throws -> ReceivedFile {
        let copy = directory.appendingPathComponent(SecretGenerator.uuid())
        try BackupFiles.copy(file, to: copy)
        let size = Int64((try FileManager.default.attributesOfItem(atPath: copy.path)[.size] as? NSNumber)?.int64Value ?? 0)
        return ReceivedFile(temporaryPath: copy.path, checksum: checksum, size: size)
    }
}

/// A file that has fully arrived on this instance's disk but is not in the ``BlobStore`` yet.
package struct ReceivedFile: Sendable {
    package var temporaryPath: String
    /// Base64 SHA-256 of the bytes: the asset's `fileChecksum`.
    package var checksum: String
    package var size: Int64
}
