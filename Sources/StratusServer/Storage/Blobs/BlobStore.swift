import NIOCore

/// Where the bytes of asset files live, named by their checksum (base64 SHA-256), so identical
/// uploads share one copy (a file sealed under its owner's key is named by its checksum and the
/// key's tag, ``SealedAssetFile``, and shared only under that key): files in the data directory (``FileBlobStore``) next to SQLite, chunks
/// in the database (`PostgresBlobStore`, in StratusPostgreSQL) for instances sharing PostgreSQL. An S3-compatible
/// store would be a third.
///
/// Bytes go in and out in pieces, never whole in memory. They go in and out of the store inside
/// the write transaction that records or forgets them (``StorageTransaction/insertAssetUpload(_:)``,
/// ``StorageTransaction/deleteUnreferencedAssetBlobs()``), so a collection never races an upload
/// of the same bytes.
package protocol BlobStore: Sendable {
    /// Puts a received file's bytes into the store, inside the write transaction that records
    /// them; returns false, leaving the file, when the store has those bytes already (the caller
    /// deletes the file, outside any transaction).
    func store(_ file: ReceivedFile, in transaction: any StorageTransaction) async throws -> Bool

    /// Deletes the bytes with this checksum, if there are any, inside the write transaction that
    /// found nothing refers to them.
    func remove(checksum: String, in transaction: any StorageTransaction) async throws

    /// How many bytes the store holds under this checksum, or nil when it has none.
    func size(checksum: String) async throws -> Int64?

    /// Hands the bytes with this checksum to `consume` in pieces, in order — those of `range`
    /// only, when given one (it ends at the file's end at most); false when the store has none.
    func read(checksum: String, bytes range: ClosedRange<Int64>?, _ consume: (ByteBuffer) async throws -> Void) async throws -> Bool
}

extension BlobStore {
    /// Hands all the bytes with this checksum to `consume` in pieces, in order; false when the
    /// store has none.
    package func read(checksum: String, _ consume: (ByteBuffer) async throws -> Void) async throws -> Bool {
        try await read(checksum: checksum, bytes: nil, consume)
    }
}
