import StratusCore

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
    /// hands each row to `body` as it is read (the driver's fast path for record rows), its
    /// stamps' actors by id only (``RowActors``); `body` answers false to stop reading.
    func forEachRecord(_ statement: SQLStatement, extraColumns: Int, _ body: (StoredRecord, RowActors, [SQLValue]) throws -> Bool) async throws
}

/// The ids of a record row's creator and modifier (``RecordActors``), which the row's stamps
/// name once ``SQLDatabase/fetchRecords(_:extraColumns:maxBytes:)`` has looked them up.
package struct RowActors: Sendable {
    package var created: Int64
    package var modified: Int64

    package init(created: Int64, modified: Int64) {
        self.created = created
        self.modified = modified
    }
}

/// The columns of `record_rows` (record format 2), in the order record rows are read and written.
/// `created_by` and `modified_by` are ``RecordActors`` ids; `change_tag` is NULL when the tag is
/// the one ``StoredRecord/derivedChangeTag(of:)`` gives (every tag but an archive's, loaded
/// under new sequences).
package enum RecordColumns {
    package static let names = """
        zone_id, record_name, record_type, change_tag, fields, created_at, created_by,
        modified_at, modified_by, parent, share, sequence, deleted, create_key
        """
    /// How many ``names`` there are: the columns a statement selects after them start here.
    package static let count = 14
}

extension StoredRecord {
    /// The values of ``RecordColumns/names``, in order, as a driver binds them to save the record.
    package var columnValues: [SQLValue] {
        [.integer(zoneRowID), .text(recordName), .text(recordType), storedChangeTag.sqlValue, .blob(fieldsJSON),
         .integer(created.timestamp), .integer(RecordActors.id(of: created)),
         .integer(modified.timestamp), .integer(RecordActors.id(of: modified)),
         parent.sqlValue, share.sqlValue, .integer(sequence), .boolean(deleted), createKey.sqlValue]
    }

    /// The change tag as `record_rows` keeps it: nil when it is the sequence's own.
    package var storedChangeTag: String? {
        changeTag == Self.derivedChangeTag(of: sequence) ? nil : changeTag
    }

    /// The change tag a version gets from its sequence: short, opaque and new on every write (the
    /// sequence in base 36), which `record_rows` leaves out.
    package static func derivedChangeTag(of sequence: Int64) -> String {
        guard sequence > 0 else { return String(sequence, radix: 36) }
        // Written by hand into at most 13 bytes, a string kept inline: `String(_:radix:)` took 7% of
        // the writer's samples (twice a record: its version, and the check before its row is written).
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 13) { digits in
            var value = UInt64(sequence)
            var start = digits.count
            repeat {
                start -= 1
                let digit = UInt8(value % 36)
                digits[start] = digit < 10 ? UInt8(ascii: "0") + digit : UInt8(ascii: "a") + digit - 10
                value /= 36
            } while value > 0
            return String(decoding: UnsafeBufferPointer(rebasing: digits[start...]), as: UTF8.self)
        }
    }

    /// A row as a driver reads it, before ``SQLDatabase/fetchRecords(_:extraColumns:maxBytes:)``
    /// names its actors: the stamps hold only their times.
    package init(zoneRowID: Int64, recordName: String, recordType: String, storedChangeTag: String?, fieldsJSON: [UInt8],
                 createdAt: Int64, modifiedAt: Int64, parent: String?, share: String?, sequence: Int64, deleted: Bool, createKey: String?) {
        self.init(zoneRowID: zoneRowID, recordName: recordName, recordType: recordType,
                  changeTag: storedChangeTag ?? Self.derivedChangeTag(of: sequence), fieldsJSON: fieldsJSON,
                  created: RecordStamp(timestamp: createdAt, userRecordName: "", deviceID: ""),
                  modified: RecordStamp(timestamp: modifiedAt, userRecordName: "", deviceID: ""),
                  parent: parent, share: share, sequence: sequence, deleted: deleted, createKey: createKey)
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
        var actors: [RowActors] = []
        try await forEachRecord(statement, extraColumns: extraColumns) { record, rowActors, values in
            records.append(record)
            actors.append(rowActors)
            extra.append(values)
            bytes += record.fieldsJSON.count
            cutShort = bytes > maxBytes && records.count >= 2
            return !cutShort
        }
        try await nameActors(of: &records, actors)
        return (records, extra, cutShort)
    }

    /// The users and devices actor ids name: from this process's cache, and for the ids it
    /// lacks, from `record_actors` in one statement.
    package func actors(named ids: some Sequence<Int64>) async throws -> [Int64: RecordActor] {
        var (known, unknown) = RecordActors.known(ids)
        if !unknown.isEmpty {
            let read = try await namedActors(unknown)
            RecordActors.remember(read)
            known.merge(read) { first, _ in first }
        }
        return known
    }

    /// Fills the rows' stamps with the users and devices their actor ids name (``actors(named:)``).
    private func nameActors(of records: inout [StoredRecord], _ actors: [RowActors]) async throws {
        guard !records.isEmpty else { return }
        let known = try await self.actors(named: actors.lazy.flatMap { [$0.created, $0.modified] })
        for index in records.indices {
            if let creator = known[actors[index].created] {
                records[index].created.userRecordName = creator.userRecordName
                records[index].created.deviceID = creator.deviceID
            }
            if let modifier = known[actors[index].modified] {
                records[index].modified.userRecordName = modifier.userRecordName
                records[index].modified.deviceID = modifier.deviceID
            }
        }
    }
}
