import StratusCore
import Synchronization

/// The operations of one `records/modify`, read, checked and encoded beside its writer.
///
/// Reading an operation from its JSON, checking what needs no database and encoding the fields
/// it saves cost about as much as writing it. So a batch is cut into chunks of ``chunkSize``
/// operations (the first of ``firstChunkSize``), each prepared by a task of its own from the
/// moment the request has been parsed; the writer takes the chunks in order and inserts the first records while later ones are still
/// being read. A chunk is prepared once: a write retried from the start takes the same chunks.
/// A chunk's task starts when the one before has finished, so that a batch takes one core beside
/// the writer's, and it checks its record names against those before it.
///
/// A request-level mistake (an operation that cannot be read at all, a record named twice) fails
/// the request, as before its first chunk was written: the writer throws, and its transaction
/// rolls back.
struct PreparedBatch: Sendable {
    /// Operations a chunk holds.
    static let chunkSize = 50
    /// Operations the first chunk holds: the writer waits for it alone, so it is small.
    static let firstChunkSize = 10

    /// The batch's operations.
    let count: Int
    /// Whether an operation saves or deletes a share: ``ShareOperations`` plans such a batch
    /// whole, so it is prepared whole before it is applied.
    let mentionsShares: Bool
    private let chunks: [Task<[PreparedOperation], any Error>]

    /// A batch whose operations are still JSON, as the request carried them: each is built from
    /// its text and read in its chunk's task. With `sealer`, the fields sent encrypted are sealed
    /// with it as they are read.
    init(reading operations: JSONElements, zoneName: String, sealer: Sealer? = nil) {
        let mentionsShares = (0..<operations.count).contains { index in
            operations.mayHoldFlaggedWord(index) && Self.mentionsShare((try? operations.element(index)) ?? .null)
        }
        self.init(count: operations.count, zoneName: zoneName, sealer: sealer, mentionsShares: mentionsShares) { index throws(CloudKitError) in
            try RecordOperation(json: operations.element(index))
        }
    }

    /// A batch of operations already read (the console's, the command line's).
    init(_ operations: [RecordOperation], zoneName: String, sealer: Sealer? = nil) {
        self.init(count: operations.count, zoneName: zoneName, sealer: sealer,
                  mentionsShares: operations.contains { Self.namesShare(type: $0.record.recordType, name: $0.record.recordName) }) { index in
            operations[index]
        }
    }

    private init(count: Int, zoneName: String, sealer: Sealer?, mentionsShares: Bool,
                 operation: @escaping @Sendable (Int) throws(CloudKitError) -> RecordOperation) {
        self.count = count
        self.mentionsShares = mentionsShares
        let names = Names()
        var chunks: [Task<[PreparedOperation], any Error>] = []
        var start = 0
        while start < count {
            let previous = chunks.last
            let end = min(start + (start == 0 ? Self.firstChunkSize : Self.chunkSize), count)
            chunks.append(Task { [start] in
                // A request-level mistake before this chunk fails it too.
                _ = try await previous?.value
                let operations = try (start..<end).map { index in
                    Self.prepare(try operation(index), zoneName: zoneName, sealer: sealer)
                }
                try names.insert(operations)
                return operations
            })
            start = end
        }
        self.chunks = chunks
    }

    /// The record names of the chunks prepared so far: one chunk's task at a time adds to them.
    private final class Names: Sendable {
        private let seen = Mutex(Set<String>())

        /// Adds the operations' names; `BAD_REQUEST` for a name already seen.
        func insert(_ operations: [PreparedOperation]) throws(CloudKitError) {
            try seen.withLock { seen throws(CloudKitError) in
                // An operation without a name has failed already (it needed one).
                for operation in operations where !operation.recordName.isEmpty && !seen.insert(operation.recordName).inserted {
                    throw .badRequest("record '\(operation.recordName)' appears in more than one operation; one operation per record is allowed")
                }
            }
        }
    }

    /// Chunks in the batch.
    var chunkCount: Int { chunks.count }

    /// The operations of chunk `index`, once prepared.
    func chunk(_ index: Int) async throws -> [PreparedOperation] {
        try await chunks[index].value
    }

    /// Every operation, once all are prepared.
    func all() async throws -> [PreparedOperation] {
        var operations: [PreparedOperation] = []
        operations.reserveCapacity(count)
        for index in chunks.indices {
            operations += try await chunk(index)
        }
        return operations
    }

    /// What a writer applies, a chunk at a time: a batch's chunks as they are prepared, or a
    /// batch prepared whole (one chunk).
    struct Chunks {
        private let batch: PreparedBatch?
        private var whole: [PreparedOperation]?
        private var index = 0

        init(_ batch: PreparedBatch) {
            self.batch = batch
        }

        init(whole operations: [PreparedOperation]) {
            batch = nil
            whole = operations
        }

        /// The next chunk's operations, or nil after the last.
        mutating func next() async throws -> [PreparedOperation]? {
            if let operations = whole {
                whole = nil
                return operations
            }
            guard let batch, index < batch.chunkCount else { return nil }
            defer { index += 1 }
            return try await batch.chunk(index)
        }
    }

    // MARK: - One operation

    /// Checks what can be checked without the database and encodes the fields a save writes as
    /// sent (sealing those sent encrypted, given the key). A bad operation fails only itself.
    private static func prepare(_ operation: RecordOperation, zoneName: String, sealer: Sealer?) -> PreparedOperation {
        var prepared = PreparedOperation(operation: operation)
        if prepared.recordName.isEmpty {
            if operation.operationType.isDelete || operation.operationType.requiresChangeTag {
                prepared.invalid = .badRequest("\(operation.operationType.rawValue) needs a recordName")
                return prepared
            }
            prepared.recordName = SecretGenerator.uuid()
        }
        if let unreadable = operation.unreadable {
            prepared.invalid = unreadable
            return prepared
        }
        do throws(CloudKitError) {
            try validate(prepared, zoneName: zoneName)
        } catch {
            prepared.invalid = error
            return prepared
        }
        guard operation.operationType.savesFieldsAsSent else { return prepared }
        let record = operation.record
        if record.encryptedFields.isEmpty {
            prepared.encodedFields = RecordMapper.encodeFields(record.fields)
        } else if let sealer, let sealed = try? SealedFields.encode(record.fields, sealing: record.encryptedFields, recordName: prepared.recordName,
                                                                    with: sealer) {
            // The writer keeps them if the schema seals just these fields; else it seals again.
            var answered = WireWriter(capacity: sealed.count)
            answered.fields(record.fields, encrypted: record.encryptedFields)
            prepared.encodedFields = sealed
            prepared.sealed = PreparedSealing(scope: sealer.scope, answered: answered.bytes)
        }
        return prepared
    }

    private static func validate(_ prepared: PreparedOperation, zoneName: String) throws(CloudKitError) {
        let record = prepared.operation.record
        try NameRules.validateRecordName(prepared.recordName)
        if prepared.operation.operationType.requiresChangeTag && (record.recordChangeTag ?? "").isEmpty {
            throw .badRequest("\(prepared.operation.operationType.rawValue) needs the record's recordChangeTag")
        }
        if prepared.operation.operationType.isDelete { return }
        if let recordType = record.recordType {
            try NameRules.validateFieldName(recordType, kind: "recordType")
            if recordType.hasPrefix("_") { throw .badRequest("recordType '\(recordType)' is reserved") }
        } else if prepared.operation.operationType == .create {
            throw .badRequest("create needs a recordType")
        }
        for (name, value) in record.fields {
            try NameRules.validateFieldName(name)
            for reference in value?.references ?? [] {
                if let target = reference.zoneID?.zoneName, target != zoneName {
                    throw .badRequest("field '\(name)': references cannot point into another zone")
                }
            }
        }
        if let parent = record.parent { try NameRules.validateFieldName(parent.recordName, kind: "parent recordName") }
    }

    /// Whether an operation's JSON names a share record (by its type, or the zone share's name).
    private static func mentionsShare(_ json: JSONValue) -> Bool {
        guard case .object(let operation) = json, case .object(let record)? = operation["record"] else { return false }
        let type: String? = if case .string(let type)? = record["recordType"] { type } else { nil }
        let name: String? = if case .string(let name)? = record["recordName"] { name } else { nil }
        return namesShare(type: type, name: name)
    }

    private static func namesShare(type: String?, name: String?) -> Bool {
        ShareKeys.isShareType(type) || name == ShareKeys.zoneShareName
    }
}

extension RecordOperationType {
    /// Whether a save of this kind writes the fields the operation carries, as they are (an
    /// update merges them into the stored ones instead).
    var savesFieldsAsSent: Bool {
        switch self {
        case .create, .replace, .forceReplace: true
        case .update, .forceUpdate, .delete, .forceDelete: false
        }
    }
}
