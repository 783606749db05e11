/// A driver's transaction as the statements written once see it: it runs an ``SQLStatement``
/// in its ``SQLDialect`` and hands back rows as ``SQLRow``s.
///
/// The stores' shared implementations (`extension AccountStore where Self: SQLDatabase`…) are
/// written against this, so a rule or a statement exists once for both backends.
package protocol SQLDatabase {
    /// The SQL the driver speaks.
    var dialect: SQLDialect { get }
    /// Runs a statement and returns every row of its result.
    func fetch(_ statement: SQLStatement) async throws -> [SQLRow]
    /// Runs a statement whose rows, if any, are not needed.
    func run(_ statement: SQLStatement) async throws
    /// Runs a statement that selects ``RecordColumns/names`` and then `extraColumns` more, and
    /// hands each row to `body` as it is read (the driver's fast path for record rows); `body`
    /// answers false to stop reading.
    func forEachRecord(_ statement: SQLStatement, extraColumns: Int, _ body: (StoredRecord, [SQLValue]) throws -> Bool) async throws
}

/// The records table's columns, in the order record rows are read and written.
package enum RecordColumns {
    package static let names = """
        zone_id, record_name, record_type, change_tag, fields, created_at, created_by, created_device,
        modified_at, modified_by, modified_device, parent, share, sequence, deleted, create_key
        """
    /// How many ``names`` there are: the columns a statement selects after them start here.
    package static let count = 16
}

extension StoredRecord {
    /// The values of ``RecordColumns/names``, in order, as a driver binds them to save the record.
    package var columnValues: [SQLValue] {
        [.integer(zoneRowID), .text(recordName), .text(recordType), .text(changeTag), .blob(fieldsJSON),
         .integer(created.timestamp), .text(created.userRecordName), .text(created.deviceID),
         .integer(modified.timestamp), .text(modified.userRecordName), .text(modified.deviceID),
         parent.sqlValue, share.sqlValue, .integer(sequence), .boolean(deleted), createKey.sqlValue]
    }
}

extension SQLDatabase {
    /// The first row, if there is one.
    package func fetchOne(_ statement: SQLStatement) async throws -> SQLRow? {
        try await fetch(statement).first
    }

    /// Runs a statement ending in `RETURNING …` and tells how many rows it changed.
    package func changedRowCount(_ statement: SQLStatement) async throws -> Int {
        try await fetch(statement).count
    }

    /// The records a statement selects (``RecordColumns/names``, then `extraColumns` more, each
    /// row's in `extra`). With `maxBytes`, reading stops (`cutShort`) once their fields add up to
    /// more than that and two rows are read (the one past a page's limit tells that more come), so
    /// a page never loads far past what it can answer.
    package func fetchRecords(_ statement: SQLStatement, extraColumns: Int = 0,
                              maxBytes: Int = .max) async throws -> (records: [StoredRecord], extra: [[SQLValue]], cutShort: Bool) {
        var records: [StoredRecord] = []
        var extra: [[SQLValue]] = []
        var bytes = 0
        var cutShort = false
        try await forEachRecord(statement, extraColumns: extraColumns) { record, values in
            records.append(record)
            extra.append(values)
            bytes += record.fieldsJSON.count
            cutShort = bytes > maxBytes && records.count >= 2
            return !cutShort
        }
        return (records, extra, cutShort)
    }
}
