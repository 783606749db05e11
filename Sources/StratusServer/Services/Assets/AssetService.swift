import Foundation
import NIOCore
import StratusCore

/// Assets with CloudKit Web Services' flow: `assets/upload` hands out signed upload URLs; a POST
/// of the bytes to one returns the asset dictionary (with a receipt) that a record's field then
/// carries; fetched records carry signed download URLs (see ``AssetLinks``).
///
/// Files are kept once per checksum in the ``BlobStore``. An upload no record took up is collected
/// after a grace period, and a file is removed once no record and no pending upload refers to it.
/// With ``sealsFiles`` (`--encrypt-assets`), files of private and shared databases are sealed
/// under the zone owner's data key as they arrive (``SealedAssetFile``), kept once per checksum
/// and key, and opened as they are downloaded; the public database's stay plain, as its fields do.
package struct AssetService: Sendable {
    let storage: any StratusStorage
    let directory: DatabaseDirectory
    let auth: AuthService
    let blobs: any BlobStore
    /// Where uploads arrive on this instance's disk before they go into ``blobs``.
    let incoming: IncomingFiles
    let signer: AssetURLSigner
    let maxAssetBytes: Int64
    let maxTokens: Int
    let uploadGracePeriod: Duration
    let keys: KeyVault
    /// Whether files of private and shared databases are sealed at rest.
    let sealsFiles: Bool
    let clock: ServerClock

    /// `assets/upload`: one signed upload URL per requested record field.
    package func uploadURLs(_ request: AssetUploadRequest, _ access: DatabaseAccess) async throws -> AssetUploadResponse {
        let user = try access.requireUser()
        guard request.tokens.count <= maxTokens else {
            throw CloudKitError.limitExceeded("at most \(maxTokens) tokens per assets/upload request")
        }
        for token in request.tokens {
            try NameRules.validateFieldName(token.fieldName)
            if let recordName = token.recordName { try NameRules.validateRecordName(recordName) }
        }
        let databaseID = try await directory.databaseID(for: access)
        let zone = try await storage.read { transaction in
            let grant = try await DatabaseDirectory.grant(request.zoneID, databaseID: databaseID, access: access, in: transaction)
            // A participant uploads into a zone shared with them only with write permission in it
            // (saving the record checks the permission for that record).
            if let sharing = grant.sharing, !sharing.shares.contains(where: { sharing.permission(in: $0).canWrite }) {
                throw CloudKitError.accessDenied("your permission on this share is read-only")
            }
            return grant.zone
        }
        let expires = signer.newGrantExpiry
        return AssetUploadResponse(tokens: try request.tokens.map { token in
            let recordName = token.recordName ?? SecretGenerator.uuid()
            let grant = AssetGrant(kind: .upload, containerID: access.containerID, environment: access.environment, user: user,
                                   expires: expires, databaseID: zone.databaseID, zoneName: zone.zoneName,
                                   recordName: recordName, fieldName: token.fieldName)
            return .init(recordName: recordName, fieldName: token.fieldName,
                         url: access.origin + AssetRoutes.uploadPath + (try signer.token(for: grant)))
        })
    }

    /// The bytes sent to an upload URL: checked against the URL's grant, the size limit and the
    /// checksum the client declared (if any), stored, and answered with the asset dictionary.
    /// On any failure nothing is kept.
    package func receive<Body: AsyncSequence>(
        uploadToken: String, body: Body, declaredSize: Int64?, declaredChecksum: String?
    ) async throws -> AssetUploadReceipt where Body.Element == ByteBuffer {
        let grant = try signer.grant(from: uploadToken, kind: .upload)
        guard let databaseID = grant.databaseID, let zoneName = grant.zoneName, let fieldName = grant.fieldName,
              let user = grant.user else {
            throw CloudKitError.accessDenied("this asset upload URL is not valid")
        }
        if let declaredSize, declaredSize > maxAssetBytes { throw IncomingFiles.tooLarge(maxAssetBytes) }
        let file = try await incoming.receive(body, limit: maxAssetBytes, sealingWith: try await sealer(forDatabase: databaseID))
        let receipt = SecretGenerator.receipt()
        let upload = StoredAssetUpload(
            receiptHash: SecretGenerator.digest(receipt), databaseID: databaseID, zoneName: zoneName, recordName: grant.recordName,
            fieldName: fieldName, uploadedBy: user, checksum: file.name, size: file.size, uploadedAt: clock.milliseconds)
        var stored = false
        defer { if !stored { try? FileManager.default.removeItem(atPath: file.temporaryPath) } }
        if let declaredChecksum, declaredChecksum != file.checksum {
            throw CloudKitError.badRequest("checksum mismatch: the received file's SHA-256 is \(file.checksum), not \(declaredChecksum)")
        }
        let blobs = self.blobs
        stored = try await storage.write { transaction in
            try await transaction.insertAssetUpload(upload)
            return try await blobs.store(file, in: transaction)
        }
        return AssetUploadReceipt(singleFile: Asset(fileChecksum: file.checksum, size: file.size, receipt: receipt))
    }

    /// The data key files uploaded into a database are sealed with: its owner's, with
    /// ``sealsFiles``, unless it is a public database.
    private func sealer(forDatabase databaseID: Int64) async throws -> Sealer? {
        guard sealsFiles else { return nil }
        guard let key = try await storage.read({ try await $0.databaseKey(id: databaseID) }) else {
            throw CloudKitError.accessDenied("this asset upload URL is not valid")
        }
        return key.scope == .public ? nil : try await keys.sealer(for: .user(key.ownerRecordName))
    }

    /// `assets/rereference`: the asset of each named record field with a fresh receipt, so the same
    /// file can go into another record without being uploaded again. Only a caller who may read
    /// the record gets one (in the public database, by its security roles).
    package func rereference(_ request: AssetRereferenceRequest, _ access: DatabaseAccess) async throws -> AssetRereferenceResponse {
        let user = try access.requireUser()
        guard access.scope != .shared else { throw CloudKitError.zoneNotFound((request.zoneID ?? .default).zoneName) }
        guard request.assets.count <= maxTokens else {
            throw CloudKitError.limitExceeded("at most \(maxTokens) assets per assets/rereference request")
        }
        let databaseID = try await directory.databaseID(for: access)
        let now = clock.milliseconds
        return try await storage.write { transaction in
            let zone = try await DatabaseDirectory.zone(request.zoneID, databaseID: databaseID, access: access, in: transaction)
            var roles = access.scope == .public ? PublicPermissions(access, in: transaction) : nil
            return AssetRereferenceResponse(assets: try await request.assets.asyncMap { item in
                guard let stored = try await transaction.record(zoneRowID: zone.rowID, recordName: item.recordName), !stored.deleted else {
                    throw CloudKitError.notFound("record '\(item.recordName)' does not exist")
                }
                try await roles?.require(.read, on: stored.recordType, createdBy: stored.created.userRecordName, recordName: item.recordName)
                guard case .asset(let asset)? = try RecordMapper.decodeFields(stored.fieldsJSON)[item.fieldName],
                      let checksum = asset.fileChecksum, let size = asset.size else {
                    throw CloudKitError.badRequest("field '\(item.fieldName)' of record '\(item.recordName)' is not an ASSET")
                }
                let receipt = SecretGenerator.receipt()
                try await transaction.insertAssetUpload(StoredAssetUpload(
                    receiptHash: SecretGenerator.digest(receipt), databaseID: databaseID, zoneName: zone.zoneName,
                    recordName: item.recordName, fieldName: item.fieldName, uploadedBy: user, checksum: checksum, size: size, uploadedAt: now))
                return Asset(fileChecksum: SealedAssetFile.checksum(ofBlob: checksum), size: size, receipt: receipt)
            })
        }
    }

    /// The file a download URL names, to read with ``read(_:range:_:)``, once the URL's grant and
    /// the caller are checked: the user the URL was issued to must still be able to read the
    /// record (the owner; a participant of a share covering it; in the public database, by its
    /// security roles), checked in the store on every request, so access taken away ends the URLs
    /// already handed out on every instance. With ``AssetURLSigner/bindsDownloadsToUser``, a
    /// private database's URL also needs that user's `ckWebAuthToken`. The record must still hold
    /// the file, or a version of it that history keeps and shows the user (``HistoryService``:
    /// who may write the record); a sealed file needs its owner's key as it was when the file was sealed
    /// (``SealedFields/keyReset`` after a reset).
    package func download(token: String, webAuthToken: String?) async throws -> AssetDownload {
        let grant = try signer.grant(from: token, kind: .download)
        guard let name = grant.checksum, let zoneRowID = grant.zoneRowID else { throw CloudKitError.accessDenied("this download URL is not valid") }
        let key = try await storage.read { transaction in
            guard let zone = try await transaction.zone(rowID: zoneRowID), !zone.deleted,
                  let key = try await transaction.databaseKey(id: zone.databaseID),
                  key.containerID == grant.containerID, key.environment == grant.environment,
                  let record = try await transaction.record(zoneRowID: zoneRowID, recordName: grant.recordName) else {
                throw CloudKitError.notFound("the asset no longer exists")
            }
            if !record.deleted, try await transaction.recordReferencesAsset(zoneRowID: zoneRowID, recordName: grant.recordName, checksum: name) {
                try await Self.requireReader(grant.user, of: record, in: zone, key, transaction)
            } else if let position = try await transaction.versionPosition(zoneRowID: zoneRowID, recordName: grant.recordName, referringTo: name) {
                try await Self.requireHistoryReader(grant.user, position: position, of: record, in: zone, key, transaction)
            } else {
                throw CloudKitError.notFound("the asset no longer exists")
            }
            return key
        }
        if signer.bindsDownloadsToUser, key.scope != .public {
            guard let webAuthToken else { throw AuthService.authenticationRequired }
            let caller = try await auth.user(webAuthToken: webAuthToken, containerID: grant.containerID, environment: grant.environment)
            guard caller == grant.user else { throw CloudKitError.accessDenied("this download URL was issued to another user") }
        }
        guard let stored = try await blobs.size(checksum: name) else { throw CloudKitError.notFound("the asset no longer exists") }
        guard let tag = SealedAssetFile.keyTag(ofBlob: name) else { return AssetDownload(name: name, size: stored, storedSize: stored, opener: nil) }
        guard let opener = try? await keys.opener(for: .user(key.ownerRecordName)), opener.assetFileTag == tag,
              let size = SealedAssetFile.plaintextSize(ofStored: stored) else { throw SealedFields.keyReset }
        return AssetDownload(name: name, size: size, storedSize: stored, opener: opener)
    }

    /// Hands the bytes of a file ``download(token:webAuthToken:)`` found to `consume` — `range` of
    /// them, when given one within the file — in pieces, in order (a sealed file opened as it is
    /// read).
    package func read(_ download: AssetDownload, range: ClosedRange<Int64>?, _ consume: (ByteBuffer) async throws -> Void) async throws {
        let found = if let opener = download.opener {
            try await SealedAssetFile.read(download.name, storedSize: download.storedSize, range: range, from: blobs, opener: opener, consume)
        } else {
            try await blobs.read(checksum: download.name, bytes: range, consume)
        }
        guard found else { throw CloudKitError.notFound("the asset no longer exists") }
    }

    /// Throws `ACCESS_DENIED` unless `user` (whom a download URL was issued to) may read `record`
    /// now.
    private static func requireReader(_ user: String?, of record: StoredRecord, in zone: StoredZone, _ key: DatabaseKey,
                                      _ transaction: any StorageTransaction) async throws {
        if key.scope == .public {
            var roles = PublicPermissions(containerID: key.containerID, environment: key.environment, user: user, in: transaction)
            return try await roles.require(.read, on: record.recordType, createdBy: record.created.userRecordName, recordName: record.recordName)
        }
        guard let user else { throw CloudKitError.accessDenied("this download URL names no user") }
        if user == key.ownerRecordName { return }
        guard let grant = try await DatabaseDirectory.sharedGrant(zone, owner: key.ownerRecordName, user: user, in: transaction),
              try await grant.permission(forRecord: record.recordName, in: transaction) != .none else {
            throw CloudKitError.accessDenied("the record is no longer shared with the user this download URL was issued to")
        }
    }

    /// Throws `ACCESS_DENIED` unless `user` may see the record's kept version at `position`, which
    /// refers to the file: as ``HistoryService`` lets them see it.
    private static func requireHistoryReader(_ user: String?, position: Int64, of record: StoredRecord, in zone: StoredZone,
                                             _ key: DatabaseKey, _ transaction: any StorageTransaction) async throws {
        let denied = CloudKitError.accessDenied("the user this download URL was issued to may not see this version")
        var writers: HistoryWriters
        if key.scope == .public {
            let roles = PublicPermissions(containerID: key.containerID, environment: key.environment, user: user, in: transaction)
            writers = HistoryWriters(grant: ZoneGrant(zone: zone, owner: "", sharing: nil), roles: roles, in: transaction)
        } else {
            guard let user else { throw CloudKitError.accessDenied("this download URL names no user") }
            let grant = user == key.ownerRecordName ? ZoneGrant(zone: zone, owner: user, sharing: nil)
                : try await DatabaseDirectory.sharedGrant(zone, owner: key.ownerRecordName, user: user, in: transaction)
            guard let grant else { throw denied }
            writers = HistoryWriters(grant: grant, roles: nil, in: transaction)
        }
        guard writers.sees(position: position), try await writers.mayWrite(record) else { throw denied }
    }

    /// Removes uploads older than the grace period, then every file nothing refers to any more,
    /// and files of uploads that never finished. Returns how many uploads and files went. While a
    /// backup holds collection off (``Backup``), it removes nothing.
    ///
    /// A file goes only after its rows are gone for good: the rows are deleted and committed
    /// first; then, in a second write (serialized with uploads, which may have brought the same
    /// bytes back meanwhile), each file whose row is still absent is removed. A failure between
    /// the two leaves a file nothing refers to, never a row without its file.
    package func collectGarbage() async throws -> (uploads: Int, files: Int) {
        let now = clock.milliseconds
        let cutoff = now - uploadGracePeriod.milliseconds
        let blobs = self.blobs
        let (uploads, orphans) = try await storage.write { transaction in
            if try await transaction.isAssetCollectionHeld(at: now) { return (0, [String]()) }
            return try await (transaction.deleteAssetUploads(before: cutoff), transaction.deleteUnreferencedAssetBlobs())
        }
        let removed = try await storage.write { transaction in
            var removed = 0
            for checksum in orphans where try await !transaction.assetBlobExists(checksum: checksum) {
                try await blobs.remove(checksum: checksum, in: transaction)
                removed += 1
            }
            return removed
        }
        let result = (uploads, removed)
        // Uploads a crash cut off are left half-written; none takes this long.
        incoming.remove(olderThan: .seconds(3600), now: clock.date)
        return result
    }
}

/// A file a download URL names, found and checked (``AssetService/download(token:webAuthToken:)``).
package struct AssetDownload: Sendable {
    /// Its name in the ``BlobStore``.
    let name: String
    /// Its size as downloaded.
    package let size: Int64
    /// Its size in the store (larger when sealed).
    let storedSize: Int64
    /// The key that opens it, for a sealed file.
    let opener: Sealer?
}
