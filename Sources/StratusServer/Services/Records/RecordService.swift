import Foundation
import StratusCore

/// `records/modify` and `records/lookup`: CloudKit's save and delete rules, change tags,
/// conflicts, atomic batches and reference actions.
package struct RecordService: Sendable {
    let storage: any StratusStorage
    let directory: DatabaseDirectory
    let maxOperations: Int
    let maxRecordBytes: Int
    let maxRequestBytes: Int
    let maxResponseBytes: Int
    let signer: AssetURLSigner
    let hub: NotificationHub
    /// Seals and opens encrypted fields (``SealedFields``).
    let keys: KeyVault
    let clock: ServerClock
    /// Whether each change keeps the version it replaces in the record log (``RecordLogStore``),
    /// by container.
    let historyRetention: HistoryRetention

    /// The record bytes one `records/modify` may touch (write, merge or delete), which its answer
    /// echoes and its notifications carry: the response budget, and never less than a request
    /// body can carry, so any batch of creates that fits a request fits.
    var maxBatchBytes: Int { max(maxResponseBytes, maxRequestBytes) }

    /// Applies a batch in order, in one transaction. In a custom zone with `atomic` (the default)
    /// one failure fails them all: the failing operations report their own error and the others
    /// `ATOMIC_ERROR`. Otherwise each operation succeeds or fails on its own.
    package func modify(_ request: RecordsModifyRequest, _ access: DatabaseAccess) async throws -> RecordResults {
        try await modify(request, access, answering: { $0 })
    }

    /// From this many operations on, a batch's answer is made while its transaction commits.
    static let answeredWhileCommitting = 100

    /// As ``modify(_:_:)``, with the results turned into the request's answer by `answer`: for a
    /// batch of ``answeredWhileCommitting`` operations or more, while the transaction commits (see
    /// ``StratusStorage/write(publishingTo:answering:whileCommitting:_:)``).
    package func modify<Answer: Sendable>(_ request: RecordsModifyRequest, _ access: DatabaseAccess,
                                          answering answer: @escaping @Sendable (RecordResults) throws -> Answer) async throws -> Answer {
        let user = try admit(request.operations.count, access)
        let sealer = cachedSealer(request, user: user, access)
        return try await modify(request, PreparedBatch(request.operations, zoneName: (request.zoneID ?? .default).zoneName, sealer: sealer),
                                user: user, access, sealer: sealer, answering: answer)
    }

    /// As ``modify(_:_:answering:)``, for a request whose operations are still JSON (the HTTP
    /// route's): they are read beside the writer (``PreparedBatch``).
    package func modify<Answer: Sendable>(_ body: RecordsModifyBody, _ access: DatabaseAccess,
                                          answering answer: @escaping @Sendable (RecordResults) throws -> Answer) async throws -> Answer {
        let user = try admit(body.operations.count, access)
        let sealer = cachedSealer(body.request, user: user, access)
        return try await modify(body.request, PreparedBatch(reading: body.operations, zoneName: (body.request.zoneID ?? .default).zoneName,
                                                            sealer: sealer),
                                user: user, access, sealer: sealer, answering: answer)
    }

    /// The data key of the zone's owner if it is in memory: the batch seals its encrypted fields
    /// with it as it is read (``PreparedBatch``), and the writer the rest.
    private func cachedSealer(_ request: RecordsModifyRequest, user: String, _ access: DatabaseAccess) -> Sealer? {
        guard access.scope != .public else { return nil }
        return keys.cachedSealer(for: .user(access.scope == .shared ? request.zoneID?.ownerRecordName ?? user : user))
    }

    /// The caller, once the batch is one it may send.
    private func admit(_ operations: Int, _ access: DatabaseAccess) throws -> String {
        let user = try access.requireUser()
        guard operations <= maxOperations else {
            throw CloudKitError.limitExceeded("a request may carry at most \(maxOperations) operations; split the batch")
        }
        return user
    }

    /// Applies the batch with the data key of the zone's owner when it is in memory, and again
    /// with it when the writer needed it (an encrypted field to seal or open) and had it not: the
    /// key store is never reached inside the write's transaction.
    private func modify<Answer: Sendable>(_ request: RecordsModifyRequest, _ batch: PreparedBatch, user: String, _ access: DatabaseAccess,
                                          sealer: Sealer?, answering answer: @escaping @Sendable (RecordResults) throws -> Answer) async throws -> Answer {
        do {
            return try await apply(request, batch, user: user, access, sealer: sealer, answering: answer)
        } catch let needed as SealedFields.KeyNeeded {
            return try await apply(request, batch, user: user, access, sealer: keys.sealer(for: .user(needed.owner)), answering: answer)
        }
    }

    private func apply<Answer: Sendable>(_ request: RecordsModifyRequest, _ batch: PreparedBatch, user: String, _ access: DatabaseAccess,
                                         sealer: Sealer?, answering answer: @escaping @Sendable (RecordResults) throws -> Answer) async throws -> Answer {
        let key = try access.databaseKey()
        let context = WriteContext(access: access, user: user, now: clock.milliseconds)
        let keepsHistory = try await historyRetention.keepsHistory(in: access.containerID)
        let whileCommitting = batch.count >= Self.answeredWhileCommitting
        let links = AssetLinks(signer: signer, access: access)
        let answerBatch: @Sendable (BatchOutcome) throws -> Answer = { outcome in
            try answer(outcome.results(desiredKeys: request.desiredKeys, links: links, sealer: sealer))
        }
        return try await storage.write(publishingTo: hub, answering: answerBatch, whileCommitting: whileCommitting) { transaction, changes in
            let databaseID = try await DatabaseDirectory.databaseID(key, in: changes)
            let grant = try await DatabaseDirectory.grant(request.zoneID, databaseID: databaseID, access: access, in: transaction)
            let zone = grant.zone
            let sharing = ShareOperations(changes: changes, grant: grant, access: access)
            try await sharing.readShares()
            // Sharing plans a batch whole; every other batch is applied as its chunks arrive.
            var chunks: PreparedBatch.Chunks
            if grant.sharing != nil || sharing.zoneHadShares || batch.mentionsShares {
                var operations = try await batch.all()
                try await sharing.prepare(&operations)
                chunks = PreparedBatch.Chunks(whole: operations)
            } else {
                chunks = PreparedBatch.Chunks(batch)
            }
            let writer = RecordWriter(changes: changes, grant: grant, context: context, sealer: sealer, maxRecordBytes: maxRecordBytes,
                                      maxBatchBytes: maxBatchBytes, keepsHistory: keepsHistory)
            let atomic = (request.atomic ?? true) && !zone.isDefaultZone
            let prepared: [PreparedOperation]
            let outcomes: [Result<StoredRecord, RecordWriter.Failure>]
            do {
                (prepared, outcomes) = try await atomic ? writer.applyAtomically(&chunks) : writer.applyEach(&chunks)
            } catch let tooLarge as RecordWriter.BatchTooLarge {
                throw tooLarge.error
            }
            if !writer.history.isEmpty { try await transaction.appendRecordLog(writer.history) }
            let ownerKey = DatabaseKey(containerID: key.containerID, environment: key.environment,
                                       scope: access.scope == .shared ? .private : key.scope, ownerRecordName: grant.owner)
            changes.recordsChanged(writer.changeLog, zone: zone, database: ownerKey, zoneIsShared: sharing.zoneHadShares)
            if keepsHistory, let alarm = try await LossAlarm.count(writer.changeLog.count { $0.trigger == .delete }, zone: zone,
                                                                   stamp: context.stamp, in: transaction) {
                changes.lossAlarmRaised(alarm, zone: zone, database: ownerKey)
                try await alarm.log(zoneRowID: zone.rowID, at: context.stamp.timestamp, in: transaction)
            }
            var committed = outcomes
            if sharing.mayChangeShares {
                let succeeded = Set(zip(prepared, outcomes).compactMap { operation, outcome in
                    if case .success = outcome { operation.recordName } else { nil }
                })
                try await sharing.commit(succeeded: succeeded, deletedRecords: writer.changeLog.filter { $0.trigger == .delete }.map(\.recordName))
                committed = outcomes.map { $0.map(sharing.committed) }
            }
            let shares = try await ShareKeysView.keys(
                forShareRecords: committed.compactMap { outcome in
                    if case .success(let stored) = outcome, ShareKeys.isShareType(stored.recordType) { stored } else { nil }
                },
                zoneRowID: zone.rowID, owner: grant.owner, caller: user, origin: access.origin, in: transaction)
            return BatchOutcome(operations: prepared, outcomes: committed, shares: shares, zoneRowID: zone.rowID)
        }
    }

    /// What a batch's transaction hands its answer: each operation with its outcome. The results
    /// are made from it after the transaction's work, while it commits (for a large batch).
    private struct BatchOutcome: Sendable {
        var operations: [PreparedOperation]
        var outcomes: [Result<StoredRecord, RecordWriter.Failure>]
        var shares: [String: ShareKeys]
        var zoneRowID: Int64

        /// The results, each record's encrypted fields opened with `sealer` (the writer had it
        /// wherever it sealed or kept one).
        func results(desiredKeys: [String]?, links: AssetLinks, sealer: Sealer?) throws -> RecordResults {
            var results = RecordResults(results: try zip(operations, outcomes).map { operation, outcome -> RecordResults.Outcome in
                switch outcome {
                case .success(var stored):
                    if stored.hasSealedFields {
                        if let sealed = operation.sealed, stored.fieldsJSON == operation.encodedFields {
                            // Saved as the batch sealed it: answered with the plain fields it sealed.
                            stored.fieldsJSON = sealed.answered
                        } else {
                            guard let sealer else { throw CloudKitError(.internalError, "record '\(stored.recordName)' was saved without its owner's key") }
                            stored.fieldsJSON = try SealedFields.open(stored.fieldsJSON, recordName: stored.recordName, with: sealer)
                        }
                    }
                    return .stored(stored, desiredKeys: operation.desiredKeys ?? desiredKeys)
                case .failure(let failure):
                    // A conflict's server record carries download URLs, as a fetched one does:
                    // the client applies the winner whole, its files included.
                    return .failure(RecordError(recordName: operation.recordName, error: failure.error, uuid: SecretGenerator.uuid(),
                                         serverRecord: try failure.serverRecord.map { record in
                                             var linked = record
                                             try links.attach(to: &linked, zoneRowID: zoneRowID)
                                             return linked
                                         }))
                }
            }, links: links)
            results.shares = shares
            return results
        }
    }

    /// Fetches records by name; a missing or deleted one gets `NOT_FOUND` in its place.
    ///
    /// Each record may be named once. Records that together exceed the response budget are
    /// refused with `LIMIT_EXCEEDED` (split the lookup), before any response is built.
    package func lookup(_ request: RecordsLookupRequest, _ access: DatabaseAccess) async throws -> RecordResults {
        guard request.records.count <= maxOperations else {
            throw CloudKitError.limitExceeded("at most \(maxOperations) records per lookup")
        }
        var named = Set<String>(minimumCapacity: request.records.count)
        for item in request.records where !named.insert(item.recordName).inserted {
            throw CloudKitError.badRequest("record '\(item.recordName)' appears more than once; name each record once")
        }
        let maxResponseBytes = self.maxResponseBytes
        // Taken apart into a var of its own: the answer is then opened in place, not copied.
        var results: RecordResults
        let owner: String
        (results, owner) = try await directory.read(for: access) { databaseID, transaction in
            let grant = try await DatabaseDirectory.grant(request.zoneID, databaseID: databaseID, access: access, in: transaction)
            let zone = grant.zone
            var shares: [StoredRecord] = []
            var budget = ResponseBudget(bytes: maxResponseBytes)
            var roles = access.scope == .public ? PublicPermissions(access, in: transaction) : nil
            var answered = RecordResults(results: try await request.records.asyncMap { item in
                guard let stored = try await transaction.record(zoneRowID: zone.rowID, recordName: item.recordName), !stored.deleted,
                      try await grant.permission(forRecord: item.recordName, in: transaction).canRead else {
                    return .failure(RecordError(recordName: item.recordName, error: .notFound("record '\(item.recordName)' does not exist")))
                }
                do {
                    try await roles?.require(.read, on: stored.recordType, createdBy: stored.created.userRecordName, recordName: item.recordName)
                } catch let refused as CloudKitError {
                    return .failure(RecordError(recordName: item.recordName, error: refused))
                }
                guard budget.take(stored) else {
                    throw CloudKitError.limitExceeded("these records exceed the \(maxResponseBytes)-byte response limit; look them up in smaller batches")
                }
                if ShareKeys.isShareType(stored.recordType) { shares.append(stored) }
                return .stored(stored, desiredKeys: item.desiredKeys ?? request.desiredKeys)
            }, links: AssetLinks(signer: signer, access: access))
            answered.shares = try await ShareKeysView.keys(forShareRecords: shares, zoneRowID: zone.rowID, owner: grant.owner,
                                                    caller: access.userRecordName, origin: access.origin, in: transaction)
            return (answered, grant.owner)
        }
        try await results.openFields(with: keys, owner: owner)
        return results
    }
}

/// One operation of a batch after request-level validation.
struct PreparedOperation: Sendable {
    var operation: RecordOperation
    var recordName: String
    /// Set when the operation failed validation: it fails without touching the database.
    var invalid: CloudKitError?
    /// Set when the operation was carried out before the writes (a participant leaving a share):
    /// its result. Out of line: a batch's operations are copied as they are applied.
    @OutOfLine var settled: StoredRecord? = nil
    /// The fields the operation carries, encoded as stored, when it saves them as sent
    /// (``RecordOperationType/savesFieldsAsSent``): the writer stores them unless the schema
    /// converts a value.
    var encodedFields: [UInt8]?
    /// When ``encodedFields`` holds fields sealed as the batch was read: with whose key, and the
    /// fields as the answer gives them. Out of line: most operations seal nothing.
    @OutOfLine var sealed: PreparedSealing? = nil

    init(operation: RecordOperation) {
        self.operation = operation
        self.recordName = operation.record.recordName ?? ""
    }

    var desiredKeys: [String]? { operation.desiredKeys }
}

/// Encrypted fields sealed as a batch was read (``PreparedOperation/sealed``).
struct PreparedSealing: Sendable, Equatable {
    /// Whose key sealed them: the writer keeps them only when it is the zone owner's.
    var scope: KeyScope
    /// The fields in the wire's form, their values plain, as the answer gives them.
    var answered: [UInt8]
}

/// What a write is stamped with: who, from which device, when.
struct WriteContext: Sendable {
    var access: DatabaseAccess
    var user: String
    var now: Int64

    var stamp: RecordStamp { RecordStamp(timestamp: now, userRecordName: user, deviceID: access.deviceID) }
}
