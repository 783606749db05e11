import Crypto
import Foundation
import StratusCore

/// One container written out as a directory, and read back into a store: `stratus export` and
/// `stratus import`, and `serve --import/--export-on-exit`.
///
/// The directory holds `container.jsonl` (one ``ArchiveItem`` per line: the container, its
/// schemas, users, databases, zones with their tombstones, records with their tombstones, with
/// history the record log, shares, subscriptions), `assets/` (the asset files its records hold, named by SHA-256 as in the data
/// directory) and, written last, `manifest.json` (``ArchiveManifest``).
///
/// The rows are read over the storage seam (``StorageTransaction/archiveItems(containerID:includingSecrets:includingHistory:_:)``)
/// in one read transaction, so the archive is one consistent snapshot taken while the server runs;
/// asset collection is held while the files are copied. A load is one write transaction: the
/// container is there whole, or not at all.
///
/// Into a store that does not use the archive's row ids (a new one, or the store of another
/// container exported from the same server), rows keep their ids and change sequences, and the
/// change tokens devices hold stay valid; a new store also takes the archive's epoch. Otherwise
/// rows get new ids and sequences past every token of the archive's store, whose devices then
/// fetch again from the start.
package enum ContainerArchive {
    static let linesFile = "container.jsonl"
    static let assetsDirectory = "assets"

    static func export(_ containerID: String, from storage: any StratusStorage, blobs: any BlobStore, to destination: URL, at exportedAt: Int64,
                       includingSecrets: Bool, includingHistory: Bool, progress: @escaping @Sendable (TransferProgress) -> Void) async throws -> ArchiveManifest {
        try BackupFiles.prepareEmpty(destination, role: "archive directory")
        let linesPath = destination.appendingPathComponent(linesFile).path
        return try await AssetCollectionHold.during(storage, now: exportedAt) {
            let snapshot = try await storage.read { transaction in
                guard try await transaction.container(id: containerID) != nil else { throw TransferError("there is no container '\(containerID)'") }
                let total = try await transaction.archiveItemCount(containerID: containerID, includingSecrets: includingSecrets,
                                                                 includingHistory: includingHistory)
                let writer = try ArchiveWriter(path: linesPath)
                var assets: [String] = []
                try await transaction.archiveItems(containerID: containerID, includingSecrets: includingSecrets,
                                                   includingHistory: includingHistory) { item in
                    try writer.write(item)
                    if case .asset(let asset) = item { assets.append(asset.checksum) }
                    if writer.written % 1000 == 0 || writer.written == total {
                        progress(TransferProgress(step: "rows", done: writer.written, total: total))
                    }
                }
                try writer.finish()
                return await (items: writer.counts, sha256: writer.sha256, assets: assets,
                        changeSequence: try transaction.currentChangeSequence(), epoch: transaction.storeEpoch)
            }
            let bytes = try await BackupFiles.copyAssetFiles(snapshot.assets, from: blobs, to: destination.appendingPathComponent(assetsDirectory)) {
                progress(TransferProgress(step: "asset files", done: $0, total: snapshot.assets.count))
            }
            let manifest = ArchiveManifest(
                format: ArchiveManifest.currentFormat, serverVersion: StratusServer.version, containerID: containerID, exportedAt: exportedAt,
                changeSequence: snapshot.changeSequence, epoch: snapshot.epoch, includesSecrets: includingSecrets, items: snapshot.items,
                linesSHA256: snapshot.sha256, assetFiles: snapshot.assets.count, assetBytes: bytes)
            try BackupFiles.writeManifest(manifest, to: destination)
            return manifest
        }
    }

    /// The directory for a container's archive inside `parent`, once its identifier is checked
    /// and the path is seen to stay inside `parent`.
    package static func directory(for containerID: String, in parent: URL) throws -> URL {
        do {
            try NameRules.validateContainerID(containerID)
        } catch {
            throw TransferError("container '\(containerID)' cannot name a directory: \(error.reason)")
        }
        let base = parent.standardizedFileURL.path
        let directory = parent.appendingPathComponent(containerID).standardizedFileURL
        guard directory.path.hasPrefix(base.hasSuffix("/") ? base : base + "/") else {
            throw TransferError("container '\(containerID)' would be written outside \(base)")
        }
        return directory
    }

    /// Loads an archive into the store, whose epoch changes when it was empty: a server open on
    /// it must be opened again to serve the archive's tokens.
    static func load(from archive: URL, into storage: any StratusStorage, blobs: any BlobStore, incoming incomingFiles: IncomingFiles,
                     progress: @escaping @Sendable (TransferProgress) -> Void) async throws -> ArchiveManifest {
        let manifest = try ArchiveManifest.read(from: archive)
        do {
            try NameRules.validateContainerID(manifest.containerID)
        } catch {
            throw TransferError("the archive's container identifier is not valid: \(error.reason)")
        }
        let assets = archive.appendingPathComponent(assetsDirectory)
        let files = try BackupFiles.checkAssetFiles(in: assets, count: manifest.assetFiles, of: "the archive") {
            progress(TransferProgress(step: "asset files checked", done: $0, total: manifest.assetFiles))
        }
        var received: [String: ReceivedFile] = [:]
        var arriving: [String] = []
        defer {
            for file in received.values { try? FileManager.default.removeItem(atPath: file.temporaryPath) }
        }
        for file in files {
            guard let name = FileBlobStore.blobName(ofFileNamed: URL(fileURLWithPath: file).lastPathComponent) else {
                throw TransferError("asset file \(file) is not named by a SHA-256")
            }
            if try await blobs.size(checksum: name) == nil { arriving.append(name) }
            received[name] = try incomingFiles.receive(copyOf: assets.appendingPathComponent(file), name: name)
        }
        let incoming = received
        let newFiles = arriving
        let lines = archive.appendingPathComponent(linesFile)
        do {
            try await storage.write { transaction in
                guard try await transaction.container(id: manifest.containerID) == nil else {
                    throw TransferError("the store already has container '\(manifest.containerID)'")
                }
                let isEmpty = try await transaction.containers().isEmpty
                let current = try await transaction.currentChangeSequence()
                var load: ArchiveLoad
                do {
                    load = try await transaction.withSavepoint {
                        try await loadLines(lines, manifest: manifest, keepingRowIDs: true, sequenceOffset: 0, blobs: blobs, incoming: incoming,
                                      into: transaction, progress: progress)
                    }
                } catch is ArchiveLoad.RowIDTaken {
                    // Every sequence, purged ones included, lands past any token of the archive's store.
                    load = try await loadLines(lines, manifest: manifest, keepingRowIDs: false, sequenceOffset: max(current, manifest.changeSequence) + 1,
                                         blobs: blobs, incoming: incoming, into: transaction, progress: progress)
                }
                try await rebuildIndexes(containerID: manifest.containerID, in: transaction)
                try await transaction.advanceChangeSequence(to: load.sequence(manifest.changeSequence))
                if isEmpty && transaction.storeEpoch != manifest.epoch { try await transaction.setStoreEpoch(manifest.epoch) }
            }
        } catch {
            // Files moved into the store for a load that did not commit: those no row names go,
            // checked in a write transaction (an upload of the same bytes records its row in one).
            _ = try? await storage.write { transaction in
                for checksum in newFiles where try await !transaction.assetBlobExists(checksum: checksum) {
                    try await blobs.remove(checksum: checksum, in: transaction)
                }
            }
            throw error
        }
        return manifest
    }

    private static func loadLines(_ file: URL, manifest: ArchiveManifest, keepingRowIDs: Bool, sequenceOffset: Int64, blobs: any BlobStore,
                                  incoming: [String: ReceivedFile], into transaction: any StorageTransaction,
                                  progress: @Sendable (TransferProgress) -> Void) async throws -> ArchiveLoad {
        var load = ArchiveLoad(containerID: manifest.containerID, sequenceOffset: sequenceOffset, keepsRowIDs: keepingRowIDs)
        var reader = try ArchiveReader(path: file.path)
        let total = manifest.itemCount
        var done = 0
        while let line = try reader.nextLine() {
            let item = try ArchiveLine.decode(line)
            switch item {
            case .container(let container) where done == 0:
                guard container.id == manifest.containerID else {
                    throw TransferError("the archive's lines are of container '\(container.id)', its manifest of '\(manifest.containerID)'")
                }
            case .container:
                throw TransferError("the archive names a second container")
            case _ where done == 0:
                throw TransferError("the archive's first line is not its container")
            case .asset(let asset):
                guard let file = incoming[asset.checksum] else { throw TransferError("the archive has no file for asset \(asset.checksum)") }
                _ = try await blobs.store(file, in: transaction)
            default:
                break
            }
            try await transaction.loadArchiveItem(item, &load)
            done += 1
            if done % 1000 == 0 || done == total { progress(TransferProgress(step: "rows", done: done, total: total)) }
        }
        guard reader.sha256 == manifest.linesSHA256, load.counts == manifest.items else {
            throw TransferError("\(linesFile) is not the file its manifest describes: the archive is damaged")
        }
        return load
    }

    /// Writes the query index of every record type with indexed fields (the index is derived from
    /// records and schema, so archives do not carry it).
    private static func rebuildIndexes(containerID: String, in transaction: any StorageTransaction) async throws {
        for environment in ContainerEnvironment.allCases {
            let schema = try await transaction.schema(containerID: containerID, environment: environment)
            for (name, type) in schema.recordTypes.sorted(by: { $0.key < $1.key }) where !QueryIndexing.indexedFields(type).isEmpty {
                try await QueryIndexing.rebuild(recordType: name, schema: type, containerID: containerID, environment: environment, in: transaction)
            }
        }
    }
}

/// Writes archive lines to a file through a buffer, hashing and counting them.
private final class ArchiveWriter {
    private let handle: FileHandle
    private let path: String
    private var buffer: [UInt8] = []
    private var hasher = SHA256()
    private(set) var counts: [String: Int] = [:]
    private(set) var written = 0

    init(path: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: nil) else { throw TransferError("cannot create \(path)") }
        self.path = path
        handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    }

    func write(_ item: ArchiveItem) throws {
        let line = try ArchiveLine.encode(item)
        hasher.update(data: line)
        buffer.append(contentsOf: line)
        counts[item.kind, default: 0] += 1
        written += 1
        if buffer.count >= 1 << 20 { try flush() }
    }

    func finish() throws {
        try flush()
        try handle.synchronize()
        try handle.close()
    }

    var sha256: String { SecretGenerator.hex(hasher.finalize()) }

    private func flush() throws {
        try handle.write(contentsOf: buffer)
        buffer.removeAll(keepingCapacity: true)
    }
}

/// Reads an archive's lines one at a time, in pieces, hashing what it reads.
private struct ArchiveReader {
    private let handle: FileHandle
    private var pending: [UInt8] = []
    private var start = 0
    /// Where the search for the next newline goes on: bytes before it were searched already, so a
    /// long line is scanned once, not once per piece read.
    private var searched = 0
    private var atEnd = false
    private var hasher = SHA256()

    init(path: String) throws {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw TransferError("the archive has no \(ContainerArchive.linesFile)") }
        self.handle = handle
    }

    var sha256: String { SecretGenerator.hex(hasher.finalize()) }

    /// The next line without its newline, or nil at the end of the file.
    mutating func nextLine() throws -> [UInt8]? {
        while true {
            if let newline = pending[max(start, searched)...].firstIndex(of: UInt8(ascii: "\n")) {
                let line = Array(pending[start..<newline])
                start = newline + 1
                searched = start
                return line
            }
            searched = pending.count
            guard pending.count - start <= ArchiveLine.maxBytes else { throw TransferError("a line of the archive is longer than \(ArchiveLine.maxBytes) bytes") }
            if atEnd {
                guard start == pending.count else { throw TransferError("the archive's last line is cut short") }
                try? handle.close()
                return nil
            }
            pending.removeFirst(start)
            searched -= start
            start = 0
            if let piece = try handle.read(upToCount: 1 << 20), !piece.isEmpty {
                hasher.update(data: piece)
                pending.append(contentsOf: piece)
            } else {
                atEnd = true
            }
        }
    }
}
