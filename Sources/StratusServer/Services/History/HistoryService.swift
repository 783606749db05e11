import Crypto
import StratusCore

/// Record history (Stratus extensions, docs/protocol.md): `records/history` (a record's kept
/// versions), `records/deleted` (a zone's recycle bin), `records/restore` (a version made current
/// again as a new save, which devices fetch as any change) and `records/history/purge` (the owner
/// removes a record's history). The versions are the record log's (``RecordLogStore``).
///
/// Who may: whoever may write the record now — its owner, a participant whose share lets them
/// write it, in the public database whoever the security roles let read and write it. Anyone
/// else is told the record does not exist. A participant sees the versions that were current
/// since they accepted the share, and deletions since then, never older ones.
package struct HistoryService: Sendable {
    let storage: any StratusStorage
    let directory: DatabaseDirectory
    let hub: NotificationHub
    let keys: KeyVault
    let signer: AssetURLSigner
    let clock: ServerClock
    let maxOperations: Int
    let maxRecordBytes: Int
    let maxBatchBytes: Int
    /// How long each container keeps replaced versions (`--history-days`, or its own setting).
    let retention: HistoryRetention
    /// The most bytes a zone's kept versions hold (`--history-zone-mb`; ``HistoryBudget``).
    let zoneBudget: Int64
    /// Seals the continuation markers of history and the recycle bin.
    let markerKey: SymmetricKey

    /// The most versions or deleted records one page lists.
    static let maxResultsLimit = 200
    /// Who a version or a deletion names once its author's account is deleted (the versions stay
    /// with the zone's owner).
    package static let deletedUser = "_deletedUser"

    // MARK: - History

    /// The record's versions, newest first: its current version (or its deletion), then those
    /// the log keeps.
    package func history(_ request: RecordHistoryRequest, _ access: DatabaseAccess) async throws -> RecordHistoryAnswer {
        _ = try access.requireUser()
        let limit = try ResultsLimit.resolve(request.resultsLimit, maximum: Self.maxResultsLimit)
        let name = request.recordName
        let marker = try request.continuationMarker.map { try HistoryMarker(unsealing: $0, with: markerKey) }
        let (last, versions, owner, zoneRowID) = try await directory.read(for: access) { databaseID, transaction in
            let grant = try await DatabaseDirectory.grant(request.zoneID, databaseID: databaseID, access: access, in: transaction)
            let zone = grant.zone
            if let marker, marker.zoneRowID != zone.rowID || marker.recordName != name {
                throw CloudKitError.badRequest("continuationMarker belongs to another record's history")
            }
            var versions: [RecordVersion] = []
            let current = try await transaction.record(zoneRowID: zone.rowID, recordName: name)
            if marker == nil, let current { versions.append(RecordVersion(record: current, position: current.sequence)) }
            // One more than the page holds tells whether another page follows.
            let room = limit - versions.count
            let kept = try await transaction.recordVersions(zoneRowID: zone.rowID, recordName: name, before: marker?.position, limit: room + 1)
            var writers = HistoryWriters(grant: grant, access: access, in: transaction)
            guard let newest = current ?? kept.first?.record, try await writers.mayWrite(newest) else {
                throw CloudKitError.notFound("record '\(name)' does not exist")
            }
            let seen = kept.prefix { writers.sees(position: $0.position) }
            versions += seen.prefix(room)
            let last = seen.count > room ? versions.last : nil
            let gone = try await Self.deletedAuthors(of: versions.flatMap { [$0.record.created, $0.record.modified] }, besides: access.userRecordName,
                                                     in: transaction)
            for index in versions.indices {
                versions[index].record.created.userRecordName = Self.shown(versions[index].record.created.userRecordName, gone)
                versions[index].record.modified.userRecordName = Self.shown(versions[index].record.modified.userRecordName, gone)
            }
            return (last, versions, grant.owner, zone.rowID)
        }
        var openers = FieldOpeners(keys)
        var rows: [StoredRecord] = []
        rows.reserveCapacity(versions.count)
        for version in versions {
            var row = version.record
            try await openers.open(&row, owner: owner)
            rows.append(row)
        }
        let next = last.map { HistoryMarker(zoneRowID: zoneRowID, recordName: name, position: $0.position).sealed(with: markerKey) }
        return RecordHistoryAnswer(recordName: name, versions: rows, links: AssetLinks(signer: signer, access: access), zoneRowID: zoneRowID,
                                   continuationMarker: next)
    }

    // MARK: - Recycle bin

    /// The zone's deleted records whose last version is kept, most recently deleted first, as
    /// far as the caller may write them.
    package func deleted(_ request: DeletedRecordsRequest, _ access: DatabaseAccess) async throws -> DeletedRecordsResponse {
        _ = try access.requireUser()
        let limit = try ResultsLimit.resolve(request.resultsLimit, maximum: Self.maxResultsLimit)
        let marker = try request.continuationMarker.map { try HistoryMarker(unsealing: $0, with: markerKey) }
        return try await directory.read(for: access) { databaseID, transaction in
            let grant = try await DatabaseDirectory.grant(request.zoneID, databaseID: databaseID, access: access, in: transaction)
            if let marker, marker.zoneRowID != grant.zone.rowID || marker.recordName != nil {
                throw CloudKitError.badRequest("continuationMarker belongs to another zone's recycle bin")
            }
            let tombstones = try await transaction.deletedRecords(zoneRowID: grant.zone.rowID, before: marker?.position, limit: limit)
            var writers = HistoryWriters(grant: grant, access: access, in: transaction)
            let seen = tombstones.prefix { writers.sees(position: $0.sequence) }
            let gone = try await Self.deletedAuthors(of: seen.map(\.modified), besides: access.userRecordName, in: transaction)
            var items: [DeletedRecordsResponse.Item] = []
            for tombstone in seen where try await writers.mayWrite(tombstone) {
                var deleted = tombstone.modified
                deleted.userRecordName = Self.shown(deleted.userRecordName, gone)
                items.append(.init(recordName: tombstone.recordName, recordType: tombstone.recordType, recordChangeTag: tombstone.changeTag,
                                   deleted: deleted))
            }
            let next = seen.count == limit ? seen.last.map {
                HistoryMarker(zoneRowID: grant.zone.rowID, recordName: nil, position: $0.sequence).sealed(with: markerKey)
            } : nil
            return DeletedRecordsResponse(records: items, continuationMarker: next)
        }
    }

    /// The authors among `stamps` whose accounts are deleted: one lookup per other author (the
    /// caller's own account, `caller`, is there).
    private static func deletedAuthors(of stamps: [RecordStamp], besides caller: String?,
                                       in transaction: any StorageTransaction) async throws -> Set<String> {
        var gone = Set<String>()
        for author in Set(stamps.map(\.userRecordName)) where author != ServerKeyService.identity && author != caller {
            if try await transaction.user(recordName: author) == nil { gone.insert(author) }
        }
        return gone
    }

    private static func shown(_ author: String, _ gone: Set<String>) -> String {
        gone.contains(author) ? deletedUser : author
    }

    // MARK: - Restore

    /// Makes each named version current again (``RecordWriter/restore(_:expectedCurrentChangeTag:)``),
    /// in one transaction: atomically in a custom zone unless `atomic` is false.
    package func restore(_ request: RecordsRestoreRequest, _ access: DatabaseAccess) async throws -> RecordsRestoreResponse {
        let user = try access.requireUser()
        guard request.operations.count <= maxOperations else {
            throw CloudKitError.limitExceeded("a request may carry at most \(maxOperations) operations; split the batch")
        }
        var named = Set<String>()
        for operation in request.operations where !named.insert(operation.recordName).inserted {
            throw CloudKitError.badRequest("record '\(operation.recordName)' appears more than once; restore each record once")
        }
        let owner = access.scope == .shared ? request.zoneID?.ownerRecordName ?? user : user
        let sealer = access.scope == .public ? nil : keys.cachedSealer(for: .user(owner))
        do {
            return try await restore(request, access, user: user, sealer: sealer)
        } catch let needed as SealedFields.KeyNeeded {
            return try await restore(request, access, user: user, sealer: keys.sealer(for: .user(needed.owner)))
        }
    }

    private func restore(_ request: RecordsRestoreRequest, _ access: DatabaseAccess, user: String,
                         sealer: Sealer?) async throws -> RecordsRestoreResponse {
        let key = try access.databaseKey()
        let context = WriteContext(access: access, user: user, now: clock.milliseconds)
        let keepsHistory = try await retention.keepsHistory(in: access.containerID)
        let written: (Int64, String, [Result<(StoredRecord, cascaded: [StoredRecord]), RecordWriter.Failure>])
        do {
            written = try await write(request, access, key: key, context: context, keepsHistory: keepsHistory, sealer: sealer)
        } catch let failed as AtomicRestoreFailed {
            let atomicError = CloudKitError(.atomicError, "another operation of this atomic batch failed")
            return RecordsRestoreResponse(records: zip(request.operations, failed.outcomes).map { operation, failure in
                .failure(RecordError(recordName: operation.recordName, error: failure?.error ?? atomicError, uuid: SecretGenerator.uuid(),
                                     serverRecord: failure?.serverRecord))
            }, cascaded: [])
        }
        return try await answer(written.2, request, access, zoneRowID: written.0, owner: written.1)
    }

    /// The restore's transaction: the zone it wrote, its owner, and each operation's outcome.
    private func write(_ request: RecordsRestoreRequest, _ access: DatabaseAccess, key: DatabaseKey, context: WriteContext,
                       keepsHistory: Bool, sealer: Sealer?) async throws -> (Int64, String, [Result<(StoredRecord, cascaded: [StoredRecord]), RecordWriter.Failure>]) {
        try await storage.write(publishingTo: hub) { transaction, changes in
            let databaseID = try await DatabaseDirectory.databaseID(key, in: changes)
            let grant = try await DatabaseDirectory.grant(request.zoneID, databaseID: databaseID, access: access, in: transaction)
            let zone = grant.zone
            let sharing = ShareOperations(changes: changes, grant: grant, access: access)
            try await sharing.readShares()
            let writer = RecordWriter(changes: changes, grant: grant, context: context, sealer: sealer, maxRecordBytes: maxRecordBytes,
                                      maxBatchBytes: maxBatchBytes, keepsHistory: keepsHistory)
            var writers = HistoryWriters(grant: grant, access: access, in: transaction)
            let atomic = (request.atomic ?? true) && !zone.isDefaultZone
            var outcomes: [Result<(StoredRecord, cascaded: [StoredRecord]), RecordWriter.Failure>] = []
            for operation in request.operations {
                let version = try await transaction.recordVersion(zoneRowID: zone.rowID, recordName: operation.recordName,
                                                                  changeTag: operation.recordChangeTag)
                guard let version, writers.sees(position: version.position), try await writers.mayWrite(version.record) else {
                    let reason = "record '\(operation.recordName)' has no kept version with change tag '\(operation.recordChangeTag)'"
                    outcomes.append(.failure(.init(error: .notFound(reason))))
                    continue
                }
                outcomes.append(try await writer.restoreAlone(version.record, expectedCurrentChangeTag: operation.expectedCurrentChangeTag))
            }
            if atomic, outcomes.contains(where: { if case .failure = $0 { true } else { false } }) {
                throw AtomicRestoreFailed(outcomes: outcomes.map { outcome in
                    if case .failure(let failure) = outcome { return failure }
                    return nil
                })
            }
            if !writer.history.isEmpty { try await transaction.appendRecordLog(writer.history) }
            let ownerKey = DatabaseKey(containerID: key.containerID, environment: key.environment,
                                       scope: access.scope == .shared ? .private : key.scope, ownerRecordName: grant.owner)
            changes.recordsChanged(writer.changeLog, zone: zone, database: ownerKey, zoneIsShared: sharing.zoneHadShares)
            return (zone.rowID, grant.owner, outcomes)
        }
    }

    /// Thrown to roll an atomic restore back: each operation's failure, nil for those that would
    /// have succeeded (they answer `ATOMIC_ERROR`).
    private struct AtomicRestoreFailed: Error {
        var outcomes: [RecordWriter.Failure?]
    }

    private func answer(_ outcomes: [Result<(StoredRecord, cascaded: [StoredRecord]), RecordWriter.Failure>], _ request: RecordsRestoreRequest,
                        _ access: DatabaseAccess, zoneRowID: Int64, owner: String) async throws -> RecordsRestoreResponse {
        var openers = FieldOpeners(keys)
        let links = AssetLinks(signer: signer, access: access)
        func wire(_ stored: StoredRecord) async throws -> Record {
            var row = stored
            try await openers.open(&row, owner: owner)
            var record = try RecordMapper.record(from: row, desiredKeys: nil)
            try links.attach(to: &record, zoneRowID: zoneRowID)
            return record
        }
        var results: [RecordResult] = []
        var cascaded: [Record] = []
        for (operation, outcome) in zip(request.operations, outcomes) {
            switch outcome {
            case .success(let (stored, more)):
                results.append(.success(try await wire(stored)))
                for record in more { cascaded.append(try await wire(record)) }
            case .failure(let failure):
                results.append(.failure(RecordError(recordName: operation.recordName, error: failure.error, uuid: SecretGenerator.uuid(),
                                                    serverRecord: failure.serverRecord)))
            }
        }
        return RecordsRestoreResponse(records: results, cascaded: cascaded)
    }

    // MARK: - Purge

    /// Removes every kept version of the record: only its owner may (the zone's owner; in the
    /// public database, its creator).
    package func purge(_ request: RecordHistoryPurgeRequest, _ access: DatabaseAccess) async throws -> RecordHistoryPurgeResponse {
        let user = try access.requireUser()
        let key = try access.databaseKey()
        let name = request.recordName
        let purged = try await storage.write { transaction in
            guard let databaseID = try await transaction.databaseID(key, create: false) else {
                throw CloudKitError.notFound("record '\(name)' does not exist")
            }
            let grant = try await DatabaseDirectory.grant(request.zoneID, databaseID: databaseID, access: access, in: transaction)
            let newest = try await transaction.record(zoneRowID: grant.zone.rowID, recordName: name)
            let owned = switch access.scope {
            case .private: grant.sharing == nil
            case .public: newest?.created.userRecordName == user || user == ServerKeyService.identity
            case .shared: false
            }
            guard owned else {
                throw CloudKitError.accessDenied("only the record's owner may purge its history")
            }
            return try await transaction.purgeRecordHistory(zoneRowID: grant.zone.rowID, recordName: name)
        }
        return RecordHistoryPurgeResponse(recordName: name, purgedVersions: purged)
    }

    // MARK: - Budget

    /// Keeps each zone's kept versions within ``zoneBudget`` (``HistoryBudget``), a transaction per
    /// zone over its `recordsPerRound` most-edited records (the next round goes on). Evicting a
    /// version replaced less than a day ago raises the loss alarm. Returns how many versions went.
    package func enforceBudget(recordsPerRound: Int = 10_000) async throws -> Int {
        let over = try await storage.read { try await $0.zonesOverHistoryBudget(bytes: zoneBudget) }
        var total = 0
        for (zoneRowID, bytes) in over {
            total += try await storage.write(publishingTo: hub) { transaction, changes in
                let records = try await transaction.recordsByKeptVersions(zoneRowID: zoneRowID, limit: recordsPerRound)
                let evictions = HistoryBudget.evictions(records, excess: bytes - zoneBudget)
                var (evicted, youngest) = (0, Int64.min)
                for (name, count) in evictions {
                    guard let replaced = try await transaction.evictOldestVersions(zoneRowID: zoneRowID, recordName: name, count: count) else { continue }
                    evicted += count
                    youngest = max(youngest, replaced)
                }
                if evicted > 0, youngest > clock.milliseconds - 24 * 3600 * 1000,
                   let zone = try await transaction.zone(rowID: zoneRowID), let key = try await transaction.databaseKey(id: zone.databaseID) {
                    let alarm = LossAlarm(cause: .historyBudget, userRecordName: key.ownerRecordName, deviceID: "", deleted: evicted,
                                          zoneRecords: evictions.count, restoreTo: youngest)
                    changes.lossAlarmRaised(alarm, zone: zone, database: key)
                    try await alarm.log(zoneRowID: zone.rowID, at: clock.milliseconds, in: transaction)
                }
                return evicted
            }
        }
        return total
    }

    // MARK: - Retention

    /// Removes the versions each container's ``retention`` no longer keeps (all, where history is
    /// off), `step` at a time, each step a transaction of its own, and the deletion bursts the loss
    /// alarm no longer counts in. Returns how many versions went.
    package func purgeExpired(step: Int = 1000) async throws -> Int {
        let now = clock.milliseconds
        try await storage.write { try await $0.purgeDeletionBursts(startedBefore: now - LossAlarm.window) }
        let own = try await storage.read { try await $0.containers() }.filter { $0.historyDays != nil }
        var total = try await purge(.allBut(own.map(\.id)), before: now - retention.serverDefault.milliseconds, step: step)
        for container in own {
            let kept = HistoryRetention.retention(days: container.historyDays, serverDefault: retention.serverDefault)
            total += try await purge(.only([container.id]), before: now - kept.milliseconds, step: step)
        }
        return total
    }

    private func purge(_ scope: RecordLogScope, before cutoff: Int64, step: Int) async throws -> Int {
        var total = 0
        while true {
            let purged = try await storage.write { try await $0.purgeRecordLog(before: cutoff, in: scope, limit: step) }
            total += purged
            if purged < step { return total }
        }
    }
}

/// Whether the caller may write a record now, which history, the recycle bin and restore ask.
struct HistoryWriters {
    private let grant: ZoneGrant
    private let transaction: any StorageTransaction
    private var roles: PublicPermissions?
    /// The zone's change sequence after which the caller sees what changed: when a participant
    /// accepted (``ShareAccess/historyHorizon``); 0 for the owner and the public database.
    private let horizon: Int64

    init(grant: ZoneGrant, access: DatabaseAccess, in transaction: any StorageTransaction) {
        self.init(grant: grant, roles: access.scope == .public ? PublicPermissions(access, in: transaction) : nil, in: transaction)
    }

    /// With the public database's `roles` (nil in a private zone, reached as `grant` says).
    init(grant: ZoneGrant, roles: PublicPermissions?, in transaction: any StorageTransaction) {
        self.grant = grant
        self.transaction = transaction
        self.roles = roles
        horizon = grant.sharing?.historyHorizon ?? 0
    }

    /// Whether the caller sees what the change at `position` did: a kept version the change
    /// replaced (it was current after their horizon), or a deletion.
    func sees(position: Int64) -> Bool { position > horizon }

    /// Whether the caller may write `record` (a current row, a tombstone or a kept version), and
    /// read it: in the public database the security roles may grant WRITE without READ.
    mutating func mayWrite(_ record: StoredRecord) async throws -> Bool {
        if roles != nil {
            return try await roles!.permissions(on: record.recordType, createdBy: record.created.userRecordName).isSuperset(of: [.read, .write])
        }
        return try await grant.permission(forRecord: record.recordName, in: transaction).canWrite
    }
}

/// Where the next page of a record's history (`recordName`) or a zone's recycle bin (nil) starts:
/// the position before which it lists.
struct HistoryMarker: SealedMarker {
    var zoneRowID: Int64
    var recordName: String?
    var position: Int64

    init(zoneRowID: Int64, recordName: String?, position: Int64) {
        self.zoneRowID = zoneRowID
        self.recordName = recordName
        self.position = position
    }
}

/// The answer of `records/history` (``RecordHistoryResponse`` on the wire), written from the rows:
/// each version's fields are copied as stored (opened ones already in the wire's form, marked
/// `isEncrypted`) unless they hold assets, which are given download URLs.
package struct RecordHistoryAnswer: WireWritable {
    var recordName: String
    /// The versions, newest first, their sealed fields opened.
    var versions: [StoredRecord]
    var links: AssetLinks
    var zoneRowID: Int64
    var continuationMarker: String?

    package var estimatedByteCount: Int { WireWriter.estimatedByteCount(of: versions) }

    package func write(to writer: inout WireWriter) throws {
        writer.raw("{\"recordName\":")
        writer.string(recordName)
        writer.raw(",\"versions\":[")
        for (index, version) in versions.enumerated() {
            if index > 0 { writer.raw(",") }
            var system = Record(recordType: version.recordType, recordChangeTag: version.changeTag, modified: version.modified, deleted: version.deleted)
            if version.deleted {
                writer.record(system)
            } else if RecordMapper.hasAssets(version.fieldsJSON) {
                let full = try RecordMapper.record(from: version, desiredKeys: nil)
                system.fields = full.fields
                system.encryptedFields = full.encryptedFields
                try links.attach(to: &system, zoneRowID: zoneRowID, recordName: recordName)
                writer.record(system)
            } else {
                writer.record(system, encodedFields: version.fieldsJSON)
            }
        }
        writer.raw("]")
        if let continuationMarker {
            writer.key("continuationMarker")
            writer.string(continuationMarker)
        }
        writer.raw("}")
    }
}
