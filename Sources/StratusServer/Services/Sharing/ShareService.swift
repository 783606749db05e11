import Foundation
import StratusCore

/// Share URLs: `records/resolve` shows the caller what a short GUID leads to (title, root, owner,
/// their own permission and status); `records/accept` makes the caller a participant, putting the
/// owner's zone in their shared database.
package struct ShareService: Sendable {
    let storage: any StratusStorage
    let hub: NotificationHub
    /// Opens the encrypted fields of a share's root record (``SealedFields``).
    let keys: KeyVault

    package func resolve(_ request: ShortGUIDsRequest, _ access: DatabaseAccess) async throws -> ShareMetadataResponse {
        let user = try access.requireUser()
        let keys = self.keys
        return try await keys.withFieldKeys {
            try await storage.read { transaction in
                ShareMetadataResponse(results: try await request.shortGUIDs.asyncMap { item in
                    try await Self.outcome(item) { try await Self.metadata(item, user: user, access: access, keys: keys, in: transaction) }
                })
            }
        }
    }

    package func accept(_ request: ShortGUIDsRequest, _ access: DatabaseAccess) async throws -> ShareMetadataResponse {
        let user = try access.requireUser()
        let keys = self.keys
        return try await keys.withFieldKeys {
            try await storage.write(publishingTo: hub) { transaction, changes in
                ShareMetadataResponse(results: try await request.shortGUIDs.asyncMap { item in
                    try await Self.outcome(item) {
                        try await transaction.withSavepoint {
                            try await Self.accept(item.value, user: user, access: access, in: transaction, changes: changes)
                            return try await Self.metadata(item, user: user, access: access, keys: keys, in: transaction)
                        }
                    }
                })
            }
        }
    }

    /// What a share URL's landing page shows anyone holding the URL: the share's title and its
    /// owner's username; nil if no live share has the short GUID.
    package func preview(shortGUID: String) async throws -> (title: String?, owner: String)? {
        try await storage.read { transaction in
            guard let (share, zone, key) = try await Self.live(shortGUID, in: transaction),
                  let owner = try await transaction.user(recordName: key.ownerRecordName) else { return nil }
            let record = try await transaction.record(zoneRowID: zone.rowID, recordName: share.recordName)
            let title = try record.map { try RecordMapper.decodeFields($0.fieldsJSON)[ShareKeys.titleField] }
            if case .string(let text)?? = title { return (text, owner.username) }
            return (nil, owner.username)
        }
    }

    private static func outcome(_ item: ShortGUIDsRequest.Item, _ body: () async throws -> ShareMetadata) async throws -> ShareMetadataResult {
        do {
            return .success(try await body())
        } catch let error as CloudKitError {
            return .failure(ShareMetadataError(shortGUID: item.value, error: error, uuid: SecretGenerator.uuid()))
        }
    }

    /// The share a short GUID names, if its zone still lives, with the zone and its database's key.
    private static func live(_ shortGUID: String, in transaction: any StorageTransaction) async throws -> (StoredShare, StoredZone, DatabaseKey)? {
        guard let share = try await transaction.share(shortGUID: shortGUID), let zone = try await transaction.zone(rowID: share.zoneRowID), !zone.deleted,
              let key = try await transaction.databaseKey(id: zone.databaseID) else { return nil }
        return (share, zone, key)
    }

    /// The share a short GUID names in the caller's container and environment, its zone and owner.
    private static func find(_ shortGUID: String, access: DatabaseAccess,
                             in transaction: any StorageTransaction) async throws -> (StoredShare, StoredZone, String) {
        guard let (share, zone, key) = try await live(shortGUID, in: transaction),
              key.containerID == access.containerID, key.environment == access.environment else {
            throw CloudKitError.notFound("no share has the short GUID '\(shortGUID)'")
        }
        return (share, zone, key.ownerRecordName)
    }

    /// The caller's place in a share: the owner, a participant, or someone a public link admits.
    private static func standing(in share: StoredShare, owner: String, user: String) throws -> StoredParticipant {
        if user == owner { return StoredParticipant(userRecordName: user, permission: .readWrite, type: .owner, status: .accepted) }
        if let participant = share.participants.first(where: { $0.userRecordName == user }) { return participant }
        guard share.publicPermission.canRead else { throw CloudKitError.accessDenied("this share is not shared with you") }
        return StoredParticipant(userRecordName: user, permission: share.publicPermission, type: .publicUser, status: .invited)
    }

    private static func metadata(_ item: ShortGUIDsRequest.Item, user: String, access: DatabaseAccess, keys: KeyVault,
                                 in transaction: any StorageTransaction) async throws -> ShareMetadata {
        let (share, zone, owner) = try await find(item.value, access: access, in: transaction)
        let standing = try standing(in: share, owner: owner, user: user)
        // Removed: the share is no longer theirs to see at all, as it changes or otherwise.
        guard standing.status != .removed else { throw CloudKitError.notFound("no share has the short GUID '\(item.value)'") }
        guard let shareRow = try await transaction.record(zoneRowID: zone.rowID, recordName: share.recordName) else {
            throw CloudKitError.notFound("the share record is missing")
        }
        var shareRecord = try RecordMapper.record(from: shareRow, desiredKeys: nil)
        shareRecord.shareKeys = try await ShareKeysView.keys(for: share, owner: owner, caller: user, origin: access.origin, in: transaction)
        var root: Record?
        if item.shouldFetchRootRecord == true, let rootName = share.rootRecordName,
           var stored = try await transaction.record(zoneRowID: zone.rowID, recordName: rootName), !stored.deleted {
            if SealedFields.occur(in: stored.fieldsJSON) {
                // The owner's key is reached outside the transaction: the request runs again with it.
                guard let sealer = keys.cachedSealer(for: .user(owner)) else { throw SealedFields.KeyNeeded(owner: owner) }
                stored.fieldsJSON = try SealedFields.open(stored.fieldsJSON, recordName: stored.recordName, with: sealer)
            }
            var record = try RecordMapper.record(from: stored, desiredKeys: item.rootRecordDesiredKeys)
            record.fields = record.fields.mapValues { $0.map(AssetLinks.showingChecksums) }
            root = record
        }
        return await ShareMetadata(containerIdentifier: access.containerID, environment: access.environment.rawValue,
                             databaseScope: user == owner ? "PRIVATE" : "SHARED",
                             zoneID: ZoneID(zoneName: zone.zoneName, ownerRecordName: owner), rootRecordName: share.rootRecordName,
                             rootRecord: root, share: shareRecord, shortGUID: share.shortGUID,
                             ownerIdentity: try ShareKeysView.identity(owner, in: transaction),
                             participantPermission: standing.permission, participantStatus: standing.status, participantType: standing.type)
    }

    private static func accept(_ shortGUID: String, user: String, access: DatabaseAccess, in transaction: any StorageTransaction,
                               changes: ChangeSet) async throws {
        var (share, zone, owner) = try await find(shortGUID, access: access, in: transaction)
        guard user != owner else { return }
        var standing = try standing(in: share, owner: owner, user: user)
        guard standing.status != .removed else { throw CloudKitError.accessDenied("you were removed from this share") }
        guard standing.status != .accepted else { return }
        standing.status = .accepted
        standing.acceptedSequence = zone.changeSequence
        share.participants.removeAll { $0.userRecordName == user }
        share.participants.append(standing)
        guard share.participants.filter({ $0.status != .removed }).count < 100 else {
            throw CloudKitError.limitExceeded("a share has at most 100 participants")
        }
        try await transaction.saveShare(share)
        let operations = ShareOperations(changes: changes, grant: ZoneGrant(zone: zone, owner: owner, sharing: nil), access: access)
        try await operations.touch(share.recordName)
        try await operations.updateSharedZones(for: [user])
    }
}
