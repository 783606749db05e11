/// Asset files (one blob row per checksum), uploads awaiting a record, and which records refer
/// to which files. A file is named by its checksum, and a file sealed under its owner's key by
/// its checksum and the key's tag (``SealedAssetFile``): "checksum" below is that name.
package protocol AssetStore {
    /// Records an uploaded file: its blob (once per checksum) and the upload awaiting a record.
    func insertAssetUpload(_ upload: StoredAssetUpload) async throws
    func assetUpload(receiptHash: String) async throws -> StoredAssetUpload?
    /// A file of the zone whose plain checksum is `fileChecksum` (its name: the checksum, or for a
    /// sealed file the checksum and a key tag), its size and up to `limit` of the zone's records
    /// that refer to it; nil if none does.
    func assetReferences(zoneRowID: Int64, fileChecksum: String, limit: Int) async throws -> (name: String, size: Int64, recordNames: [String])?
    /// Whether the record refers to the file with this checksum.
    func recordReferencesAsset(zoneRowID: Int64, recordName: String, checksum: String) async throws -> Bool
    /// Replaces the set of files a record refers to.
    func replaceAssetReferences(zoneRowID: Int64, recordName: String, checksums: Set<String>) async throws
    /// Removes uploads made before `time` (ms); returns how many went.
    func deleteAssetUploads(before time: Int64) async throws -> Int
    /// Removes the blobs no record, no kept version and no upload refers to; returns their checksums.
    func deleteUnreferencedAssetBlobs() async throws -> [String]
    /// Whether a blob row with this checksum exists.
    func assetBlobExists(checksum: String) async throws -> Bool
    /// The checksum of every stored asset file.
    func assetBlobChecksums() async throws -> [String]
    /// Keeps the files the record refers to now (``AssetStore``) for the version that the change
    /// at `sequence` replaces: collection leaves them while an entry keeps the version.
    func keepAssetReferences(zoneRowID: Int64, recordName: String, sequence: Int64) async throws
    /// The position (``RecordVersion/position``) of the newest version of the record the log
    /// keeps that refers to the file named `checksum`, if one does.
    func versionPosition(zoneRowID: Int64, recordName: String, referringTo checksum: String) async throws -> Int64?
}
