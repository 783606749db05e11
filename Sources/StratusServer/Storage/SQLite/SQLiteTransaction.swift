import Foundation
import GRDB
import StratusCore

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

    init(db: Database, epoch: Int64) {
        self.db = db
        self.storeEpoch = epoch
    }

    /// SQLite runs in the process: a statement costs no round trip, and saves are written at once.
    var holdsRecordWrites: Bool { false }

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

    static let recordColumns = """
        zone_id, record_name, record_type, change_tag, fields, created_at, created_by, created_device,
        modified_at, modified_by, modified_device, parent, share, sequence, deleted, create_key
        """
    /// How many columns ``recordColumns`` names: what a query selects after them starts there.
    static let recordColumnCount = 16

    static func record(_ row: DirectStatement) -> StoredRecord {
        StoredRecord(
            zoneRowID: row.int64(0), recordName: row.text(1), recordType: row.text(2), changeTag: row.text(3), fieldsJSON: row.bytes(4),
            created: RecordStamp(timestamp: row.int64(5), userRecordName: row.text(6), deviceID: row.text(7)),
            modified: RecordStamp(timestamp: row.int64(8), userRecordName: row.text(9), deviceID: row.text(10)),
            parent: row.optionalText(11), share: row.optionalText(12), sequence: row.int64(13), deleted: row.bool(14),
            createKey: row.optionalText(15))
    }

    /// The rows of a record query whose arguments `bind` sets; with `maxBytes`, it stops once their fields add up to more
    /// than that and two rows are read (the one past the limit tells that more come), so a page
    /// never loads far past what it can answer.
    func fetchRecords(_ sql: String, capacity: Int = 0, maxBytes: Int = .max, bind: (inout DirectStatement) -> Void) throws -> [StoredRecord] {
        var statement = DirectStatement(try db.cachedStatement(sql: sql))
        bind(&statement)
        var rows: [StoredRecord] = []
        rows.reserveCapacity(capacity)
        var bytes = 0
        while try statement.next(in: db) {
            let row = Self.record(statement)
            rows.append(row)
            bytes += row.fieldsJSON.count
            if bytes > maxBytes && rows.count >= 2 {
                statement.reset()
                break
            }
        }
        return rows
    }

    func record(zoneRowID: Int64, recordName: String) throws -> StoredRecord? {
        try fetchRecords("SELECT \(Self.recordColumns) FROM records WHERE zone_id = ? AND record_name = ?") {
            $0.bind(zoneRowID)
            $0.bind(recordName)
        }.first
    }

    func records(zoneRowID: Int64, recordNames: [String]) throws -> [StoredRecord] {
        var rows: [StoredRecord] = []
        for start in stride(from: 0, to: recordNames.count, by: 500) {
            let names = recordNames[start..<min(start + 500, recordNames.count)]
            rows += try fetchRecords("""
                SELECT \(Self.recordColumns) FROM records WHERE zone_id = ? AND record_name IN (\(databaseQuestionMarks(count: names.count)))
                """, capacity: names.count) { statement in
                statement.bind(zoneRowID)
                for name in names { statement.bind(name) }
            }
        }
        return rows
    }

    func saveRecord(_ record: StoredRecord, references: [StoredReference], replacingReferences: Bool) throws {
        try write(record, replacing: true)
        if replacingReferences {
            try db.cachedStatement(sql: "DELETE FROM record_references WHERE zone_id = ? AND source_name = ?")
                .execute(arguments: [record.zoneRowID, record.recordName])
        }
        try insert(references, zoneRowID: record.zoneRowID)
    }

    func insertRecord(_ record: StoredRecord, references: [StoredReference]) throws -> Bool {
        do {
            try write(record, replacing: false)
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
            return false
        }
        try insert(references, zoneRowID: record.zoneRowID)
        return true
    }

    private static let insertRecordSQL = "INSERT INTO records (\(recordColumns)) VALUES (\(databaseQuestionMarks(count: recordColumnCount)))"
    private static let replaceRecordSQL = "INSERT OR REPLACE INTO records (\(recordColumns)) VALUES (\(databaseQuestionMarks(count: recordColumnCount)))"

    private func write(_ record: StoredRecord, replacing: Bool) throws {
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
        var row = DirectStatement(statement)
        row.bind(record.zoneRowID)
        row.bind(record.recordName)
        row.bind(record.recordType)
        row.bind(record.changeTag)
        row.bind(record.fieldsJSON)
        row.bind(record.created.timestamp)
        row.bind(record.created.userRecordName)
        row.bind(record.created.deviceID)
        row.bind(record.modified.timestamp)
        row.bind(record.modified.userRecordName)
        row.bind(record.modified.deviceID)
        row.bind(record.parent)
        row.bind(record.share)
        row.bind(record.sequence)
        row.bind(record.deleted)
        row.bind(record.createKey)
        try row.execute(in: db)
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

    func recordChanges(zoneRowID: Int64, after sequence: Int64, skippingDeletionsThrough horizon: Int64, limit: Int,
                       maxBytes: Int, recordTypes: [String]?) throws -> [StoredRecord] {
        let types = recordTypes ?? []
        let typeFilter = types.isEmpty ? "" : " AND record_type IN (\(databaseQuestionMarks(count: types.count)))"
        let horizonFilter = horizon > sequence ? " AND NOT (deleted = 1 AND sequence <= ?)" : ""
        return try fetchRecords("""
            SELECT \(Self.recordColumns) FROM records WHERE zone_id = ? AND sequence > ?\(horizonFilter)\(typeFilter)
            ORDER BY sequence LIMIT ?
            """, capacity: min(limit, 256), maxBytes: maxBytes) { statement in
            statement.bind(zoneRowID)
            statement.bind(sequence)
            if horizon > sequence { statement.bind(horizon) }
            for type in types { statement.bind(type) }
            statement.bind(Int64(limit))
        }
    }

    func withSavepoint<T>(_ body: () async throws -> T) async throws -> T {
        try await db.inCachedSavepoint(body)
    }
}
