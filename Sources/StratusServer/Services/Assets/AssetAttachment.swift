import StratusCore

/// Checks the assets of a record being saved and turns them into what is stored: the file's
/// checksum and size (and any client-side encryption keys), never a receipt or a download URL.
///
/// A new file must come with the receipt its upload returned, uploaded by the same user into the
/// same database. A file may be sent back as it was fetched (`fileChecksum` without a receipt), as
/// clients do when they save a fetched record again, if the record being saved already holds it or
/// another record of the zone that the caller may read does: a checksum alone never attaches a file
/// the caller could not download.
struct AssetAttachment {
    let transaction: any StorageTransaction
    let zone: StoredZone
    let user: String
    /// The record being saved.
    let recordName: String
    /// Whether the caller may read the named record of the zone.
    let mayRead: (String) async throws -> Bool
    /// How many of the records holding a file are tried for one the caller may read.
    static let referencesTried = 100

    /// The fields as stored, and the blob-store names of every file they refer to.
    func resolve(_ fields: [String: FieldValue?]) async throws -> (fields: [String: FieldValue?], checksums: Set<String>) {
        var resolved = fields
        var checksums = Set<String>()
        for (name, value) in fields {
            guard let value, !value.assets.isEmpty else { continue }
            // `mappingAssets` visits the assets in the order `assets` lists them.
            var stored = try await value.assets.asyncMap { try await self.stored($0, field: name) }.makeIterator()
            resolved[name] = value.mappingAssets { _ in
                let asset = stored.next()!
                checksums.insert(asset.fileChecksum ?? "")
                return asset
            }
        }
        return (resolved, checksums)
    }

    /// The asset as stored: its `fileChecksum` is the file's name in the blob store (the checksum,
    /// and a sealed file's key tag: ``SealedAssetFile``), which answers turn back into the checksum.
    private func stored(_ asset: Asset, field: String) async throws -> Asset {
        let name: String
        let size: Int64
        if let receipt = asset.receipt {
            guard let upload = try await transaction.assetUpload(receiptHash: SecretGenerator.digest(receipt)),
                  upload.databaseID == zone.databaseID, upload.uploadedBy == user else {
                throw CloudKitError.badRequest("field '\(field)': the asset receipt is unknown, expired or not yours; upload the file again")
            }
            (name, size) = (upload.checksum, upload.size)
        } else if let claimed = asset.fileChecksum, let known = try await readableReference(to: claimed) {
            (name, size) = known
        } else {
            throw CloudKitError.badRequest("field '\(field)': a new asset needs the receipt its upload returned (see assets/upload)")
        }
        let checksum = SealedAssetFile.checksum(ofBlob: name)
        if let claimed = asset.fileChecksum, claimed != checksum {
            throw CloudKitError.badRequest("field '\(field)': fileChecksum \(claimed) does not match the uploaded file's \(checksum)")
        }
        if let claimed = asset.size, claimed != size {
            throw CloudKitError.badRequest("field '\(field)': size \(claimed) does not match the uploaded file's \(size) bytes")
        }
        return Asset(fileChecksum: name, size: size, referenceChecksum: asset.referenceChecksum, wrappingKey: asset.wrappingKey)
    }

    /// The name and size of the file with this checksum if the record being saved or a record of
    /// the zone the caller may read holds it.
    private func readableReference(to checksum: String) async throws -> (name: String, size: Int64)? {
        guard let references = try await transaction.assetReferences(zoneRowID: zone.rowID, fileChecksum: checksum, limit: Self.referencesTried) else {
            return nil
        }
        let found = (references.name, references.size)
        if references.recordNames.contains(recordName) { return found }
        for name in references.recordNames where try await mayRead(name) { return found }
        if references.recordNames.count == Self.referencesTried,
           try await transaction.recordReferencesAsset(zoneRowID: zone.rowID, recordName: recordName, checksum: references.name) {
            return found
        }
        return nil
    }
}
