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

    /// Writes a request body to a temporary file, hashing it on the way — sealed with `sealer`'s
    /// key as it is written, when given one (``SealedAssetFile``: its bytes never reach the disk
    /// in the clear). More than `limit` bytes is `LIMIT_EXCEEDED`; nothing is left behind on any
    /// failure.
    ///
    /// Arriving bytes are gathered into blocks; each block is then hashed (in order, each hash
    /// continuing the one before, in a task of its own) and written (sealed first), while the next
    /// block arrives. At most ``blocksInFlight`` blocks are being hashed or written at once:
    /// memory stays bounded whatever the size, and the receiving loop only copies bytes. An fsync
    /// every ``blocksPerSync`` blocks overlaps the disk's writeback with the transfer.
    func receive<Body: AsyncSequence>(_ body: Body, limit: Int64, sealingWith sealer: Sealer? = nil) async throws -> ReceivedFile
    where Body.Element == ByteBuffer {
        let path = directory.appendingPathComponent(SecretGenerator.uuid()).path
        let sealing = sealer.map(SealedAssetFile.Writer.init)
        do {
            let (digest, size) = try await FileSystem.shared.withFileHandle(forWritingAt: FilePath(path)) { handle in
                if let sealing { _ = try await handle.write(contentsOf: sealing.header, toAbsoluteOffset: 0) }
                let result = try await withThrowingTaskGroup(of: Void.self) { writes in
                    var hashed: Task<SHA256, any Error>?
                    var size: Int64 = 0
                    var block = ByteBuffer()
                    var pending = 0
                    var blocks = 0
                    // Bytes of the file flushed so far.
                    var flushed: Int64 = 0
                    func flush(last: Bool) async throws {
                        var bytes = block
                        block = ByteBuffer()
                        if sealing != nil, !last {
                            // Whole segments only; the rest waits for the next block.
                            let whole = bytes.readableBytes - bytes.readableBytes % SealedAssetFile.segmentSize
                            block.writeImmutableBuffer(bytes.getSlice(at: bytes.readerIndex + whole, length: bytes.readableBytes - whole)!)
                            bytes = bytes.getSlice(at: bytes.readerIndex, length: whole)!
                        }
                        guard bytes.readableBytes > 0 || (last && sealing != nil) else { return }
                        let piece = bytes
                        if pending == Self.blocksInFlight {
                            try await writes.next()
                            pending -= 1
                        }
                        let offset = flushed
                        flushed += Int64(piece.readableBytes)
                        blocks += 1
                        let synchronize = blocks % Self.blocksPerSync == 0
                        let previous = hashed
                        let hash = Task {
                            var hasher = try await previous?.value ?? SHA256()
                            piece.withUnsafeReadableBytes { hasher.update(bufferPointer: $0) }
                            return hasher
                        }
                        hashed = hash
                        writes.addTask {
                            if let sealing {
                                let segment = offset / Int64(SealedAssetFile.segmentSize)
                                let sealed = try sealing.seal(piece, from: segment, last: last)
                                _ = try await handle.write(contentsOf: sealed, toAbsoluteOffset: SealedAssetFile.offset(ofSegment: segment))
                            } else {
                                _ = try await handle.write(contentsOf: piece, toAbsoluteOffset: offset)
                            }
                            if synchronize { try await handle.synchronize() }
                            // A block is done once hashed too: no more than `blocksInFlight` wait.
                            _ = try await hash.value
                        }
                        pending += 1
                    }
                    for try await chunk in body {
                        size += Int64(chunk.readableBytes)
                        if size > limit { throw Self.tooLarge(limit) }
                        if block.readableBytes == 0 { block.reserveCapacity(Self.blockSize) }
                        block.writeImmutableBuffer(chunk)
                        if block.readableBytes >= Self.blockSize { try await flush(last: false) }
                    }
                    try await flush(last: true)
                    try await writes.waitForAll()
                    return (try await hashed?.value.finalize() ?? SHA256().finalize(), size)
                }
                try await handle.synchronize()
                return result
            }
            let checksum = Data(digest).base64EncodedString()
            return ReceivedFile(temporaryPath: path, name: sealer.map { SealedAssetFile.name(checksum: checksum, sealer: $0) } ?? checksum,
                                checksum: checksum, size: size)
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

    /// Copies a file already checked to hold the bytes its blob-store `name` promises (an
    /// archive's) into the folder, ready for ``BlobStore/store(_:in:)``.
    func receive(copyOf file: URL, name: String) throws -> ReceivedFile {
        let copy = directory.appendingPathComponent(SecretGenerator.uuid())
        try BackupFiles.copy(file, to: copy)
        let stored = Int64((try FileManager.default.attributesOfItem(atPath: copy.path)[.size] as? NSNumber)?.int64Value ?? 0)
        let size = SealedAssetFile.keyTag(ofBlob: name) == nil ? stored : SealedAssetFile.plaintextSize(ofStored: stored) ?? stored
        return ReceivedFile(temporaryPath: copy.path, name: name, checksum: SealedAssetFile.checksum(ofBlob: name), size: size)
    }
}

/// A file that has fully arrived on this instance's disk but is not in the ``BlobStore`` yet.
package struct ReceivedFile: Sendable {
    package var temporaryPath: String
    /// Its name in the ``BlobStore``: ``checksum``, and for a file sealed under its owner's key,
    /// the key's tag (``SealedAssetFile``).
    package var name: String
    /// Base64 SHA-256 of the file's bytes (before any sealing): the asset's `fileChecksum`.
    package var checksum: String
    /// The file's size (before any sealing).
    package var size: Int64
}
