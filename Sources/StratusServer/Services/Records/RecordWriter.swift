import Foundation
import StratusCore

/// Applies record operations to one zone inside a write transaction.
///
/// The rows a batch names are read with one query up front; the writer keeps that view current
/// as it writes, and restores it when a savepoint undoes an operation.
final class RecordWriter {
    let transaction: any StorageTransaction
    /// Gives each written record its version.
    let changes: ChangeSet
    let grant: ZoneGrant
    var zone: StoredZone { grant.zone }
    let context: WriteContext
    let maxRecordBytes: Int
    /// Rows known in this transaction by name: a record, a tombstone, or nil for "no row".
    private var known: [String: StoredRecord?] = [:]
    /// While one operation of a non-atomic batch runs: what `known` held before it touched a name
    /// (nil: the name was not known), to undo if the operation fails.
    private var undo: [String: StoredRecord??]?
    /// Every record change written and not undone, in order, for the notification hub.
    private(set) var changeLog: [RecordChange] = []
    /// With ``keepsHistory``, the record log's entry of each change of ``changeLog``, in the same
    /// order: what ``RecordLogStore/appendRecordLog(_:)`` keeps.
    private(set) var history: [RecordLogEntry] = []
    /// Whether the changes' entries (with the versions they replace) are kept for history.
    let keepsHistory: Bool
    /// The fields the batch has written (and deleted) so far, which the answer and the
    /// notifications carry; past `maxBatchBytes` the whole batch is refused (split it).
    private var loggedBytes = 0
    let maxBatchBytes: Int

    /// Thrown when a batch touches more record bytes than ``maxBatchBytes``: the request fails
    /// with `LIMIT_EXCEEDED` and nothing of it is written.
    struct BatchTooLarge: Error {
        var limit: Int
        var error: CloudKitError { .limitExceeded("this batch touches more than \(limit) bytes of records; split it") }
    }
    private var schema: SchemaCheck
    /// In the public database: what the security roles let the caller do.
    private var roles: PublicPermissions?
    /// The data key of the zone's owner, which seals and opens encrypted fields (``SealedFields``),
    /// when the request had it at hand; a write that needs it without it throws
    /// ``SealedFields/KeyNeeded``.
    let sealer: Sealer?

    init(changes: ChangeSet, grant: ZoneGrant, context: WriteContext, sealer: Sealer?, maxRecordBytes: Int, maxBatchBytes: Int,
         keepsHistory: Bool) {
        let transaction = changes.transaction
        self.keepsHistory = keepsHistory
        self.transaction = transaction
        self.changes = changes
        self.grant = grant
        self.maxBatchBytes = maxBatchBytes
        self.context = context
        self.maxRecordBytes = maxRecordBytes
        self.sealer = sealer
        schema = SchemaCheck(transaction: transaction, containerID: context.access.containerID, environment: context.access.environment)
        if context.access.scope == .public { roles = PublicPermissions(context.access, in: transaction) }
    }

    /// Reads the rows of the named operations' records, a few queries a chunk. Creates are
    /// included only where the store holds saves back (``RecordStore/holdsSaves``): a name known to
    /// be free is then saved with ``RecordStore/saveRecord(_:references:replacingReferences:)``,
    /// sent with the saves around it. Past `maxBatchBytes` of fields read for the batch it stops:
    /// the rest are read one at a time as the operations reach them, and a create among them
    /// inserts (``RecordStore/insertRecord(_:references:)``) to find out whether its name is taken.
    private func prefetch(_ operations: [PreparedOperation]) async throws {
        let holdsSaves = transaction.holdsSaves
        let names = operations.compactMap { operation in
            operation.invalid == nil && (holdsSaves || operation.operation.operationType != .create) ? operation.recordName : nil
        }
        known.reserveCapacity(known.count + names.count)
        for start in stride(from: 0, to: names.count, by: 50) where prefetchedBytes <= maxBatchBytes {
            let chunk = Array(names[start..<min(start + 50, names.count)])
            for name in chunk { known[name] = .some(nil) }
            for row in try await transaction.records(zoneRowID: zone.rowID, recordNames: chunk) {
                known[row.recordName] = row
                prefetchedBytes += row.fieldsJSON.count
            }
        }
    }

    /// The fields of the rows ``prefetch(_:)`` has read for the batch.
    private var prefetchedBytes = 0

    /// The live record with this name, if any.
    private func liveRecord(_ name: String) async throws -> StoredRecord? {
        let row: StoredRecord?
        if let cached = known[name] {
            row = cached
        } else {
            row = try await transaction.record(zoneRowID: zone.rowID, recordName: name)
            remember(name, row)
        }
        return row.flatMap { $0.deleted ? nil : $0 }
    }

    private func store(_ record: StoredRecord, references: [StoredReference], replacingReferences: Bool) async throws {
        try await transaction.saveRecord(record, references: references, replacingReferences: replacingReferences)
        remember(record.recordName, record)
    }

    /// Updates the view of a row, journaling the old entry while an operation can still be undone.
    private func remember(_ name: String, _ row: StoredRecord?) {
        if undo != nil, undo?[name] == nil { undo?[name] = .some(known[name]) }
        known[name] = row
    }

    /// Why one operation failed, with the server's record when it was a conflict.
    struct Failure: Error {
        var error: CloudKitError
        var serverRecord: Record?
    }

    /// Applies every operation in one savepoint, chunk by chunk as `chunks` gives them; if any
    /// fails, all are undone and the others report `ATOMIC_ERROR`. Returns the operations with
    /// their outcomes.
    func applyAtomically(_ chunks: inout PreparedBatch.Chunks) async throws -> ([PreparedOperation], [Result<StoredRecord, Failure>]) {
        var operations: [PreparedOperation] = []
        var outcomes: [Result<StoredRecord, Failure>] = []
        do {
            try await transaction.withSavepoint {
                while let chunk = try await chunks.next() {
                    try await prefetch(chunk)
                    operations += chunk
                    for operation in chunk { outcomes.append(try await outcome(operation)) }
                }
                if outcomes.contains(where: { if case .failure = $0 { true } else { false } }) { throw BatchFailed() }
            }
            return (operations, outcomes)
        } catch is BatchFailed {
            truncateLog(to: 0)
            let atomicError = CloudKitError(.atomicError, "another operation of this atomic batch failed")
            return (operations, outcomes.map { outcome in
                if case .failure = outcome { return outcome }
                return .failure(Failure(error: atomicError))
            })
        }
    }

    /// Applies each operation in its own savepoint, chunk by chunk as `chunks` gives them: a
    /// failure undoes only that operation. Returns the operations with their outcomes.
    func applyEach(_ chunks: inout PreparedBatch.Chunks) async throws -> ([PreparedOperation], [Result<StoredRecord, Failure>]) {
        var operations: [PreparedOperation] = []
        var results: [Result<StoredRecord, Failure>] = []
        while let chunk = try await chunks.next() {
            try await prefetch(chunk)
            operations += chunk
            for operation in chunk {
                results.append(try await applyAlone(operation))
            }
        }
        return (operations, results)
    }

    /// Applies one operation in a savepoint of its own, undone alone if it fails.
    private func applyAlone(_ operation: PreparedOperation) async throws -> Result<StoredRecord, Failure> {
        try await alone { try await outcome(operation) }
    }

    /// Restores a version (``restore(_:expectedCurrentChangeTag:bringingBackCascade:)``) in a
    /// savepoint of its own, undone alone if it fails.
    func restoreAlone(_ version: StoredRecord, expectedCurrentChangeTag expected: String?, bringingBackCascade: Bool = true) async throws
        -> Result<(StoredRecord, cascaded: [StoredRecord]), Failure> {
        try await alone {
            try await Self.caught { try await restore(version, expectedCurrentChangeTag: expected, bringingBackCascade: bringingBackCascade) }
        }
    }

    /// Deletes the named record in a savepoint of its own, as a `forceDelete` would but without
    /// its `DELETE_SELF` cascade (a zone's restore decides each record itself).
    func deleteAlone(_ name: String) async throws -> Result<StoredRecord, Failure> {
        try await alone {
            try await Self.caught {
                guard let existing = try await liveRecord(name) else { throw CloudKitError.notFound("record '\(name)' does not exist") }
                try await roles?.require(.write, on: existing.recordType, createdBy: existing.created.userRecordName, recordName: name)
                return try await delete(existing, cascading: false)
            }
        }
    }

    /// `body`'s value, or the ``Failure`` or CloudKit error it threw as the operation's failure;
    /// any other error (a storage fault, a key needed) fails the whole request.
    private static func caught<T>(_ body: () async throws -> T) async throws -> Result<T, Failure> {
        do {
            return try await .success(body())
        } catch let failure as Failure {
            return .failure(failure)
        } catch let error as CloudKitError {
            return .failure(Failure(error: error))
        }
    }

    /// Whether two versions of a record hold the same: type, parent and fields (encrypted ones
    /// compared opened, as their sealing differs each time).
    func sameContent(_ one: StoredRecord, _ other: StoredRecord) throws -> Bool {
        guard one.recordType == other.recordType, one.parent == other.parent, one.deleted == other.deleted else { return false }
        return try RecordMapper.decodeFields(opened(one).fieldsJSON) == RecordMapper.decodeFields(opened(other).fieldsJSON)
    }

    /// Runs `body` in a savepoint of its own: when it fails, its writes are undone, and so is
    /// what the writer learned and logged meanwhile.
    private func alone<T>(_ body: () async throws -> Result<T, Failure>) async throws -> Result<T, Failure> {
        var result: Result<T, Failure> = .failure(Failure(error: .init(.internalError, "not applied")))
        let schemaBefore = schema.recordTypes
        let loggedBefore = changeLog.count
        undo = [:]
        defer { undo = nil }
        do {
            try await transaction.withSavepoint {
                result = try await body()
                if case .failure = result { throw BatchFailed() }
            }
        } catch is BatchFailed {
            for (name, entry) in undo ?? [:] { known[name] = entry }
            schema.restore(schemaBefore)
            truncateLog(to: loggedBefore)
        }
        return result
    }

    private struct BatchFailed: Error {}

    /// Records a change, and its entry in the record log when history is kept; past
    /// `maxBatchBytes` the batch is refused.
    private func log(_ change: RecordChange, _ entry: @autoclosure () -> RecordLogEntry) throws {
        changeLog.append(change)
        if keepsHistory { history.append(entry()) }
        loggedBytes += change.fieldsJSON.count
        if loggedBytes > maxBatchBytes { throw BatchTooLarge(limit: maxBatchBytes) }
    }

    /// Forgets the changes after the first `count` (their operations were undone).
    private func truncateLog(to count: Int) {
        changeLog.removeLast(changeLog.count - count)
        if keepsHistory { history.removeLast(history.count - count) }
        loggedBytes = changeLog.reduce(0) { $0 + $1.fieldsJSON.count }
    }

    private func outcome(_ operation: PreparedOperation) async throws -> Result<StoredRecord, Failure> {
        if let invalid = operation.invalid { return .failure(Failure(error: invalid)) }
        if let settled = operation.settled { return .success(settled) }
        // Not through ``caught(_:)``: the hot path of every save keeps its one inlined call.
        do {
            return try await .success(apply(operation))
        } catch let failure as Failure {
            return .failure(failure)
        } catch let error as CloudKitError {
            return .failure(Failure(error: error))
        }
    }

    // MARK: - One operation

    // Inlined into its one caller, ``outcome(_:)``: an `async` call asks the task for its executor.
    @inline(__always)
    private func apply(_ prepared: PreparedOperation) async throws -> StoredRecord {
        let operation = prepared.operation
        let name = prepared.recordName
        let type = operation.operationType
        let createKey = type == .create ? operation.createKey : nil
        if type == .create, known[name] == nil {
            // The common case: a new name. The insert itself tells whether a row exists.
            let recordType = try recordTypeToCreate(operation)
            try await roles?.require(.create, on: recordType, createdBy: nil, recordName: name)
            return try await save(name: name, recordType: recordType, fields: operation.record.fields,
                                  sent: operation.record, encoded: prepared.encodedFields, sealedFor: prepared.sealed?.scope,
                                  parent: operation.record.parent?.recordName, created: nil, createKey: createKey, insertOnly: true)
        }
        guard let existing = try await liveRecord(name) else {
            switch type {
            case .create, .forceUpdate, .forceReplace:
                try refuseReplay(of: name, createKey: createKey)
                let recordType = try recordTypeToCreate(operation)
                try await roles?.require(.create, on: recordType, createdBy: nil, recordName: name)
                return try await save(name: name, recordType: recordType, fields: operation.record.fields,
                                      sent: operation.record, encoded: prepared.encodedFields, sealedFor: prepared.sealed?.scope,
                                      parent: operation.record.parent?.recordName, created: nil, createKey: createKey)
            case .update, .replace, .delete, .forceDelete:
                throw CloudKitError.notFound("record '\(name)' does not exist")
            }
        }
        if type == .create {
            throw try await exists(existing)
        }
        // Permission before the change tag: a conflict answer carries the record.
        try await roles?.require(.write, on: existing.recordType, createdBy: existing.created.userRecordName, recordName: name)
        if type.requiresChangeTag && operation.record.recordChangeTag != existing.changeTag {
            throw Failure(error: CloudKitError(.conflict, "record '\(name)' was changed on the server; merge into serverRecord and retry with its recordChangeTag"),
                          serverRecord: try await readable(existing))
        }
        if type.isDelete {
            return try await delete(existing)
        }
        if let recordType = operation.record.recordType, recordType != existing.recordType {
            throw CloudKitError.badRequest("record '\(name)' is not a '\(recordType)'")
        }
        var fields = operation.record.fields
        if !type.savesFieldsAsSent {
            fields = try RecordMapper.decodeFields(opened(existing).fieldsJSON).mapValues(Optional.some)
            for (key, value) in operation.record.fields { fields[key] = .some(value) }
        }
        let parent = operation.record.parent?.recordName ?? (type.savesFieldsAsSent ? nil : existing.parent)
        return try await save(name: name, recordType: existing.recordType, fields: fields, sent: operation.record, encoded: prepared.encodedFields,
                              sealedFor: prepared.sealed?.scope, parent: parent, created: existing, createKey: existing.createKey)
    }

    /// `NOT_FOUND` for a create sent again (its `createKey` is the tombstone's) after the
    /// record it made was deleted: applying it twice would bring the record back.
    private func refuseReplay(of name: String, createKey: String?) throws {
        guard let createKey, case let row?? = known[name], row.deleted, row.createKey == createKey else { return }
        throw CloudKitError.notFound("record '\(name)' was deleted after this create (createKey '\(createKey)') saved it")
    }

    /// The type of a record the operation creates; the caller then checks that the public
    /// database's roles let it create one (without a call to await elsewhere: every `await` asks
    /// the task for its executor).
    private func recordTypeToCreate(_ operation: RecordOperation) throws(CloudKitError) -> String {
        guard let recordType = operation.record.recordType else {
            throw CloudKitError.badRequest("\(operation.operationType.rawValue) of a new record needs a recordType")
        }
        return recordType
    }

    /// `EXISTS` for a create of a live record, with the server's record (if the caller may read
    /// it) so a client can tell a resent create (same content) from a real clash.
    private func exists(_ record: StoredRecord) async throws -> Failure {
        Failure(error: CloudKitError(.exists, "record '\(record.recordName)' already exists"), serverRecord: try await readable(record))
    }

    /// The record as a conflict or `EXISTS` answer carries it: only to a caller who may read it.
    private func readable(_ record: StoredRecord) async throws -> Record? {
        try await mayRead(record) ? RecordMapper.record(from: opened(record), desiredKeys: nil) : nil
    }

    /// The row with its encrypted fields opened (``SealedFields``), to merge into or answer with.
    private func opened(_ record: StoredRecord) throws -> StoredRecord {
        guard SealedFields.occur(in: record.fieldsJSON) else { return record }
        var opened = record
        opened.fieldsJSON = try SealedFields.open(record.fieldsJSON, recordName: record.recordName, with: requireSealer())
        return opened
    }

    /// The zone owner's data key, or ``SealedFields/KeyNeeded``.
    private func requireSealer() throws -> Sealer {
        guard let sealer, sealer.scope == .user(grant.owner) else { throw SealedFields.KeyNeeded(owner: grant.owner) }
        return sealer
    }

    /// Refuses encrypted fields where CloudKit has none: in the public database, and for a
    /// server-to-server key, which has no user and so no user's key.
    private func refuseEncryptedFields(recordType: String) throws(CloudKitError) {
        guard context.access.scope == .public else { return }
        if context.user == ServerKeyService.identity {
            throw CloudKitError(.authenticationRequired, "encrypted fields are sealed with a user's key, and a server-to-server key has no user")
        }
        throw CloudKitError.badRequest("a '\(recordType)' record's encrypted fields cannot be saved in the public database; encrypted fields are for the private and shared databases")
    }

    /// Writes the record. Fields set to nil are left out; encrypted ones (sent so in `sent`, or so
    /// in the schema) are sealed. `encoded` is `fields` encoded already
    /// (``PreparedOperation/encodedFields``), stored unless the schema converts a value, a field
    /// is sealed or an asset is attached. With `insertOnly`, the row must not be live already
    /// (`EXISTS`); a tombstone of the same name is replaced, unless the same create made it
    /// (``refuseReplay(of:createKey:)``). A restore passes the version's creation (`createdStamp`,
    /// when it brings a deleted record back) and `keepingAssets`: the version's files are
    /// attached again as it stored them, and its log entry is a ``RecordLogEntry/Change/restore``.
    private func save(name: String, recordType: String, fields: [String: FieldValue?], sent: Record, encoded: [UInt8]?,
                      sealedFor: KeyScope? = nil, parent: String?,
                      created existing: StoredRecord?, createKey: String?, insertOnly: Bool = false,
                      createdStamp: RecordStamp? = nil, keepingAssets: Bool = false) async throws -> StoredRecord {
        var fields = fields
        var encoded = encoded
        var encrypted = sent.encryptedFields
        if !encrypted.isEmpty { try refuseEncryptedFields(recordType: recordType) }
        let converted = if let checked = try schema.checkRead(recordType: recordType, fields: &fields, encrypted: &encrypted,
                                                             untyped: sent.untypedEncryptedFields) {
            checked
        } else {
            try await schema.check(recordType: recordType, fields: &fields, encrypted: &encrypted, untyped: sent.untypedEncryptedFields)
        }
        if converted { encoded = nil }
        if !encrypted.isEmpty {
            try refuseEncryptedFields(recordType: recordType)
            // Fields the batch sealed as it was read stand when the schema seals just those, and
            // with the zone owner's key.
            if sealedFor != .user(grant.owner) || encrypted != sent.encryptedFields {
                encoded = nil
            }
        }
        var assetChecksums = Set<String>()
        if fields.values.contains(where: { !($0?.assets.isEmpty ?? true) }) {
            if keepingAssets {
                assetChecksums = Set(fields.values.flatMap { $0?.assets ?? [] }.compactMap(\.fileChecksum))
            } else {
                (fields, assetChecksums) = try await AssetAttachment(transaction: transaction, zone: zone, user: context.user, recordName: name,
                                                                     mayRead: { try await self.mayRead(recordNamed: $0) }).resolve(fields)
            }
            encoded = nil
        }
        let fieldsJSON = try encoded ?? (encrypted.isEmpty ? RecordMapper.encodeFields(fields)
            : SealedFields.encode(fields, sealing: encrypted, recordName: name, with: requireSealer()))
        if fieldsJSON.count > maxRecordBytes {
            throw CloudKitError.limitExceeded("record '\(name)' is \(fieldsJSON.count) bytes; the limit is \(maxRecordBytes)")
        }
        var edges: [StoredReference] = []
        for (fieldName, value) in fields {
            for reference in value?.references ?? [] where reference.action == .deleteSelf || reference.action == .validate {
                if reference.action == .deleteSelf, reference.recordName != name {
                    try await refuseMoreDeleteSelfReferences(to: reference.recordName, from: name)
                }
                if reference.action == .validate, reference.recordName != name {
                    let target = try await liveRecord(reference.recordName)
                    guard let target, try await mayRead(target) else {
                        throw CloudKitError(.validatingReferenceError, "field '\(fieldName)': VALIDATE reference target '\(reference.recordName)' does not exist")
                    }
                }
                edges.append(StoredReference(sourceName: name, targetName: reference.recordName, action: reference.action!))
            }
        }
        var stored = StoredRecord(
            zoneRowID: zone.rowID, recordName: name, recordType: recordType, changeTag: "",
            fieldsJSON: fieldsJSON, created: existing?.created ?? createdStamp ?? context.stamp, modified: context.stamp,
            parent: parent, share: existing?.share, sequence: 0, deleted: false, createKey: createKey)
        try await changes.version(&stored)
        // A new name is not remembered: a later read in this transaction finds the inserted row.
        let inserted = insertOnly ? try await transaction.insertRecord(stored, references: edges) : false
        var replaced = existing
        if !inserted {
            if insertOnly {
                if let live = try await liveRecord(name) { throw try await exists(live) }
                try refuseReplay(of: name, createKey: createKey)
            }
            // A record brought back after its deletion replaces its tombstone: history shows the deletion.
            if replaced == nil, keepsHistory, case let row?? = known[name], row.deleted { replaced = row }
            try await store(stored, references: edges, replacingReferences: existing != nil)
        }
        try log(RecordChange(recordName: name, recordType: recordType, creator: stored.created.userRecordName,
                             trigger: existing == nil ? .create : .update,
                             fieldsJSON: fieldsJSON),
                RecordLogEntry(zoneRowID: zone.rowID, recordName: name, recordType: recordType, sequence: stored.sequence,
                               change: keepingAssets ? .restore : existing == nil ? .create : .update, stamp: context.stamp, replaced: replaced))
        let replacedAssets = existing.map { RecordMapper.hasAssets($0.fieldsJSON) } == true
        if replacedAssets, keepsHistory {
            try await transaction.keepAssetReferences(zoneRowID: zone.rowID, recordName: name, sequence: stored.sequence)
        }
        if !assetChecksums.isEmpty || replacedAssets {
            try await transaction.replaceAssetReferences(zoneRowID: zone.rowID, recordName: name, checksums: assetChecksums)
        }
        let indexed = if let known = schema.knownIndexedFields(of: recordType) { known } else { try await schema.indexedFields(of: recordType) }
        if !indexed.isEmpty {
            try await transaction.replaceIndexEntries(zoneRowID: zone.rowID, recordType: recordType, recordName: name,
                                                entries: QueryIndexing.entries(fields, indexed: indexed))
        }
        return stored
    }

    // MARK: - Restore

    /// Makes `version`, a kept version of a record of the zone (``RecordLogStore``), the record's
    /// current version as a new save with a new change tag: the schema checks it as any save,
    /// and every device fetches it as an ordinary change. A deleted record comes back with its
    /// first creation, and so does what its deletion took with it through `DELETE_SELF`
    /// references (`cascaded`), unless `bringingBackCascade` is false (a zone's restore decides
    /// each record itself). With `expected`, the record's current change tag (its tombstone's, if
    /// deleted) must be that, or the restore fails with `CONFLICT`.
    func restore(_ version: StoredRecord, expectedCurrentChangeTag expected: String?,
                 bringingBackCascade: Bool = true) async throws -> (StoredRecord, cascaded: [StoredRecord]) {
        let name = version.recordName
        guard !ShareKeys.isShareType(version.recordType) else {
            throw CloudKitError.badRequest("record '\(name)' is a share, which a restore never brings back; share the record again")
        }
        let current = try await liveRecord(name)
        let row = known[name] ?? nil
        if let expected, expected != row?.changeTag {
            throw Failure(error: CloudKitError(.conflict, "record '\(name)' was changed on the server; its current change tag is not \(expected)"),
                          serverRecord: try await current.asyncFlatMap { try await readable($0) })
        }
        if let current {
            try await roles?.require(.write, on: current.recordType, createdBy: current.created.userRecordName, recordName: name)
            if current.recordType != version.recordType {
                throw CloudKitError.badRequest("record '\(name)' is a '\(current.recordType)' now, not a '\(version.recordType)'")
            }
        } else {
            try await roles?.require(.create, on: version.recordType, createdBy: nil, recordName: name)
        }
        let record = try RecordMapper.record(from: opened(version), desiredKeys: nil)
        let restored = try await save(name: name, recordType: version.recordType, fields: record.fields, sent: record, encoded: nil,
                                      parent: version.parent, created: current, createKey: current?.createKey ?? row?.createKey,
                                      createdStamp: version.created, keepingAssets: true)
        guard bringingBackCascade, current == nil, let tombstone = row else { return (restored, []) }
        var cascaded: [StoredRecord] = []
        for deleted in try await transaction.cascadedDeletions(zoneRowID: zone.rowID, cause: name, after: tombstone.sequence) {
            guard let last = try await transaction.recordVersions(zoneRowID: zone.rowID, recordName: deleted.recordName,
                                                                  before: deleted.sequence + 1, limit: 1).first else { continue }
            cascaded.append(try await restore(last.record, expectedCurrentChangeTag: nil).0)
        }
        return (restored, cascaded)
    }

    /// CloudKit's limit on the `DELETE_SELF` references one record may be the target of.
    static let maxDeleteSelfReferences = 750

    /// `LIMIT_EXCEEDED` when `target` is already the target of ``maxDeleteSelfReferences``
    /// `DELETE_SELF` references from records other than `source`.
    private func refuseMoreDeleteSelfReferences(to target: String, from source: String) async throws {
        let existing = try await transaction.references(zoneRowID: zone.rowID, targetName: target)
            .count { $0.action == .deleteSelf && $0.sourceName != source }
        if existing >= Self.maxDeleteSelfReferences {
            throw CloudKitError.limitExceeded("record '\(target)' is already the target of \(Self.maxDeleteSelfReferences) DELETE_SELF references, CloudKit's limit")
        }
    }

    /// Turns the record into a tombstone, then (with `cascading`) its `DELETE_SELF` sources,
    /// transitively. A live `VALIDATE` reference to any of them fails the whole deletion. Returns
    /// the record's tombstone.
    ///
    /// As in CloudKit, a `DELETE_SELF` source is deleted with its target whoever may write it: a
    /// participant's deletion reaches the owner's records outside the share, and a public record
    /// another user pointed at takes theirs with it (readers hear of each deletion only as far as
    /// they may read the record). The owner's records outside a share still protect their
    /// `VALIDATE` targets, unnamed; in the public database only the caller's own records do.
    private func delete(_ record: StoredRecord, cascading: Bool = true) async throws -> StoredRecord {
        var pending = [record]
        var first: StoredRecord?
        var deleted = Set<String>()
        while let target = pending.popLast() {
            guard deleted.insert(target.recordName).inserted else { continue }
            var incoming: [(edge: StoredReference, source: StoredRecord)] = []
            for edge in try await transaction.references(zoneRowID: zone.rowID, targetName: target.recordName) where !deleted.contains(edge.sourceName) {
                guard let source = try await liveRecord(edge.sourceName) else { continue }
                // A DELETE_SELF source goes with its target whoever may write it, as in CloudKit. A
                // VALIDATE reference protects the owner's data whoever deletes; in the public
                // database only the caller's own records protect theirs (no one pins another's).
                if edge.action == .validate, context.access.scope == .public, source.created.userRecordName != context.user { continue }
                incoming.append((edge, source))
            }
            if let blocking = incoming.first(where: { $0.edge.action == .validate }) {
                let name = try await mayRead(blocking.source) ? "from '\(blocking.source.recordName)'" : "from another record"
                throw CloudKitError(.validatingReferenceError, "record '\(target.recordName)' is the target of a VALIDATE reference \(name)")
            }
            var tombstone = target
            tombstone.fieldsJSON = Array("{}".utf8)
            tombstone.deleted = true
            tombstone.modified = context.stamp
            try await changes.version(&tombstone)
            try await store(tombstone, references: [], replacingReferences: true)
            try log(RecordChange(recordName: target.recordName, recordType: target.recordType, creator: target.created.userRecordName, trigger: .delete,
                                 fieldsJSON: target.fieldsJSON),
                    RecordLogEntry(zoneRowID: zone.rowID, recordName: target.recordName, recordType: target.recordType,
                                   sequence: tombstone.sequence, change: .delete, stamp: context.stamp,
                                   cause: first == nil ? nil : record.recordName, replaced: target))
            if RecordMapper.hasAssets(target.fieldsJSON) {
                if keepsHistory {
                    try await transaction.keepAssetReferences(zoneRowID: zone.rowID, recordName: target.recordName, sequence: tombstone.sequence)
                }
                try await transaction.replaceAssetReferences(zoneRowID: zone.rowID, recordName: target.recordName, checksums: [])
            }
            if try await !schema.indexedFields(of: tombstone.recordType).isEmpty {
                try await transaction.replaceIndexEntries(zoneRowID: zone.rowID, recordType: tombstone.recordType,
                                                    recordName: tombstone.recordName, entries: [])
            }
            if first == nil { first = tombstone }
            if cascading { pending += incoming.filter { $0.edge.action == .deleteSelf }.map(\.source) }
        }
        return first ?? record
    }

    /// Whether the caller may read a record (be told its name, or given its fields): in the
    /// public database by the security roles, elsewhere by ownership and shares.
    private func mayRead(_ record: StoredRecord) async throws -> Bool {
        if roles != nil {
            return try await roles!.permissions(on: record.recordType, createdBy: record.created.userRecordName).contains(.read)
        }
        return try await grant.permission(forRecord: record.recordName, in: transaction).canRead
    }

    /// Whether the caller may read the named record of the zone.
    private func mayRead(recordNamed name: String) async throws -> Bool {
        guard let record = try await liveRecord(name) else { return false }
        return try await mayRead(record)
    }
}
