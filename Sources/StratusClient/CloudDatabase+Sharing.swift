import Foundation
import StratusCore

/// Where a record stands in sharing, from the caller's side.
public struct SharingStatus: Sendable, Hashable {
    /// The record is covered by a share (its own, an ancestor's, or its zone's).
    public var isShared: Bool
    /// The caller owns the record's zone.
    public var isOwner: Bool
    /// The caller may change the record.
    public var canEdit: Bool

    /// A status from its parts.
    public init(isShared: Bool, isOwner: Bool, canEdit: Bool) {
        self.isShared = isShared
        self.isOwner = isOwner
        self.canEdit = canEdit
    }
}

extension CloudDatabase {
    /// Shares a root record and its descendants (records whose `parent` leads to it) with named
    /// users, by username or email. Returns the saved share, whose ``CloudRecord/shareKeys`` hold
    /// the URL and the participants. Only in a custom zone of the private database.
    public func share(_ root: RecordID, title: String? = nil, participants: [(username: String, permission: SharePermission)] = [],
                      publicPermission: SharePermission = .none, shareName: String = "share-\(UUID().uuidString)") async throws -> CloudRecord {
        try await saveShare(RecordID(recordName: shareName, zoneID: root.zoneID), root: root.recordName, title: title,
                            participants: participants, publicPermission: publicPermission)
    }

    /// Shares a whole zone (its share is `cloudkit.zoneshare`).
    public func shareZone(_ zoneID: ZoneID, title: String? = nil, participants: [(username: String, permission: SharePermission)] = [],
                          publicPermission: SharePermission = .none) async throws -> CloudRecord {
        try await saveShare(RecordID(recordName: ShareKeys.zoneShareName, zoneID: zoneID), root: nil, title: title,
                            participants: participants, publicPermission: publicPermission)
    }

    private func saveShare(_ id: RecordID, root: String?, title: String?, participants: [(username: String, permission: SharePermission)],
                           publicPermission: SharePermission) async throws -> CloudRecord {
        var share = CloudRecord(recordType: ShareKeys.recordType, recordID: id)
        if let title { share[ShareKeys.titleField] = .string(title) }
        share.shareKeys = ShareKeys(forRecord: root.map(RecordPointer.init), publicPermission: publicPermission,
                                    participants: participants.map(Self.invitation))
        return try await save(share)
    }

    /// Replaces a share's participants (those left out are removed) and, optionally, its public
    /// permission. Participants already in keep their acceptance.
    public func updateShare(_ share: CloudRecord, participants: [(username: String, permission: SharePermission)]? = nil,
                            publicPermission: SharePermission? = nil) async throws -> CloudRecord {
        var share = share
        let current = share.shareKeys?.participants?.filter { $0.type != .owner && $0.acceptanceStatus != .removed } ?? []
        share.shareKeys = ShareKeys(publicPermission: publicPermission ?? share.shareKeys?.publicPermission,
                                    participants: participants.map { $0.map(Self.invitation) } ?? current)
        return try await save(share)
    }

    /// Stops sharing (owner), or leaves the share (participant, in the shared database).
    public func deleteShare(_ share: RecordID) async throws {
        try await deleteRecord(withID: share)
    }

    /// What a share URL (or its short GUID) leads to, for the signed-in user.
    public func shareMetadata(for url: String) async throws -> ShareMetadata {
        try await shortGUIDs("records/resolve", url)
    }

    /// Accepts a share: its zone appears in the caller's shared database.
    @discardableResult
    public func acceptShare(_ url: String) async throws -> ShareMetadata {
        try await shortGUIDs("records/accept", url)
    }

    private func shortGUIDs(_ endpoint: String, _ url: String) async throws -> ShareMetadata {
        let shortGUID = String(url.split(separator: "/").last ?? Substring(url)).split(separator: "#").first.map(String.init) ?? url
        let request = ShortGUIDsRequest(shortGUIDs: [.init(value: shortGUID, shouldFetchRootRecord: true)])
        let results = try await container.publicCloudDatabase.post(endpoint, request, as: ShareMetadataResponse.self).results
        guard let result = results.first else { throw CloudError(.internalError, "\(endpoint) answered nothing") }
        if let error = result.error { throw CloudError(server: error.serverErrorCode, reason: error.reason, retryAfter: nil) }
        guard let metadata = result.value else { throw CloudError(.internalError, "\(endpoint) answered neither metadata nor an error") }
        return try ShareMetadata(wire: metadata)
    }

    /// Whether a record is shared, whether the caller owns it, and whether they may change it.
    public func sharingStatus(of record: CloudRecord) async throws -> SharingStatus {
        let zoneShare = try await records(for: [RecordID(recordName: ShareKeys.zoneShareName, zoneID: record.recordID.zoneID)])
            .values.first.flatMap { try? $0.get() }
        var share = zoneShare
        var current: CloudRecord? = record
        var visited = Set<String>()
        while share == nil, let node = current, visited.insert(node.recordID.recordName).inserted {
            if let name = node.shareName {
                share = try? await self.record(for: RecordID(recordName: name, zoneID: record.recordID.zoneID))
            } else if let parent = node.systemFields?.parent {
                current = try? await self.record(for: RecordID(recordName: parent, zoneID: record.recordID.zoneID))
            } else {
                current = nil
            }
        }
        if scope != .shared {
            return SharingStatus(isShared: share != nil, isOwner: true, canEdit: true)
        }
        let permission = share?.shareKeys?.currentUserParticipant?.permission ?? .none
        return SharingStatus(isShared: true, isOwner: false, canEdit: permission.canWrite)
    }

    private static func invitation(_ participant: (username: String, permission: SharePermission)) -> ShareParticipant {
        ShareParticipant(userIdentity: UserIdentity(lookupInfo: LookupInfo(username: participant.username)),
                         permission: participant.permission, type: .user)
    }
}
