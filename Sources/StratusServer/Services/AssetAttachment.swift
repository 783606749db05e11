import StratusCore

/// Checks the assets of a record being saved and turns them into what is stored: the file's
/// checksum and size (and any client-side encryption keys), never a receipt or a download URL.
///
/// A new file must come with the receipt its upload returned, uploaded by the same user into the
/// same database. A file a record of the zone already holds may be sent back as it was fetched
/// (`fileChecksum` without a receipt), as clients do when they save a fetched record again.
struct AssetAttachment {
    let transaction: any StorageTransaction
    let zone: StoredZone
    let user: String

    /// The fields as stored, and the checksums of every file they refer to.
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

    private func stored(_ asset: Asset, field: String) async throws -> Asset {
        let checksum: String
        let size: Int64
        if let receipt = asset.receipt {
            guard let upload = try await transaction.assetUpload(receiptHash: SecretGenerator.digest(receipt)),
                  upload.databaseID == zone.databaseID, upload.uploadedBy == user else {
                throw CloudKitError.badRequest("field '\(field)': the asset receipt is unknown, expired or not yours; upload the file again")
            }
            (checksum, size) = (upload.checksum, upload.size)
        } else if let claimed = asset.fileChecksum, let known = try await transaction.referencedAssetSize(zoneRowID: zone.rowID, checksum: claimed) {
            (checksum, size) = (claimed, known)
        } else {
            throw CloudKitError.badRequest("field '\(field)': a new asset needs the receipt its upload returned (see assets/upload)")
        }
        if let claimed = asset.fileChecksum, claimed != checksum {
            throw CloudKitError.badRequest("field '\(field)': fileChecksum \(claimed) does not match the uploaded file's \(checksum)")
        }
        if let claimed = asset.size, claimed != size {
            throw CloudKitError.badRequest("field '\(field)': size \(claimed) does not match the uploaded file's \(size) bytes")
        }
        return Asset(fileChecksum: checksum, size: size, referenceChecksum: asset.referenceChecksum, wrappingKey: asset.wrappingKey)
    }
}
