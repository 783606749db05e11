import GRDB
import StratusCore
import StratusServer

/// ``StorageTransaction`` over one GRDB database connection, inside a transaction GRDB opened.
///
/// The change sequence is read once and handed out from memory; ``storeChangeSequence()`` writes
/// it back before the transaction commits.
final class SQLiteTransaction: StorageTransaction {
    let db: Database
    let storeEpoch: Int64
    private var sequence: (stored: Int64, current: Int64)?
    private var insertRecordStatement: Statement?
    private var replaceRecordStatement: Statement?
    private var appendLogStatement: Statement?
    /// The actors this transaction stored, unless a savepoint undid them since.
    private var storedActors: Set<Int64> = []
    private var creators = RecordActorMemo()
    private var modifiers = RecordActorMemo()

    init(db: Database, epoch: Int64) {
        self.db = db
        self.storeEpoch = epoch
    }

    // MARK: Change sequence

    func currentChangeSequence() throws -> Int64 {
        if let sequence { return sequence.current }
        let stored = try Int64.fetchOne(db.cachedStatement(sql: "SELECT value FROM change_sequence WHERE id = 1")) ?? 0
        sequence = (stored, stored)
        return stored
    }

    func nextChangeSequence() throws -> Int64 {
        let next = try currentChangeSequence() + 1
        sequence?.current = next
        return next
    }

    func advanceChangeSequence(to value: Int64) throws {
        if try currentChangeSequence() < value { sequence?.current = value }
    }

    /// Writes the sequence handed out by this transaction back to its row.
    func storeChangeSequence() throws {
        guard let sequence, sequence.current != sequence.stored else { return }
        try db.cachedStatement(sql: "UPDATE change_sequence SET value = ? WHERE id = 1").execute(arguments: [sequence.current])
        self.sequence = (sequence.current, sequence.current)
    }

    // MARK: Records

    /// A row of ``RecordColumns/names``, its actors by id.
    static func record(_ row: DirectStatement) -> (StoredRecord, RowActors) {
        (StoredRecord(zoneRowID: row.int64(0), recordName: row.text(1), recordType: row.text(2), storedChangeTag: row.optionalText(3),
                      fieldsJSON: row.bytes(4), createdAt: row.int64(5), modifiedAt: row.int64(7), parent: row.optionalText(9),
                      share: row.optionalText(10), sequence: row.int64(11), deleted: row.bool(12), createKey: row.optionalText(13)),
         RowActors(created: row.int64(6), modified: row.int64(8)))
    }

    func saveRecord(_ record: StoredRecord, references: [StoredReference], replacingReferences: Bool) async throws {
        let actors = actorIDs(of: record)
        if !stored(actors) { try await store(actors, of: record) }
        try write(record, actors: actors, replacing: true)
        if replacingReferences {
            try db.cachedStatement(sql: "DELETE FROM record_references WHERE zone_id = ? AND source_name = ?")
                .execute(arguments: [record.zoneRowID, record.recordName])
        }
        try insert(references, zoneRowID: record.zoneRowID)
    }

    func insertRecord(_ record: StoredRecord, references: [StoredReference]) async throws -> Bool {
        let actors = actorIDs(of: record)
        if !stored(actors) { try await store(actors, of: record) }
        do {
            try write(record, actors: actors, replacing: false)
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
            return false
        }
        try insert(references, zoneRowID: record.zoneRowID)
        return true
    }

    /// Each statement runs at once, in this process: an insert finds a taken name as cheaply as a read.
    var holdsSaves: Bool { false }

    /// The ids of the record's creator and modifier (``RecordActorMemo``).
    private func actorIDs(of record: StoredRecord) -> RowActors {
        RowActors(created: creators.id(of: record.created), modified: modifiers.id(of: record.modified))
    }

    /// Whether this transaction stored both actors already: a batch of one user's saves stores
    /// them once, and the others write without an `await` (each asks the task for its executor).
    private func stored(_ actors: RowActors) -> Bool {
        storedActors.contains(actors.created) && storedActors.contains(actors.modified)
    }

    /// Stores the record's actors, `actors` by id, in this transaction (``RecordActors``).
    private func store(_ actors: RowActors, of record: StoredRecord) async throws {
        try await storeActors(of: [record])
        storedActors.insert(actors.created)
        storedActors.insert(actors.modified)
    }

    private static let insertRecordSQL = "INSERT INTO record_rows (\(RecordColumns.names)) VALUES (\(databaseQuestionMarks(count: RecordColumns.count)))"
    private static let replaceRecordSQL = "INSERT OR REPLACE INTO record_rows (\(RecordColumns.names)) VALUES (\(databaseQuestionMarks(count: RecordColumns.count)))"

    private func write(_ record: StoredRecord, actors: RowActors, replacing: Bool) throws {
        // The two statements are kept for the transaction: GRDB's cache is keyed by the SQL
        // text, which would be hashed anew for every saved record.
        let statement: Statement
        if replacing {
            statement = try replaceRecordStatement ?? db.cachedStatement(sql: Self.replaceRecordSQL)
            replaceRecordStatement = statement
        } else {
            statement = try insertRecordStatement ?? db.cachedStatement(sql: Self.insertRecordSQL)
            insertRecordStatement = statement
        }
        // Bound in ``RecordColumns/names``' order, each value straight from the record.
        var row = DirectStatement(statement)
        row.bind(record.zoneRowID)
        row.bind(record.recordName)
        row.bind(record.recordType)
        row.bind(record.storedChangeTag)
        row.bind(record.fieldsJSON)
        row.bind(record.created.timestamp)
        row.bind(actors.created)
        row.bind(record.modified.timestamp)
        row.bind(actors.modified)
        row.bind(record.parent)
        row.bind(record.share)
        row.bind(record.sequence)
        row.bind(record.deleted)
        row.bind(record.createKey)
        try row.execute(in: db)
    }

    private static let appendLogSQL = "INSERT INTO record_log (\(RecordLogColumns.names)) VALUES (\(databaseQuestionMarks(count: RecordLogColumns.count)))"

    /// The record log's entries through one kept statement, bound straight (the shared multi-row
    /// `INSERT`, bound value by value through GRDB, cost a create a quarter of its speed).
    func appendRecordLog(_ entries: [RecordLogEntry]) throws {
        let statement = try appendLogStatement ?? db.cachedStatement(sql: Self.appendLogSQL)
        appendLogStatement = statement
        for entry in entries {
            var row = DirectStatement(statement)
            for value in entry.columnValues { row.bind(value) }
            try row.execute(in: db)
        }
    }

    private func insert(_ references: [StoredReference], zoneRowID: Int64) throws {
        guard !references.isEmpty else { return }
        let insert = try db.cachedStatement(sql: """
            INSERT OR IGNORE INTO record_references (zone_id, target_name, source_name, action) VALUES (?, ?, ?, ?)
            """)
        for reference in references {
            try insert.execute(arguments: [zoneRowID, reference.targetName, reference.sourceName, reference.action.rawValue])
        }
    }

    func withSavepoint<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await db.inCachedSavepoint(body)
        } catch {
            storedActors.removeAll()
            throw error
        }
    }
}
