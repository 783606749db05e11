/// The body of `records/resolve` and `records/accept`: the short GUIDs of share URLs.
public struct ShortGUIDsRequest: Codable, Sendable, Equatable {
    public struct Item: Codable, Sendable, Equatable {
        public var value: String
        public var shouldFetchRootRecord: Bool?
        public var rootRecordDesiredKeys: [String]?

        public init(value: String, shouldFetchRootRecord: Bool? = nil, rootRecordDesiredKeys: [String]? = nil) {
            self.value = value
            self.shouldFetchRootRecord = shouldFetchRootRecord
            self.rootRecordDesiredKeys = rootRecordDesiredKeys
        }
    }

    public var shortGUIDs: [Item]

    public init(shortGUIDs: [Item]) { self.shortGUIDs = shortGUIDs }
}

/// What a share URL leads to, as the caller sees it (CloudKit's ShortGUID Result Dictionary).
public struct ShareMetadata: Codable, Sendable, Equatable {
    public var containerIdentifier: String
    public var environment: String
    /// `PRIVATE` for the owner, `SHARED` for everyone else.
    public var databaseScope: String
    public var zoneID: ZoneID
    public var rootRecordName: String?
    public var rootRecord: Record?
    public var share: Record
    public var shortGUID: String
    public var ownerIdentity: UserIdentity
    public var participantPermission: SharePermission
    public var participantStatus: AcceptanceStatus
    public var participantType: ParticipantType

    public init(containerIdentifier: String, environment: String, databaseScope: String, zoneID: ZoneID, rootRecordName: String?,
                rootRecord: Record?, share: Record, shortGUID: String, ownerIdentity: UserIdentity,
                participantPermission: SharePermission, participantStatus: AcceptanceStatus, participantType: ParticipantType) {
        self.containerIdentifier = containerIdentifier
        self.environment = environment
        self.databaseScope = databaseScope
        self.zoneID = zoneID
        self.rootRecordName = rootRecordName
        self.rootRecord = rootRecord
        self.share = share
        self.shortGUID = shortGUID
        self.ownerIdentity = ownerIdentity
        self.participantPermission = participantPermission
        self.participantStatus = participantStatus
        self.participantType = participantType
    }
}

/// A short GUID that could not be resolved or accepted.
public struct ShareMetadataError: Error, Codable, Sendable, Equatable {
    public var shortGUID: String?
    public var reason: String
    public var serverErrorCode: ServerErrorCode
    public var uuid: String?

    public init(shortGUID: String?, error: CloudKitError, uuid: String? = nil) {
        self.shortGUID = shortGUID
        reason = error.reason
        serverErrorCode = error.code
        self.uuid = uuid
    }
}

public typealias ShareMetadataResult = ItemResult<ShareMetadata, ShareMetadataError>

/// The response of `records/resolve` and `records/accept`.
public struct ShareMetadataResponse: Codable, Sendable, Equatable {
    public var results: [ShareMetadataResult]

    public init(results: [ShareMetadataResult]) { self.results = results }
}
