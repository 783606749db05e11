import Foundation
import GRDB
import StratusClient
import StratusSync

/// The moving parts between an app's database and its sync engine: it moves captured changes to
/// the engine, reads rows when the engine asks for records, and applies what the engine fetched.
actor Coordinator {
    let writer: any DatabaseWriter
    let conversions: [String: RowConversion]
    private let byType: [String: RowConversion]
    private var engines: [DatabaseScope: SyncEngine] = [:]
    private var paused = false
    /// The last drain pass started; each pass waits for the one before it.
    private var draining: Task<Void, any Error>?
    private var applied = 0
    /// During ``SyncedDatabase/forceFullSync()``: the record names fetched.
    private var census: Set<String>?

    init(writer: any DatabaseWriter, conversions: [String: RowConversion]) {
        self.writer = writer
        self.conversions = conversions
        byType = Dictionary(uniqueKeysWithValues: conversions.values.map { ($0.table.recordType, $0) })
    }

    /// Attaches every engine at once, then drains: a pass run while the shared database's engine
    /// was missing would delete the shared zones' changes from the outbox without queuing them.
    func attach(_ engines: [(DatabaseScope, SyncEngine)]) {
        for (scope, engine) in engines {
            self.engines[scope] = engine
            let events = engine.events
            Task { [weak self] in
                for await event in events { await self?.apply(event, scope: scope) }
            }
        }
        Task { try? await self.drain() }
    }

    func setPaused(_ paused: Bool) { self.paused = paused }

    // MARK: Outbox → engine

    /// Queues every change captured before this call with the engine.
    ///
    /// One pass runs at a time: a pass deletes the outbox rows up to the last sequence it read,
    /// and an emptied outbox gives its next row a sequence used before, so a pass overlapping
    /// another would delete a change it never queued.
    func drain() async throws {
        let previous = draining
        let pass = Task {
            _ = await previous?.result
            try await drainPass()
        }
        draining = pass
        try await pass.value
    }

    /// Queues the captured changes with the engine, then removes them from the outbox (unless a
    /// newer change of the same row arrived meanwhile), leaving the marker at the last sequence
    /// drained (``SyncedSchema/outboxMarker``). A crash in between only queues twice.
    ///
    /// A saved row is known in `_stratus_rows` before its change reaches the engine: the engine
    /// may send it at once, and ``record(for:)`` finds rows through that table.
    private func drainPass() async throws {
        guard !paused, let privateEngine = engines[.private] else { return }
        let conversions = self.conversions
        let (captured, last) = try await writer.write { db -> ([(table: String, id: String, change: String, zone: ZoneID)], Int64) in
            var latest: [String: (String, String, String)] = [:]
            var order: [String] = []
            var last: Int64 = 0
            for row in try Row.fetchAll(db, sql: "SELECT sequence, table_name, row_id, change FROM _stratus_outbox WHERE table_name <> ? ORDER BY sequence",
                                        arguments: [SyncedSchema.outboxMarker]) {
                last = row[0]
                let table: String = row[1]
                let id: String = row[2]
                guard conversions[table] != nil else { continue }
                let key = table + "\u{0}" + id
                if latest[key] == nil { order.append(key) }
                latest[key] = (table, id, row[3])
            }
            let zoneOf = try db.cachedStatement(sql: "SELECT zone_name, owner FROM _stratus_rows WHERE table_name = ? AND row_id = ?")
            let known = try db.cachedStatement(sql: "INSERT OR IGNORE INTO _stratus_rows (table_name, row_id, zone_name) VALUES (?, ?, ?)")
            return (try order.map { key in
                let (table, id, change) = latest[key]!
                let zone = try Row.fetchOne(zoneOf, arguments: [table, id])
                    .map { row -> ZoneID in
                        let owner: String = row[1]
                        return ZoneID(zoneName: row[0], ownerRecordName: owner.isEmpty ? nil : owner)
                    } ?? conversions[table]!.table.zoneID
                if change == "save" && zone.ownerRecordName == nil { try known.execute(arguments: [table, id, zone.zoneName]) }
                return (table, id, change, zone)
            }, last)
        }
        guard last > 0 else { return }
        for scope in [DatabaseScope.private, .shared] {
            let changes = captured.filter { ($0.zone.ownerRecordName == nil) == (scope == .private) }
            guard !changes.isEmpty, let engine = scope == .private ? privateEngine : engines[.shared] else { continue }
            try await engine.add(pendingRecordZoneChanges: changes.map { change in
                let recordID = RecordID(recordName: change.id, zoneID: change.zone)
                return change.change == "delete" ? .deleteRecord(recordID) : .saveRecord(recordID)
            })
        }
        try await writer.write { db in
            try db.execute(sql: "DELETE FROM _stratus_outbox WHERE sequence <= ?", arguments: [last])
            try db.execute(sql: "INSERT OR IGNORE INTO _stratus_outbox (sequence, table_name, row_id, change) VALUES (?, ?, '', '')",
                           arguments: [last, SyncedSchema.outboxMarker])
        }
    }

    // MARK: Engine asks for a record

    /// The record for a row the engine is about to send; nil if the row is gone. Throws if the
    /// database cannot be read, so the engine keeps the change for a later send.
    func record(for id: RecordID) async throws -> CloudRecord? {
        let conversions = self.conversions
        return try await writer.read { db in
            let tables = try String.fetchAll(db, sql: "SELECT table_name FROM _stratus_rows WHERE row_id = ? AND zone_name = ? AND owner = ?",
                                             arguments: [id.recordName, id.zoneID.zoneName, id.zoneID.ownerRecordName ?? ""])
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

    // MARK: Engine reports

    private func apply(_ event: SyncEvent, scope: DatabaseScope) async {
        defer { applied += 1 }
        do {
            switch event {
            case .fetchedRecordZoneChanges(let modifications, let deletions):
                census?.formUnion(modifications.map(\.recordID.recordName))
                try await applyFetched(modifications, deletions.map { ($0.recordID.recordName, $0.recordType) })
            case .sentRecordZoneChanges(let sent):
                try await remember(sent.savedRecords, scope: scope)
            case .zonesRemoved(let reasons):
                let conversions = self.conversions
                try await applying { db in
                    for zone in reasons.keys {
                        let owner = zone.ownerRecordName ?? ""
                        for conversion in conversions.values {
                            let table = conversion.table
                            try db.execute(sql: """
                                DELETE FROM "\(table.tableName)" WHERE "\(table.primaryKey)" IN (
                                    SELECT row_id FROM _stratus_rows WHERE table_name = ? AND zone_name = ? AND owner = ?)
                                """, arguments: [table.tableName, zone.zoneName, owner])
                        }
                        try db.execute(sql: "DELETE FROM _stratus_rows WHERE zone_name = ? AND owner = ?", arguments: [zone.zoneName, owner])
                        try db.execute(sql: "DELETE FROM _stratus_zones WHERE zone_name = ? AND owner = ?", arguments: [zone.zoneName, owner])
                    }
                }
            default:
                break
            }
        } catch {
            // The engine already stored the page's token: forget what it knows, so the next
            // fetch brings this page (and everything) again instead of the tables missing it.
            try? await engines[scope]?.refetchEverything()
        }
    }

    /// Runs `body` in a write transaction whose changes the triggers do not capture.
    private func applying(_ body: @escaping @Sendable (GRDB.Database) throws -> Void) async throws {
        try await writer.write { db in
            try db.execute(sql: "UPDATE _stratus_state SET applying = 1")
            try body(db)
            try db.execute(sql: "UPDATE _stratus_state SET applying = 0")
        }
    }

    func applyFetched(_ records: [CloudRecord], _ deletions: [(String, String)]) async throws {
        let byType = self.byType
        let conversions = self.conversions
        try await applying { db in
            for record in records where record.isShare {
                // The zone's sharing, and (in someone else's zone) whether this user may edit.
                let owner = record.recordID.zoneID.ownerRecordName ?? ""
                let canEdit = owner.isEmpty || record.shareKeys?.currentUserParticipant?.permission == .readWrite
                try db.execute(sql: "INSERT OR REPLACE INTO _stratus_zones (zone_name, owner, shared, can_edit) VALUES (?, ?, 1, ?)",
                               arguments: [record.recordID.zoneID.zoneName, owner, canEdit])
                try db.execute(sql: "UPDATE _stratus_rows SET can_edit = ? WHERE zone_name = ? AND owner = ?",
                               arguments: [canEdit, record.recordID.zoneID.zoneName, owner])
            }
            for record in records {
                guard let conversion = byType[record.recordType] else { continue }
                let table = conversion.table
                let (values, unknown) = conversion.values(of: record)
                let columns = values.keys.sorted()
                let assignments = columns.filter { $0 != table.primaryKey }.map { "\"\($0)\" = excluded.\"\($0)\"" }
                try db.cachedStatement(sql: """
                    INSERT INTO "\(table.tableName)" (\(columns.map { "\"\($0)\"" }.joined(separator: ", ")))
                    VALUES (\(databaseQuestionMarks(count: columns.count)))
                    ON CONFLICT("\(table.primaryKey)") DO \(assignments.isEmpty ? "NOTHING" : "UPDATE SET " + assignments.joined(separator: ", "))
                    """).execute(arguments: StatementArguments(columns.map { values[$0]! }))
                var unknownJSON: Data?
                if !unknown.isEmpty {
                    var writer = WireWriter(capacity: 64)
                    writer.fields(unknown.mapValues(Optional.some))
                    unknownJSON = Data(writer.bytes)
                }
                try db.cachedStatement(sql: """
                    INSERT INTO _stratus_rows (table_name, row_id, zone_name, owner, change_tag, unknown_fields, placeholder, can_edit)
                    VALUES (?, ?, ?, ?, ?, ?, 0, COALESCE((SELECT can_edit FROM _stratus_zones WHERE zone_name = ?3 AND owner = ?4), 1))
                    ON CONFLICT(table_name, row_id) DO UPDATE SET change_tag = excluded.change_tag,
                        unknown_fields = excluded.unknown_fields, placeholder = 0, zone_name = excluded.zone_name,
                        owner = excluded.owner, can_edit = excluded.can_edit
                    """).execute(arguments: [table.tableName, record.recordID.recordName, record.recordID.zoneID.zoneName,
                                             record.recordID.zoneID.ownerRecordName ?? "", record.changeTag, unknownJSON])
                try Self.fillPlaceholders(for: table, values: values, conversions: conversions, in: db)
            }
            for (name, type) in deletions {
                guard let conversion = byType[type] else { continue }
                try Self.delete(name, from: conversion.table, conversions: conversions, in: db)
            }
        }
    }

    /// Inserts stand-in rows for references to rows this device does not have.
    private static func fillPlaceholders(for table: SyncedTable, values: [String: DatabaseValue], conversions: [String: RowConversion],
                                         in db: GRDB.Database) throws {
        for reference in table.references {
            guard let placeholder = reference.placeholder, let target = values[reference.column]?.storage.value as? String,
                  let targetTable = conversions[reference.targetTable]?.table else { continue }
            let exists = try Bool.fetchOne(db, sql: "SELECT 1 FROM \"\(targetTable.tableName)\" WHERE \"\(targetTable.primaryKey)\" = ?",
                                           arguments: [target]) ?? false
            guard !exists else { continue }
            var row = placeholder
            row[targetTable.primaryKey] = target.databaseValue
            let columns = row.keys.sorted()
            try db.execute(sql: "INSERT INTO \"\(targetTable.tableName)\" (\(columns.map { "\"\($0)\"" }.joined(separator: ", "))) VALUES (\(databaseQuestionMarks(count: columns.count)))",
                           arguments: StatementArguments(columns.map { row[$0]! }))
            try db.execute(sql: """
                INSERT OR REPLACE INTO _stratus_rows (table_name, row_id, zone_name, placeholder) VALUES (?, ?, ?, 1)
                """, arguments: [targetTable.tableName, target, targetTable.zoneID.zoneName])
        }
    }

    /// Deletes a row, then applies the delete rules of rows pointing at it: cascade deletes them,
    /// nullify clears the column.
    private static func delete(_ id: String, from table: SyncedTable, conversions: [String: RowConversion], in db: GRDB.Database) throws {
        try db.execute(sql: "DELETE FROM \"\(table.tableName)\" WHERE \"\(table.primaryKey)\" = ?", arguments: [id])
        try db.execute(sql: "DELETE FROM _stratus_rows WHERE table_name = ? AND row_id = ?", arguments: [table.tableName, id])
        for source in conversions.values {
            for reference in source.table.references where reference.targetTable == table.tableName {
                switch reference.deleteRule {
                case .cascade:
                    let dependents = try String.fetchAll(db, sql: "SELECT \"\(source.table.primaryKey)\" FROM \"\(source.table.tableName)\" WHERE \"\(reference.column)\" = ?",
                                                         arguments: [id])
                    for dependent in dependents { try delete(dependent, from: source.table, conversions: conversions, in: db) }
                case .nullify:
                    try db.execute(sql: "UPDATE \"\(source.table.tableName)\" SET \"\(reference.column)\" = NULL WHERE \"\(reference.column)\" = ?",
                                   arguments: [id])
                }
            }
        }
    }

    /// Takes in the records a send saved: their change tags, and — where a conflict resolved
    /// into something other than the row (the server's edit won) — their values, unless the row
    /// was edited again since.
    private func remember(_ records: [CloudRecord], scope: DatabaseScope) async throws {
        guard !records.isEmpty else { return }
        let byType = self.byType
        let resolved = try await writer.read { db in
            try records.filter { record in
                guard let conversion = byType[record.recordType] else { return false }
                let table = conversion.table
                guard let row = try Row.fetchOne(db, sql: "SELECT * FROM \"\(table.tableName)\" WHERE \"\(table.primaryKey)\" = ?",
                                                 arguments: [record.recordID.recordName]) else { return false }
                return conversion.values(of: record).columns.contains { column, value in row[column] as DatabaseValue? != value }
            }
        }
        if !resolved.isEmpty {
            let editedAgain = try await editedSinceSent(scope: scope)
            try await applyFetched(resolved.filter { !editedAgain.contains($0.recordID.recordName) }, [])
        }
        // The files asset columns were written to for the upload are no longer needed.
        let uploads = Set(conversions.values.map { $0.assetDirectory.standardizedFileURL.path })
        for file in records.flatMap(\.assetFiles.values) where uploads.contains(file.deletingLastPathComponent().standardizedFileURL.path) {
            try? FileManager.default.removeItem(at: file)
        }
        try await writer.write { db in
            for record in records {
                try db.execute(sql: "UPDATE _stratus_rows SET change_tag = ? WHERE row_id = ? AND zone_name = ?",
                               arguments: [record.changeTag, record.recordID.recordName, record.recordID.zoneID.zoneName])
            }
        }
    }

    /// Rows with a change not yet sent: captured in the outbox, or queued in the engine.
    private func editedSinceSent(scope: DatabaseScope) async throws -> Set<String> {
        var names = Set(try await writer.read {
            try String.fetchAll($0, sql: "SELECT row_id FROM _stratus_outbox WHERE table_name <> ?", arguments: [SyncedSchema.outboxMarker])
        })
        for change in try await engines[scope]?.snapshot().pendingRecordChanges ?? [] {
            switch change {
            case .saveRecord(let id), .deleteRecord(let id): names.insert(id.recordName)
            }
        }
        return names
    }

    // MARK: Waiting and counting

    /// Waits until every event the engine emitted so far is applied.
    func settle() async {
        var emitted = 0
        for engine in engines.values { emitted += await engine.emittedEventCount }
        while applied < emitted { try? await Task.sleep(for: .milliseconds(1)) }
    }

    func beginCensus() { census = [] }
    func endCensus() -> Set<String> {
        defer { census = nil }
        return census ?? []
    }
}
