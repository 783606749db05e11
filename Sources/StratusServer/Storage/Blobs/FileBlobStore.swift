import Crypto
import Foundation
import NIOCore
import StratusCore
import _NIOFileSystem
#if canImport(Glibc)
import Glibc
#endif

/// Asset files content-addressed under `blobs/` in the data directory: a file's name is the hex
/// SHA-256 of its bytes (`blobs/<first two hex digits>/<hex>`).
package struct FileBlobStore: BlobStore {
    let directory: URL

    package init(directory: URL) {
        self.directory = directory
    }

    /// Moves the file into place (a rename, then an fsync of its folder).
    package func store(_ file: ReceivedFile, in transaction: any StorageTransaction) async throws -> Bool {
        guard let path = path(forChecksum: file.name) else { throw CloudKitError(.internalError, "bad checksum") }
        if FileManager.default.fileExists(atPath: path) { return false }
        let folder = (path as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        guard rename(file.temporaryPath, path) == 0 else {
            throw CloudKitError(.internalError, "cannot move the upload into the blob store (errno \(errno))")
        }
        Self.synchronizeDirectory(folder)
        return true
    }

    package func remove(checksum: String, in transaction: any StorageTransaction) async throws {
        guard let path = path(forChecksum: checksum) else { return }
        try? FileManager.default.removeItem(atPath: path)
    }

    package func size(checksum: String) async throws -> Int64? {
        guard let path = path(forChecksum: checksum),
              let size = try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber else { return nil }
        return size.int64Value
    }

    /// Reads the file (or `range` of it) in chunks of ``readSize``, the next one read while
    /// `consume` takes the last (a download's disk reads overlap its network writes instead of
    /// taking turns with them).
    package func read(checksum: String, bytes range: ClosedRange<Int64>?, _ consume: (ByteBuffer) async throws -> Void) async throws -> Bool {
        guard let path = path(forChecksum: checksum), FileManager.default.fileExists(atPath: path) else { return false }
        try await FileSystem.shared.withFileHandle(forReadingAt: FilePath(path)) { handle in
            #if canImport(Glibc)
            // Read start to end: the kernel reads further ahead of a file it is told so of.
            _ = try? await handle.withUnsafeDescriptor { posix_fadvise($0.rawValue, 0, 0, POSIX_FADV_SEQUENTIAL) }
            #endif
            let end = range.map { $0.upperBound + 1 } ?? .max
            func chunk(at offset: Int64) async throws -> ByteBuffer {
                guard offset < end else { return ByteBuffer() }
                return try await handle.readChunk(fromAbsoluteOffset: offset, length: .bytes(min(Self.readSize.bytes, end - offset)))
            }
            var offset = range?.lowerBound ?? 0
            var piece = try await chunk(at: offset)
            while piece.readableBytes > 0 {
                offset += Int64(piece.readableBytes)
                let next = offset
                async let following = chunk(at: next)
                try await consume(piece)
                piece = try await following
            }
        }
        return true
    }

    /// The size of one read of a file being downloaded.
    static let readSize: ByteCount = .mebibytes(1)

    /// Where the file with this checksum lives: `blobs/<first two hex digits>/<hex>`.
    func path(forChecksum checksum: String) -> String? {
        Self.relativePath(forChecksum: checksum).map { directory.appendingPathComponent($0).path }
    }

    /// The file's path under `blobs/`: `<first two hex digits>/<hex>`, and for a sealed file
    /// (``SealedAssetFile``) `.<key tag>` after it.
    static func relativePath(forChecksum name: String) -> String? {
        let checksum = SealedAssetFile.checksum(ofBlob: name)
        guard let digest = Data(base64Encoded: checksum), digest.count == SHA256.byteCount else { return nil }
        let hex = SecretGenerator.hex(digest)
        guard let tag = SealedAssetFile.keyTag(ofBlob: name) else { return String(hex.prefix(2)) + "/" + hex }
        guard tag.utf8.allSatisfy({ hexValue($0) != nil }), !tag.isEmpty else { return nil }
        return String(hex.prefix(2)) + "/" + hex + "." + tag
    }

    /// The blob-store name of the file a store names `name` (its hex SHA-256, and a sealed file's
    /// key tag), or nil for another name.
    static func blobName(ofFileNamed name: String) -> String? {
        let parts = name.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let digits = Array(parts[0].utf8)
        guard digits.count == 2 * SHA256.byteCount else { return nil }
        var digest: [UInt8] = []
        digest.reserveCapacity(SHA256.byteCount)
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let high = hexValue(digits[index]), let low = hexValue(digits[index + 1]) else { return nil }
            digest.append(high << 4 | low)
        }
        let checksum = Data(digest).base64EncodedString()
        guard parts.count == 2 else { return checksum }
        guard !parts[1].isEmpty, parts[1].utf8.allSatisfy({ hexValue($0) != nil }) else { return nil }
        return checksum + "." + parts[1]
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
