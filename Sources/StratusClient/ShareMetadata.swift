import Foundation
import StratusCore

/// What a share URL leads to, as the signed-in user sees it (CloudKit's `CKShare.Metadata`): the
/// share, its root record when it shares one, the owner, and the caller's place in it.
public struct ShareMetadata: Sendable, Equatable {
    /// The container of the share.
    public var containerIdentifier: String
    /// The zone the share opens, as its owner names it.
    public var zoneID: ZoneID
    /// The share record (its participants and permissions are in ``CloudRecord/shareKeys``).
    public var share: CloudRecord
    /// The shared record hierarchy's root; nil for a zone-wide share.
    public var rootRecord: CloudRecord?
    /// The root record's ID; nil for a zone-wide share.
    public var rootRecordID: RecordID?
    /// The user who owns the shared records.
    public var ownerIdentity: UserIdentity
    /// What the caller may do once accepted.
    public var participantPermission: SharePermission
    /// Whether the caller has accepted the share yet.
    public var participantStatus: AcceptanceStatus
    /// The caller's role: owner, a named participant, or anyone with the link.
    public var participantRole: ParticipantType
    /// The scope the shared records are in for the caller: private for the owner, shared for
    /// everyone else.
    public var databaseScope: DatabaseScope
}

extension ShareMetadata {
    /// The metadata a `records/resolve` or `records/accept` answer describes.
    init(wire metadata: StratusCore.ShareMetadata) throws(CloudError) {
        containerIdentifier = metadata.containerIdentifier
        zoneID = metadata.zoneID
        share = try CloudRecord(wire: metadata.share, zoneID: metadata.zoneID)
        rootRecord = try metadata.rootRecord.map { record throws(CloudError) in try CloudRecord(wire: record, zoneID: metadata.zoneID) }
        rootRecordID = metadata.rootRecordName.map { RecordID(recordName: $0, zoneID: metadata.zoneID) }
        ownerIdentity = metadata.ownerIdentity
        participantPermission = metadata.participantPermission
        participantStatus = metadata.participantStatus
        participantRole = metadata.participantType
        databaseScope = metadata.databaseScope == "PRIVATE" ? .private : .shared
    }
}
