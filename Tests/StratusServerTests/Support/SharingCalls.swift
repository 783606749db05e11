import Foundation
import StratusCore

extension Caller {
    /// The zone ID a request names: the caller's own zone, or `owner`'s zone in the shared database.
    func zoneID(_ zone: String, owner: String?) -> ZoneID { ZoneID(zoneName: zone, ownerRecordName: owner) }

    /// `records/modify` in a zone of the private database, or of `owner`'s in the shared database.
    func modify(_ operations: [RecordOperation], zone: String, owner: String?, atomic: Bool? = false) async throws -> [RecordResult] {
        let request = RecordsModifyRequest(operations: operations, zoneID: zoneID(zone, owner: owner), atomic: atomic)
        let response = try await post(path(owner == nil ? .private : .shared, "records/modify"), request)
        if let error = response.error { return operations.map { _ in .failure(RecordError(recordName: nil, error: CloudKitError(error.serverErrorCode, error.reason))) } }
        return try response.decode(RecordsResponse.self).records
    }

    /// `records/lookup` in a zone of the private database, or of `owner`'s in the shared database.
    func lookup(_ names: [String], zone: String, owner: String?) async throws -> [RecordResult] {
        let request = RecordsLookupRequest(records: names.map { .init(recordName: $0) }, zoneID: zoneID(zone, owner: owner))
        let response = try await post(path(owner == nil ? .private : .shared, "records/lookup"), request)
        if let error = response.error { return names.map { _ in .failure(RecordError(recordName: nil, error: CloudKitError(error.serverErrorCode, error.reason))) } }
        return try response.decode(RecordsResponse.self).records
    }

    /// Creates a share of `root` (nil: the whole zone) with participants by username.
    func share(_ root: String?, zone: String, name: String = "share", participants: [(String, SharePermission)],
               publicPermission: SharePermission = .none) async throws -> Record {
        let recordName = root == nil ? ShareKeys.zoneShareName : name
        var share = Record(recordName: recordName, recordType: ShareKeys.recordType, fields: ["cloudkit.title": .string("A list")])
        share.shareKeys = ShareKeys(forRecord: root.map(RecordPointer.init), publicPermission: publicPermission,
                                    participants: participants.map { username, permission in
                                        ShareParticipant(userIdentity: UserIdentity(lookupInfo: LookupInfo(username: username)),
                                                         permission: permission, type: .user)
                                    })
        let results = try await modify([RecordOperation(.create, share)], zone: zone, owner: nil)
        guard let record = results.first?.record else { throw TestFailure("share not created: \(String(describing: results.first?.error))") }
        return record
    }

    /// `records/resolve` or `records/accept` of one short GUID.
    func shareMetadata(_ shortGUID: String, accept: Bool = false) async throws -> ShareMetadataResult {
        let request = ShortGUIDsRequest(shortGUIDs: [.init(value: shortGUID, shouldFetchRootRecord: true)])
        let results = try await post(path(.public, accept ? "records/accept" : "records/resolve"), request).decode(ShareMetadataResponse.self).results
        guard let first = results.first else { throw TestFailure("no result") }
        return first
    }
}
