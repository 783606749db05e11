import Foundation

/// What a share grants: CloudKit's `NONE`, `READ_ONLY`, `READ_WRITE`.
public enum SharePermission: String, Codable, Sendable, CaseIterable {
    case none = "NONE"
    case readOnly = "READ_ONLY"
    case readWrite = "READ_WRITE"
    case unknown = "UNKNOWN"

    /// Whether this permission lets its holder write.
    public var canWrite: Bool { self == .readWrite }
    /// Whether this permission lets its holder read.
    public var canRead: Bool { self == .readOnly || self == .readWrite }
}

/// A participant's role: the owner, a named user the owner invited, or a user who joined
/// through a public link.
public enum ParticipantType: String, Codable, Sendable {
    case owner = "OWNER"
    case administrator = "ADMINISTRATOR"
    case user = "USER"
    case publicUser = "PUBLIC_USER"
    case unknown = "UNKNOWN"

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        // CloudKit JS spells a named user PRIVATE_USER; WS examples send USER.
        self = text == "PRIVATE_USER" ? .user : ParticipantType(rawValue: text) ?? .unknown
    }
}

/// Where a participant stands: invited (pending), accepted, or removed.
public enum AcceptanceStatus: String, Codable, Sendable {
    case invited = "INVITED"
    case accepted = "ACCEPTED"
    case removed = "REMOVED"
    case unknown = "UNKNOWN"
}

/// How a user is looked up (CloudKit's Lookup Info Dictionary). `username` is a Stratus extension:
/// Stratus accounts have usernames.
public struct LookupInfo: Codable, Sendable, Hashable {
    public var emailAddress: String?
    public var phoneNumber: String?
    public var userRecordName: String?
    public var username: String?

    public init(emailAddress: String? = nil, phoneNumber: String? = nil, userRecordName: String? = nil, username: String? = nil) {
        self.emailAddress = emailAddress
        self.phoneNumber = phoneNumber
        self.userRecordName = userRecordName
        self.username = username
    }
}

/// A user as sharing shows them (CloudKit's User Identity Dictionary).
public struct UserIdentity: Codable, Sendable, Hashable {
    public struct NameComponents: Codable, Sendable, Hashable {
        public var givenName: String?
        public var familyName: String?
        public var nickname: String?

        public init(givenName: String? = nil, familyName: String? = nil, nickname: String? = nil) {
            self.givenName = givenName
            self.familyName = familyName
            self.nickname = nickname
        }
    }

    public var userRecordName: String?
    public var lookupInfo: LookupInfo?
    public var nameComponents: NameComponents?

    public init(userRecordName: String? = nil, lookupInfo: LookupInfo? = nil, nameComponents: NameComponents? = nil) {
        self.userRecordName = userRecordName
        self.lookupInfo = lookupInfo
        self.nameComponents = nameComponents
    }
}

/// One participant of a share (CloudKit's Share Participant Dictionary).
public struct ShareParticipant: Codable, Sendable, Hashable {
    public var participantId: String?
    public var userIdentity: UserIdentity?
    public var permission: SharePermission?
    public var type: ParticipantType?
    public var acceptanceStatus: AcceptanceStatus?

    public init(participantId: String? = nil, userIdentity: UserIdentity? = nil, permission: SharePermission? = nil,
                type: ParticipantType? = nil, acceptanceStatus: AcceptanceStatus? = nil) {
        self.participantId = participantId
        self.userIdentity = userIdentity
        self.permission = permission
        self.type = type
        self.acceptanceStatus = acceptanceStatus
    }
}

/// The keys a `cloudkit.share` record carries besides its fields (CloudKit's share-only Record
/// Dictionary keys), on input and on output.
public struct ShareKeys: Codable, Sendable, Hashable {
    /// Input: the root record being shared (`{recordName, recordChangeTag}`).
    public var forRecord: RecordPointer?
    public var publicPermission: SharePermission?
    public var participants: [ShareParticipant]?
    public var owner: ShareParticipant?
    public var currentUserParticipant: ShareParticipant?
    /// The share's short GUID: the last part of its URL, what `records/resolve` and `records/accept` take.
    public var shortGUID: String?
    /// *Extension*: the share's URL.
    public var shareURL: String?

    public init(forRecord: RecordPointer? = nil, publicPermission: SharePermission? = nil, participants: [ShareParticipant]? = nil,
                owner: ShareParticipant? = nil, currentUserParticipant: ShareParticipant? = nil, shortGUID: String? = nil, shareURL: String? = nil) {
        self.forRecord = forRecord
        self.publicPermission = publicPermission
        self.participants = participants
        self.owner = owner
        self.currentUserParticipant = currentUserParticipant
        self.shortGUID = shortGUID
        self.shareURL = shareURL
    }

    /// The record type of shares; `cloudKit.share` is accepted on input too.
    public static let recordType = "cloudkit.share"
    /// The record name of a zone-wide share.
    public static let zoneShareName = "cloudkit.zoneshare"
    /// The share record's field holding its title (`CKShare.SystemFieldKey.title`).
    public static let titleField = "cloudkit.title"

    /// The record type's spellings a request may use.
    package static let recordTypeSpellings = [recordType, "cloudKit.share"]

    /// Whether a record type names a share.
    public static func isShareType(_ type: String?) -> Bool {
        type.map(recordTypeSpellings.contains) ?? false
    }

    static let keys = ["forRecord", "publicPermission", "participants", "owner", "currentUserParticipant", "shortGUID", "shareURL"]

    /// The share keys among a record dictionary's members, or nil if it has none.
    static func read(_ object: JSONObject) throws(CloudKitError) -> ShareKeys? {
        let members = object.members.filter { keys.contains($0.key) }
        guard !members.isEmpty else { return nil }
        do {
            return try JSONDecoder().decode(ShareKeys.self, from: JSONEncoder().encode(JSONValue.object(JSONObject(members))))
        } catch {
            throw .badRequest("invalid share keys: \(error)")
        }
    }
}
