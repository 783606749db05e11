import Foundation
import StratusCore

/// The sharing side of one `records/modify` batch, inside its transaction.
///
/// Before the records are written it checks a participant's permission for each operation (and
/// turns a participant's deletion of the share into leaving it), and turns an owner's share
/// records into plans: the participants resolved to users, the root found, the rules checked.
/// After the writes it stores the shares, points roots at them, and moves zones in and out of
/// participants' shared databases. Each of those changes is reported to the transaction's
/// ``ChangeSet``, so the owner's and the participants' devices hear of it.
final class ShareOperations {
    let transaction: any StorageTransaction
    let grant: ZoneGrant
    let access: DatabaseAccess
    let changes: ChangeSet
    private var plans: [String: Plan] = [:]
    /// Roots pointed at (or away from) their share after the writes, as stored.
    private var repointed: [String: StoredRecord] = [:]
    /// The zone's shares before the batch, by record name (read by ``readShares()``).
    private var shares: [String: StoredShare] = [:]
    /// Whether the zone had shares before the batch. A zone without any has no participant after
    /// the batch either: acceptance is a request of its own.
    var zoneHadShares: Bool { !shares.isEmpty }

    /// What a share record's save or deletion does to its share.
    struct Plan {
        var share: StoredShare?
        var previous: StoredShare?
    }

    init(changes: ChangeSet, grant: ZoneGrant, access: DatabaseAccess) {
        self.transaction = changes.transaction
        self.grant = grant
        self.access = access
        self.changes = changes
    }

    var zone: StoredZone { grant.zone }

    // MARK: Before the writes

    /// Reads the zone's shares, once per batch, before ``prepare(_:)``.
    func readShares() async throws {
        shares = try await Dictionary(transaction.shares(zoneRowID: zone.rowID).map { ($0.recordName, $0) },
                                      uniquingKeysWith: { first, _ in first })
    }

    /// Checks and plans every operation of the batch; the batch is copied once, as the read-only
    /// view share plans look up roots in. Needed only where ``zoneHadShares``, the caller is a
    /// participant, or the batch names a share: for any other batch it changes nothing.
    func prepare(_ operations: inout [PreparedOperation]) async throws {
        // The owner's saves of ordinary records (nearly every operation) need nothing here; the
        // batch is not touched for them, so it is not copied either.
        let involved = operations.indices.filter { index in
            operations[index].invalid == nil
                && (grant.sharing != nil || Self.isShare(operations[index], existing: shares[operations[index].recordName]))
        }
        guard !involved.isEmpty else { return }
        let batch = operations
        for index in involved {
            do throws(CloudKitError) {
                try await prepare(&operations[index], existing: shares[operations[index].recordName], batch: batch)
            } catch {
                operations[index].invalid = error
            }
        }
    }

    /// Whether the operation is about a share record (a save or deletion of one, a new share).
    private static func isShare(_ prepared: PreparedOperation, existing: StoredShare?) -> Bool {
        ShareKeys.isShareType(prepared.operation.record.recordType) || prepared.recordName == ShareKeys.zoneShareName || existing != nil
    }

    private func prepare(_ prepared: inout PreparedOperation, existing: StoredShare?, batch: [PreparedOperation]) async throws(CloudKitError) {
        let name = prepared.recordName
        let operation = prepared.operation
        let isShare = Self.isShare(prepared, existing: existing)
        if let sharing = grant.sharing {
            if isShare {
                guard operation.operationType.isDelete, let existing else {
                    throw .accessDenied("only the owner can change a share")
                }
                prepared.settled = try await leave(existing, user: sharing.user)
                return
            }
            try await checkParticipant(prepared, sharing: sharing)
            return
        }
        guard isShare else { return }
        if access.scope != .private { throw .badRequest("shares live in the owner's private database") }
        if zone.isDefaultZone { throw .badRequest("the default zone cannot be shared; use a custom zone") }
        prepared.operation.record.recordType = ShareKeys.recordType
        if operation.operationType.isDelete {
            plans[name] = Plan(share: nil, previous: existing)
            return
        }
        plans[name] = try await Plan(share: plan(prepared, existing: existing, batch: batch), previous: existing)
    }

    private func checkParticipant(_ prepared: PreparedOperation, sharing: ShareAccess) async throws(CloudKitError) {
        let name = prepared.recordName
        let current = try await attempt { try await transaction.record(zoneRowID: zone.rowID, recordName: name) }
        let permission: SharePermission
        if let current, !current.deleted {
            permission = try await attempt { try await sharing.permission(forRecord: name, zoneRowID: zone.rowID, in: transaction) }
            guard permission.canRead else { throw .notFound("record '\(name)' does not exist") }
        } else if prepared.operation.operationType.isDelete || prepared.operation.operationType.requiresChangeTag {
            throw .notFound("record '\(name)' does not exist")
        } else {
            let parent = prepared.operation.record.parent?.recordName
            let zoneWide = sharing.shares.filter(\.isZoneWide).map(sharing.permission(in:)).contains(.readWrite)
            if zoneWide {
                permission = .readWrite
            } else if let parent {
                permission = try await attempt { try await sharing.permission(forRecord: parent, zoneRowID: zone.rowID, in: transaction) }
            } else {
                throw .accessDenied("a new record in a shared hierarchy needs a parent inside it")
            }
        }
        guard permission.canWrite else { throw .accessDenied("your permission on this share is read-only") }
    }

    /// The share a save of a share record makes.
    private func plan(_ prepared: PreparedOperation, existing: StoredShare?, batch: [PreparedOperation]) async throws(CloudKitError) -> StoredShare {
        let name = prepared.recordName
        let keys = prepared.operation.record.shareKeys ?? ShareKeys()
        var share = existing ?? StoredShare(zoneRowID: zone.rowID, recordName: name, rootRecordName: nil,
                                            shortGUID: SecretGenerator.shortGUID(), publicPermission: .none, participants: [])
        if existing == nil && name != ShareKeys.zoneShareName {
            let root = keys.forRecord?.recordName
                ?? batch.first { $0.operation.record.share?.recordName == name && !$0.operation.operationType.isDelete }?.recordName
            guard let root else {
                throw .badRequest("share '\(name)' needs forRecord, or its root record saved in the same batch with share set")
            }
            try await checkShareable(root: root, batch: batch)
            share.rootRecordName = root
        }
        let publicPermission = keys.publicPermission ?? share.publicPermission
        if let wanted = keys.participants {
            share.participants = try await participants(wanted, replacing: share.participants)
        }
        if publicPermission != share.publicPermission {
            if publicPermission == .none {
                share.participants = share.participants.map { var removed = $0; removed.status = .removed; return removed }
            } else {
                share.participants.removeAll { $0.status == .invited }
            }
            share.publicPermission = publicPermission
        } else if publicPermission != .none {
            share.participants.removeAll { $0.status == .invited && $0.type != .publicUser }
        }
        guard share.participants.filter({ $0.status != .removed }).count < 100 else {
            throw .limitExceeded("a share has at most 100 participants")
        }
        return share
    }

    private func checkShareable(root: String, batch: [PreparedOperation]) async throws(CloudKitError) {
        let inBatch = batch.contains { $0.recordName == root && !$0.operation.operationType.isDelete }
        let stored = try await attempt { try await transaction.record(zoneRowID: zone.rowID, recordName: root) }
        guard inBatch || (stored.map { !$0.deleted } ?? false) else {
            throw .badRequest("the shared root record '\(root)' does not exist")
        }
        let shares = try await attempt { try await transaction.shares(zoneRowID: zone.rowID) }
        if shares.contains(where: \.isZoneWide) { throw .badRequest("the zone is already shared as a whole") }
        let roots = Set(shares.compactMap(\.rootRecordName))
        // Neither the root, nor an ancestor, nor a descendant may be shared already.
        var current: String? = root
        var visited = Set<String>()
        while let name = current, visited.insert(name).inserted {
            if roots.contains(name) { throw .badRequest("record '\(root)' is already in a shared hierarchy") }
            current = try await attempt { try await transaction.record(zoneRowID: zone.rowID, recordName: name)?.parent }
        }
        for other in roots {
            var current: String? = other
            var visited = Set<String>()
            while let name = current, visited.insert(name).inserted {
                if name == root { throw .badRequest("a record under '\(root)' is already shared") }
                current = try await attempt { try await transaction.record(zoneRowID: zone.rowID, recordName: name)?.parent }
            }
        }
    }

    /// The participants a share record asks for, resolved to users; people already in the share
    /// keep their status, people left out are removed. A participant the record lists as removed
    /// (a share record saved back as it was read) stays removed: only a new entry invites again.
    private func participants(_ wanted: [ShareParticipant], replacing current: [StoredParticipant]) async throws(CloudKitError) -> [StoredParticipant] {
        var result: [StoredParticipant] = []
        for participant in wanted where participant.type != .owner && participant.acceptanceStatus != .removed {
            let user = try await resolve(participant.userIdentity)
            guard user != grant.owner, !result.contains(where: { $0.userRecordName == user }) else { continue }
            let previous = current.first { $0.userRecordName == user && $0.status != .removed }
            result.append(StoredParticipant(userRecordName: user, permission: participant.permission.flatMap { $0 == .unknown ? nil : $0 } ?? previous?.permission ?? .readOnly,
                                            type: previous?.type ?? .user, status: previous?.status ?? .invited,
                                            acceptedSequence: previous?.acceptedSequence))
        }
        for participant in current where !result.contains(where: { $0.userRecordName == participant.userRecordName }) {
            var removed = participant
            removed.status = .removed
            result.append(removed)
        }
        return result
    }

    /// The user a participant's identity names: by record name, by username (a Stratus
    /// extension), or by the email address the user gave.
    private func resolve(_ identity: UserIdentity?) async throws(CloudKitError) -> String {
        let lookup = identity?.lookupInfo
        if let name = identity?.userRecordName ?? lookup?.userRecordName,
           let user = try await attempt({ try await transaction.user(recordName: name) }), user.containerID == access.containerID {
            return user.userRecordName
        }
        if let username = lookup?.username, let user = try await attempt({ try await transaction.user(containerID: access.containerID, username: username) }) {
            return user.userRecordName
        }
        if let email = lookup?.emailAddress, let user = try await attempt({ try await transaction.user(containerID: access.containerID, email: email) }) {
            return user.userRecordName
        }
        throw .badRequest("no user matches participant \(lookup?.username ?? lookup?.emailAddress ?? identity?.userRecordName ?? "(no identity)")")
    }

    /// A participant leaves: their status becomes removed and the zone leaves their shared
    /// database unless another share there still includes them.
    private func leave(_ share: StoredShare, user: String) async throws(CloudKitError) -> StoredRecord {
        var share = share
        guard let index = share.participants.firstIndex(where: { $0.userRecordName == user }) else {
            throw .notFound("you are not a participant of this share")
        }
        share.participants[index].status = .removed
        try await attempt {
            try await transaction.saveShare(share)
            try await touch(share.recordName)
            try await updateSharedZones(for: [user])
        }
        guard let record = try await attempt({ try await transaction.record(zoneRowID: zone.rowID, recordName: share.recordName) }) else {
            throw .notFound("share record is missing")
        }
        var tombstone = record
        tombstone.deleted = true
        tombstone.fieldsJSON = Array("{}".utf8)
        return tombstone
    }

    /// Takes a user out of every share of the zone (their account is being deleted): the share
    /// records change, so the owner's devices hear of it, and the zone leaves the user's shared
    /// database.
    func removeParticipant(_ user: String) async throws {
        for var share in try await transaction.shares(zoneRowID: zone.rowID) where share.participants.contains(where: { $0.userRecordName == user }) {
            share.participants.removeAll { $0.userRecordName == user }
            try await transaction.saveShare(share)
            try await touch(share.recordName)
        }
        try await updateSharedZones(for: [user])
    }

    // MARK: After the writes

    /// Whether ``commit(succeeded:deletedRecords:)`` may change a share: the zone had shares, or
    /// the batch planned one. Otherwise there is none to store or end.
    var mayChangeShares: Bool { zoneHadShares || !plans.isEmpty }

    /// Stores the shares of the share records that were saved or deleted, and ends the shares
    /// whose root record was deleted (CloudKit deletes a share with its root).
    func commit(succeeded names: Set<String>, deletedRecords: [String]) async throws {
        var ended = Set<String>()
        for share in try await transaction.shares(zoneRowID: zone.rowID) where share.rootRecordName.map(deletedRecords.contains) == true {
            plans[share.recordName] = Plan(share: nil, previous: share)
            try await deleteShareRecord(share.recordName)
            ended.insert(share.recordName)
        }
        try await commitPlans(succeeded: names.union(ended))
    }

    /// Turns a share record into a tombstone.
    private func deleteShareRecord(_ name: String) async throws {
        try await rewrite(name) { record in
            record.deleted = true
            record.fieldsJSON = Array("{}".utf8)
        }
    }

    private func commitPlans(succeeded names: Set<String>) async throws {
        for (name, plan) in plans where names.contains(name) {
            var affected = Set((plan.previous?.participants ?? []).map(\.userRecordName))
            if let share = plan.share {
                try await transaction.saveShare(share)
                affected.formUnion(share.participants.map(\.userRecordName))
                if let root = share.rootRecordName, plan.previous == nil { try await point(root, at: name) }
            } else if let previous = plan.previous {
                try await transaction.deleteShare(zoneRowID: zone.rowID, recordName: name)
                if let root = previous.rootRecordName { try await point(root, at: nil) }
            }
            try await updateSharedZones(for: affected)
        }
    }

    /// Sets a root record's `share` pointer (a change of the root, with a new change tag).
    private func point(_ root: String, at share: String?) async throws {
        repointed[root] = try await rewrite(root) { $0.share = share }
    }

    /// Gives a record a new change sequence, so change feeds report it again (a share whose
    /// participants changed).
    func touch(_ name: String) async throws {
        try await rewrite(name) { _ in }
    }

    /// Changes a live record in place as a new change: a new version, reported.
    @discardableResult
    private func rewrite(_ name: String, _ change: (inout StoredRecord) -> Void) async throws -> StoredRecord? {
        guard var record = try await transaction.record(zoneRowID: zone.rowID, recordName: name), !record.deleted else { return nil }
        let fields = record.fieldsJSON
        change(&record)
        try await changes.version(&record)
        try await transaction.saveRecord(record, references: [], replacingReferences: record.deleted)
        changes.recordsChanged([RecordChange(recordName: name, recordType: record.recordType, creator: record.created.userRecordName,
                                             trigger: record.deleted ? .delete : .update,
                                             fieldsJSON: record.deleted ? fields : record.fieldsJSON)],
                               zone: zone, database: ownerDatabase, zoneIsShared: true)
        return record
    }

    /// A batch's stored record as committed: a root pointed at its share after the writer
    /// stored it, or the record as the writer left it.
    func committed(_ stored: StoredRecord) -> StoredRecord {
        repointed[stored.recordName] ?? stored
    }

    /// Puts the zone in, or takes it out of, each user's shared database to match their acceptance.
    func updateSharedZones(for users: some Sequence<String>) async throws {
        let active = try await Set(transaction.sharedZoneMembers(zoneRowID: zone.rowID))
        for user in users {
            let accepted = try await transaction.isAcceptedParticipant(zoneRowID: zone.rowID, user: user)
            guard accepted != active.contains(user) else { continue }
            try await transaction.setSharedZone(user: user, zoneRowID: zone.rowID, active: accepted, sequence: try changes.nextSequence())
            try await reportSharedZoneChanged(participant: user)
        }
    }

    /// The owner's private database, where the zone is.
    private var ownerDatabase: DatabaseKey {
        DatabaseKey(containerID: access.containerID, environment: access.environment, scope: .private, ownerRecordName: grant.owner)
    }

    /// Reports that the zone came into or left `participant`'s shared database (if they have one:
    /// without it, nothing of theirs listens).
    private func reportSharedZoneChanged(participant: String) async throws {
        let shared = DatabaseKey(containerID: access.containerID, environment: access.environment, scope: .shared, ownerRecordName: participant)
        guard let databaseID = try await transaction.databaseID(shared, create: false) else { return }
        changes.sharedZoneChanged(zone, owner: grant.owner, database: shared, databaseID: databaseID)
    }

    private func attempt<T>(_ body: () async throws -> T) async throws(CloudKitError) -> T {
        do {
            return try await body()
        } catch let error as CloudKitError {
            throw error
        } catch {
            throw CloudKitError(.internalError, "\(error)")
        }
    }
}
