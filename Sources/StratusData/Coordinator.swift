import Foundation
import GRDB
import StratusClient
import StratusCore
import StratusSync
import Synchronization

/// The synced database's side of its sync engines (their ``SyncEngineDelegate``): it reads rows
/// when an engine asks for records, and applies what the server has now to the tables inside the
/// engine's own transactions.
final class Coordinator: SyncEngineDelegate, Sendable {
    let conversions: [String: RowConversion]
    private let byType: [String: RowConversion]
    /// During ``SyncedDatabase/forceFullSync()``: the record names fetched.
    private let census = Mutex<Set<String>?>(nil)

    /// Whether rows shared by others live in the tables too, in their owners' zones.
    let sharing: Bool
    /// The app's handler of fetched changes, called in their transaction once they are applied.
    let didApplyFetchedChanges: SyncedDatabase.FetchedChangesHandler?

    init(conversions: [String: RowConversion], sharing: Bool, didApplyFetchedChanges: SyncedDatabase.FetchedChangesHandler?) {
        self.conversions = conversions
        self.sharing = sharing
        self.didApplyFetchedChanges = didApplyFetchedChanges
        byType = Dictionary(uniqueKeysWithValues: conversions.values.map { ($0.table.recordType, $0) })
    }

    // MARK: The engine asks for a record

    /// The record for a row the engine is about to send; nil if the row is gone. Throws if the
    /// database cannot be read, so the engine keeps the change for a later send.
    func record(for id: RecordID, syncEngine: SyncEngine) async throws -> CloudRecord? {
        guard case .database(let writer, _) = syncEngine.configuration.state else { return nil }
        let conversions = self.conversions
        return try await writer.read { db in
            // A row the server has is known by its table; a new one is looked for in the tables
            // whose rows live in its zone.
            var tables = try String.fetchAll(db, sql: "SELECT table_name FROM _stratus_rows WHERE row_id = ? AND zone_name = ? AND owner = ?",
                                             arguments: [id.recordName, id.zoneID.zoneName, id.zoneID.ownerRecordName ?? ""])
            if tables.isEmpty { tables = conversions.values.filter { $0.table.admits(id.zoneID) }.map(\.table.tableName).sorted() }
            for name in tables {
                guard let conversion = conversions[name],
                      let row = try Row.fetchOne(db, sql: "SELECT * FROM \"\(name)\" WHERE \"\(conversion.table.primaryKey)\" = ?",
                                                 arguments: [id.recordName]) else { continue }
                let unknown = try Data.fetchOne(db, sql: "SELECT unknown_fields FROM _stratus_rows WHERE table_name = ? AND row_id = ?",
                                                arguments: [name, id.recordName])
                    .flatMap { try? Record.readFields(JSONParser.parse(Array($0))).compactMapValues { $0 } } ?? [:]
                return conversion.record(from: row, zoneID: id.zoneID, unknownFields: unknown)
            }
            return nil
        }
    }

    /// Everything the tables need arrives through ``applyServerChanges(_:in:)``.
    func handleEvent(_ event: SyncEngine.Event, syncEngine: SyncEngine) async {}

    // MARK: The engine applies what the server has

    func applyServerChanges(_ changes: ServerChanges, in db: GRDB.Database) throws -> [RecordID: String] {
        // The engine has set the flag the read-only guards let the server's version of a row in by.
        switch changes.origin {
        case .fetch:
            census.withLock { $0?.formUnion(changes.modifications.map(\.recordID.recordName)) }
            let refused = try applyIsolating(changes.modifications, deletions: changes.deletions.map { ($0.recordID.recordName, $0.recordType) }, in: db)
            try removeZones(Array(changes.removedZones.keys), in: db)
            try didApplyFetchedChanges?(changes, db)
            return refused
        case .send:
            let refused = try takeIn(sent: changes.modifications, in: db)
            try apply([], deletions: changes.deletions.map { ($0.recordID.recordName, $0.recordType) }, in: db)
            return refused
        }
    }

    /// Applies `records` and `deletions`; when a record cannot be applied for a reason that will
    /// not fix itself (``isPermanent(_:)``), applies each record alone instead and returns those
    /// that failed, with the reason, so that one bad record does not hold the others back.
    private func applyIsolating(_ records: [CloudRecord], deletions: [(String, String)], in db: GRDB.Database) throws -> [RecordID: String] {
        do {
            try db.inSavepoint {
                try apply(records, deletions: deletions, in: db)
                return .commit
            }
            return [:]
        } catch let error as DatabaseError where Self.isPermanent(error) {
            var refused: [RecordID: String] = [:]
            for record in records {
                do {
                    try db.inSavepoint {
                        try apply([record], deletions: [], in: db)
                        return .commit
                    }
                } catch let error as DatabaseError where Self.isPermanent(error) {
                    refused[record.recordID] = "the app's table refused the server's version: \(error.message ?? error.description)"
                }
            }
            try apply([], deletions: deletions, in: db)
            return refused
        }
    }

    /// Whether applying a record failed for its content (a constraint, a value of the wrong
    /// kind or size), which trying again will not change.
    static func isPermanent(_ error: DatabaseError) -> Bool {
        [.SQLITE_CONSTRAINT, .SQLITE_MISMATCH, .SQLITE_TOOBIG, .SQLITE_RANGE].contains(error.resultCode)
    }

    /// Deletes the rows of zones gone for good: those whose bookkeeping places them there, and in
    /// a table whose one zone it was, every row placed nowhere else.
    private func removeZones(_ zones: [ZoneID], in db: GRDB.Database) throws {
        for zone in zones {
            let owner = zone.ownerRecordName ?? ""
            for conversion in conversions.values {
                let table = conversion.table
                let placed = table.isTableZone(zone) ? "NOT IN (SELECT row_id FROM _stratus_rows WHERE table_name = ? AND (zone_name, owner) <> (?, ?))"
                    : "IN (SELECT row_id FROM _stratus_rows WHERE table_name = ? AND zone_name = ? AND owner = ?)"
                try db.execute(sql: "DELETE FROM \"\(table.tableName)\" WHERE \"\(table.primaryKey)\" \(placed)",
                               arguments: [table.tableName, zone.zoneName, owner])
            }
            try db.execute(sql: "DELETE FROM _stratus_rows WHERE zone_name = ? AND owner = ?", arguments: [zone.zoneName, owner])
            try db.execute(sql: "DELETE FROM _stratus_zones WHERE zone_name = ? AND owner = ?", arguments: [zone.zoneName, owner])
        }
    }

    /// Writes fetched records into their tables (and deletes deleted ones), with the bookkeeping
    /// of `_stratus_rows` for rows that need it: where a row lives when its table's rule does not
    /// say (shared zones, a zone per row), fields this device does not know, read-only rows, and
    /// placeholders. A row in its table's one zone with none of these has no bookkeeping.
    func apply(_ records: [CloudRecord], deletions: [(String, String)], in db: GRDB.Database) throws {
        for record in records where record.isShare {
            // The zone's sharing, and (in someone else's zone) whether this user may edit.
            let owner = record.recordID.zoneID.ownerRecordName ?? ""
            let canEdit = owner.isEmpty || record.shareKeys?.currentUserParticipant?.permission == .readWrite
            try db.execute(sql: "INSERT OR REPLACE INTO _stratus_zones (zone_name, owner, shared, can_edit) VALUES (?, ?, 1, ?)",
                           arguments: [record.recordID.zoneID.zoneName, owner, canEdit])
            try db.execute(sql: "UPDATE _stratus_rows SET can_edit = ? WHERE zone_name = ? AND owner = ?",
                           arguments: [canEdit, record.recordID.zoneID.zoneName, owner])
        }
        // Rows are written many to a statement: per table and set of columns, one upsert of up to
        // `maximumRowsPerStatement` rows, and one for their bookkeeping.
        var upserts: [String: Upsert] = [:], order: [String] = []
        var bookkeeping: [DatabaseValue] = [], unbooked: [String: [DatabaseValue]] = [:]
        var written: [(RowConversion, [DatabaseValue?], ZoneID)] = []
        var canEdit: [ZoneID: Bool] = [:]
        for record in records {
            guard let conversion = byType[record.recordType] else { continue }
            let table = conversion.table
            let zoneID = record.recordID.zoneID
            // Without sharing, a table's rows are the records of its zone (or of the user's zones,
            // with a zone per row), and only those.
            guard sharing || table.admits(zoneID) else { continue }
            let (values, unknown) = conversion.values(of: record)
            // Usually every column is set; a column left as it is makes another set of columns.
            let kept = values.contains(where: { $0 == nil }) ? values.indices.filter { values[$0] != nil } : nil
            let key = kept.map { "\(table.tableName)\u{0}\($0)" } ?? table.tableName
            if upserts[key] == nil {
                upserts[key] = Upsert(table: table, columns: kept.map { $0.map { conversion.appliedColumns[$0] } } ?? conversion.appliedColumns,
                                      isPartial: kept != nil)
                order.append(key)
            }
            upserts[key]!.values.append(contentsOf: values.lazy.compactMap { $0 })
            var unknownJSON: Data?
            if !unknown.isEmpty {
                var writer = WireWriter(capacity: 64)
                writer.fields(unknown)
                unknownJSON = Data(writer.bytes)
            }
            if canEdit[zoneID] == nil {
                canEdit[zoneID] = try Bool.fetchOne(db, sql: "SELECT can_edit FROM _stratus_zones WHERE zone_name = ? AND owner = ?",
                                                    arguments: [zoneID.zoneName, zoneID.ownerRecordName ?? ""]) ?? true
            }
            if table.isTableZone(zoneID), unknownJSON == nil, canEdit[zoneID]! {
                unbooked[table.tableName, default: []].append(record.recordID.recordName.databaseValue)
            } else {
                bookkeeping += [table.tableName.databaseValue, record.recordID.recordName.databaseValue, zoneID.zoneName.databaseValue,
                                (zoneID.ownerRecordName ?? "").databaseValue, unknownJSON.databaseValue, canEdit[zoneID]!.databaseValue]
            }
            if table.references.contains(where: { $0.placeholder != nil }) { written.append((conversion, values, zoneID)) }
        }
        for key in order { try upserts[key]!.execute(in: db) }
        for rows in bookkeeping.slices(of: 6 * Self.maximumRowsPerStatement) {
            try db.batchStatement(sql: """
                INSERT INTO _stratus_rows (table_name, row_id, zone_name, owner, unknown_fields, can_edit)
                VALUES \(databaseRowsQuestionMarks(rows: rows.count / 6, columns: 6))
                ON CONFLICT(table_name, row_id) DO UPDATE SET unknown_fields = excluded.unknown_fields, placeholder = 0,
                    zone_name = excluded.zone_name, owner = excluded.owner, can_edit = excluded.can_edit
                """, isFull: rows.count == 6 * Self.maximumRowsPerStatement).bind(rows).execute()
        }
        for (table, ids) in unbooked { try forgetBookkeeping(of: ids, in: table, db) }
        for (conversion, values, zoneID) in written { try fillPlaceholders(for: conversion, values: values, in: zoneID, db) }
        for (name, type) in deletions {
            guard let conversion = byType[type] else { continue }
            try delete(name, from: conversion.table, in: db)
        }
    }

    /// Removes the bookkeeping of rows of `table` that need none any more (they were placeholders,
    /// or had fields this device did not know), many to a statement.
    private func forgetBookkeeping(of ids: [DatabaseValue], in table: String, _ db: GRDB.Database) throws {
        for chunk in ids.slices(of: Self.maximumRowsPerStatement) {
            try db.batchStatement(sql: "DELETE FROM _stratus_rows WHERE table_name = ? AND row_id IN (\(databaseQuestionMarks(count: chunk.count)))",
                                  isFull: chunk.count == Self.maximumRowsPerStatement).bind(CollectionOfOne(table.databaseValue) + chunk).execute()
        }
    }

    /// The most rows one statement writes (SQLite's variables are bounded too: 32,766).
    static let maximumRowsPerStatement = 200

    /// Rows of one table that set the same columns, written by upserts of many rows each.
    ///
    /// Rows that leave some columns as they are (``isPartial``) are updated where they exist and
    /// inserted where they do not: SQLite checks `NOT NULL` on an upsert's insert before it finds
    /// the conflict, so an upsert of some columns fails on a row that exists.
    private struct Upsert {
        let table: SyncedTable
        let columns: [String]
        let isPartial: Bool
        /// The rows' values, column after column, row after row.
        var values: [DatabaseValue] = []

        func execute(in db: GRDB.Database) throws {
            let quoted = columns.map { "\"\($0)\"" }.joined(separator: ", ")
            let assignments = columns.filter { $0 != table.primaryKey }.map { "\"\($0)\" = excluded.\"\($0)\"" }
            if isPartial, !InstalledHarness.restores(.partialConflictApply) { return try updateOrInsert(quoted, in: db) }
            let onConflict = assignments.isEmpty ? "NOTHING" : "UPDATE SET " + assignments.joined(separator: ", ")
            for chunk in values.slices(of: columns.count * Coordinator.maximumRowsPerStatement) {
                try db.batchStatement(sql: """
                    INSERT INTO "\(table.tableName)" (\(quoted)) VALUES \(databaseRowsQuestionMarks(rows: chunk.count / columns.count, columns: columns.count))
                    ON CONFLICT("\(table.primaryKey)") DO \(onConflict)
                    """, isFull: chunk.count == columns.count * Coordinator.maximumRowsPerStatement).bind(chunk).execute()
            }
        }

        /// Row by row: an update of the columns it sets, or an insert of them when the row is new.
        private func updateOrInsert(_ quoted: String, in db: GRDB.Database) throws {
            let others = columns.filter { $0 != table.primaryKey }
            let keyIndex = columns.firstIndex(of: table.primaryKey)!
            let update = others.isEmpty ? nil : try db.cachedStatement(sql: """
                UPDATE "\(table.tableName)" SET \(others.map { "\"\($0)\" = ?" }.joined(separator: ", ")) WHERE "\(table.primaryKey)" = ?
                """)
            // With nothing but the key to set, a row that exists is left as it is.
            let exists = update != nil ? nil : try db.cachedStatement(sql: "SELECT 1 FROM \"\(table.tableName)\" WHERE \"\(table.primaryKey)\" = ?")
            let insert = try db.cachedStatement(sql: """
                INSERT INTO "\(table.tableName)" (\(quoted)) VALUES (\(databaseQuestionMarks(count: columns.count)))
                """)
            for start in stride(from: 0, to: values.count, by: columns.count) {
                let row = Array(values[start..<start + columns.count])
                let key = row[keyIndex]
                if let update {
                    try update.execute(arguments: StatementArguments(row.enumerated().filter { $0.offset != keyIndex }.map(\.element) + [key]))
                    if db.changesCount > 0 { continue }
                } else if let exists, try Bool.fetchOne(exists, arguments: [key]) == true {
                    continue
                }
                try insert.execute(arguments: StatementArguments(row))
            }
        }
    }

    /// Inserts stand-in rows for references to rows this device does not have, in the zone of the
    /// row that points at them (a reference stays in its zone).
    private func fillPlaceholders(for conversion: RowConversion, values: [DatabaseValue?], in zoneID: ZoneID, _ db: GRDB.Database) throws {
        for reference in conversion.table.references {
            guard let placeholder = try reference.placeholder?(), let index = conversion.appliedColumns.firstIndex(of: reference.column),
                  let target = values[index]?.storage.value as? String, let targetTable = conversions[reference.targetTable]?.table else { continue }
            let exists = try Bool.fetchOne(db, sql: "SELECT 1 FROM \"\(targetTable.tableName)\" WHERE \"\(targetTable.primaryKey)\" = ?",
                                           arguments: [target]) ?? false
            guard !exists else { continue }
            var row = placeholder
            row[targetTable.primaryKey] = target.databaseValue
            if let column = targetTable.zoneColumn { row[column] = zoneID.zoneName.databaseValue }
            let columns = row.keys.sorted()
            try db.execute(sql: "INSERT INTO \"\(targetTable.tableName)\" (\(columns.map { "\"\($0)\"" }.joined(separator: ", "))) VALUES (\(databaseQuestionMarks(count: columns.count)))",
                           arguments: StatementArguments(columns.map { row[$0]! }))
            try db.execute(sql: """
                INSERT OR REPLACE INTO _stratus_rows (table_name, row_id, zone_name, owner, placeholder) VALUES (?, ?, ?, ?, 1)
                """, arguments: [targetTable.tableName, target, zoneID.zoneName, zoneID.ownerRecordName ?? ""])
        }
    }

    /// Deletes rows of `table` the server no longer has, as the server's word: with what cascades
    /// from them, their bookkeeping gone, and nothing sent.
    func deleteMissing(_ ids: [String], from table: SyncedTable, in db: GRDB.Database) throws {
        try SyncEngine.applyingServerChanges(in: db, tablePrefix: SyncedDatabase.tablePrefix) {
            for id in ids { try delete(id, from: table, in: db) }
        }
    }

    /// Deletes a row, then applies the delete rules of rows pointing at it: cascade deletes them,
    /// nullify clears the column.
    private func delete(_ id: String, from table: SyncedTable, in db: GRDB.Database) throws {
        try db.execute(sql: "DELETE FROM \"\(table.tableName)\" WHERE \"\(table.primaryKey)\" = ?", arguments: [id])
        try db.execute(sql: "DELETE FROM _stratus_rows WHERE table_name = ? AND row_id = ?", arguments: [table.tableName, id])
        for source in conversions.values {
            for reference in source.table.references where reference.targetTable == table.tableName {
                switch reference.deleteRule {
                case .cascade:
                    let dependents = try String.fetchAll(db, sql: "SELECT \"\(source.table.primaryKey)\" FROM \"\(source.table.tableName)\" WHERE \"\(reference.column)\" = ?",
                                                         arguments: [id])
                    for dependent in dependents { try delete(dependent, from: source.table, in: db) }
                case .nullify:
                    try db.execute(sql: "UPDATE \"\(source.table.tableName)\" SET \"\(reference.column)\" = NULL WHERE \"\(reference.column)\" = ?",
                                   arguments: [id])
                }
            }
        }
    }

    /// Takes in the records a send saved (none the app changed again since: the engine leaves
    /// those out): the zones they were saved in, where their table's rule does not give it, and —
    /// where a conflict resolved into something other than the row (the server's edit won) —
    /// their values.
    private func takeIn(sent records: [CloudRecord], in db: GRDB.Database) throws -> [RecordID: String] {
        var resolved: [CloudRecord] = []
        for record in records {
            guard let conversion = byType[record.recordType] else { continue }
            let table = conversion.table
            guard let row = try Row.fetchOne(db, sql: "SELECT * FROM \"\(table.tableName)\" WHERE \"\(table.primaryKey)\" = ?",
                                             arguments: [record.recordID.recordName]) else { continue }
            let values = conversion.values(of: record).values
            if zip(conversion.appliedColumns, values).contains(where: { column, value in value.map { row[column] as DatabaseValue? != $0 } ?? false }) {
                resolved.append(record)
            } else if !table.isTableZone(record.recordID.zoneID) {
                // Where the row now lives.
                try db.cachedStatement(sql: "INSERT OR IGNORE INTO _stratus_rows (table_name, row_id, zone_name, owner) VALUES (?, ?, ?, ?)")
                    .execute(arguments: [table.tableName, record.recordID.recordName, record.recordID.zoneID.zoneName,
                                         record.recordID.zoneID.ownerRecordName ?? ""])
            }
        }
        let refused = try applyIsolating(resolved, deletions: [], in: db)
        // The files asset columns were written to for the upload are no longer needed.
        let uploads = Set(conversions.values.map { $0.assetDirectory.standardizedFileURL.path })
        for file in records.flatMap(\.assetFiles.values) where uploads.contains(file.deletingLastPathComponent().standardizedFileURL.path) {
            try? FileManager.default.removeItem(at: file)
        }
        return refused
    }

    // MARK: Census

    func beginCensus() { census.withLock { $0 = [] } }
    func endCensus() -> Set<String> {
        census.withLock { census in
            defer { census = nil }
            return census ?? []
        }
    }
}
