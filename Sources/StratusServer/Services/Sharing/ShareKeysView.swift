import StratusCore

/// The share keys a `cloudkit.share` record is answered with: the owner, the participants, the
/// caller's own participation, the public permission, the short GUID and the URL.
enum ShareKeysView {
    static func keys(for share: StoredShare, owner: String, caller: String?, origin: String,
                     in transaction: any StorageTransaction) async throws -> ShareKeys {
        let ownerParticipant = try await ShareParticipant(participantId: owner, userIdentity: identity(owner, in: transaction),
                                                permission: .readWrite, type: .owner, acceptanceStatus: .accepted)
        var participants = [ownerParticipant]
        for participant in share.participants {
            await participants.append(ShareParticipant(participantId: participant.userRecordName,
                                                 userIdentity: try identity(participant.userRecordName, in: transaction),
                                                 permission: participant.permission, type: participant.type,
                                                 acceptanceStatus: participant.status))
        }
        return ShareKeys(publicPermission: share.publicPermission, participants: participants, owner: ownerParticipant,
                         currentUserParticipant: participants.first { $0.participantId == caller },
                         shortGUID: share.shortGUID, shareURL: url(share.shortGUID, origin: origin))
    }

    /// A share's URL: where a user who got it goes to resolve and accept it.
    static func url(_ shortGUID: String, origin: String) -> String { origin + "/share/" + shortGUID }

    /// A user as sharing shows them: record name and username.
    static func identity(_ user: String, in transaction: any StorageTransaction) async throws -> UserIdentity {
        let username = try await transaction.user(recordName: user)?.username
        return UserIdentity(userRecordName: user, lookupInfo: LookupInfo(userRecordName: user, username: username),
                            nameComponents: username.map { UserIdentity.NameComponents(nickname: $0) })
    }

    /// The share keys of the share records among `records`, by record name.
    static func keys(forShareRecords records: some RandomAccessCollection<StoredRecord>, zoneRowID: Int64, owner: String, caller: String?,
                     origin: String, in transaction: any StorageTransaction) async throws -> [String: ShareKeys] {
        var keys: [String: ShareKeys] = [:]
        // By index: a page's rows are looked at where they are, not copied one by one.
        for index in records.indices where !records[index].deleted && ShareKeys.isShareType(records[index].recordType) {
            let recordName = records[index].recordName
            if let share = try await transaction.share(zoneRowID: zoneRowID, recordName: recordName) {
                keys[recordName] = try await Self.keys(for: share, owner: owner, caller: caller, origin: origin, in: transaction)
            }
        }
        return keys
    }
}
