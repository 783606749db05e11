/// The body of `records/resolve` and `records/accept`: the short GUIDs of share URLs.
package struct ShortGUIDsRequest: Codable, Sendable, Equatable {
    package struct Item: Codable, Sendable, Equatable {
        package var value: String
        package var shouldFetchRootRecord: Bool?
        package var rootRecordDesiredKeys: [String]?

        package init(value: String, shouldFetchRootRecord: Bool? = nil, rootRecordDesiredKeys: [String]? = nil) {
            self.value = value
            self.shouldFetchRootRecord = shouldFetchRootRecord
            self.rootRecordDesiredKeys = rootRecordDesiredKeys
        }
    }

    package var shortGUIDs: [Item]

    package init(shortGUIDs: [Item]) { self.shortGUIDs = shortGUIDs }
}

/// What a share URL leads to, as the caller sees it (CloudKit's ShortGUID Result Dictionary).
package struct ShareMetadata: Codable, Sendable, Equatable {
    package var containerIdentifier: String
    package var environment: String
    /// `PRIVATE` for the owner, `SHARED` for everyone else.
    package var databaseScope: String
    package var zoneID: ZoneID
    package var rootRecordName: String?
    package var rootRecord: Record?
    package var share: Record
    package var shortGUID: String
    package var ownerIdentity: UserIdentity
    package var participantPermission: SharePermission
    package var participantStatus: AcceptanceStatus
    package var participantType: ParticipantType

    package init(containerIdentifier: String, environment: String, databaseScope: String, zoneID: ZoneID, rootRecordName: String?,
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
package struct ShareMetadataError: Error, Codable, Sendable, Equatable {
    package var shortGUID: String?
    package var reason: String
    package var serverErrorCode: ServerErrorCode
    package var uuid: String?

    package init(shortGUID: String?, error: CloudKitError, uuid: String? = nil) {
        self.shortGUID = shortGUID
        reason = error.reason
        serverErrorCode = error.code
        self.uuid = uuid
    }
}

package typealias ShareMetadataResult = ItemResult<ShareMetadata, ShareMetadataError>

/// The response of `records/resolve` and `records/accept`.
package struct ShareMetadataResponse: Codable, Sendable, Equatable {
    package var results: [ShareMetadataResult]

    package init(results: [ShareMetadataResult]) { self.results = results }
}
