import Foundation
import GRDB
import StratusClient
import StratusCore

/// How the state's rows read and are written.
extension SyncStateStore {
    static func zoneID(_ name: String, _ owner: String) -> ZoneID {
        ZoneID(zoneName: name, ownerRecordName: owner.isEmpty ? nil : owner)
    }

    static func key(_ id: RecordID) -> StatementArguments {
        [id.zoneID.zoneName, id.zoneID.ownerRecordName ?? "", id.recordName]
    }

    static func zoneScope(_ zoneID: ZoneID) -> String { "zone:\(zoneID.ownerRecordName ?? ""):\(zoneID.zoneName)" }

    func setToken(_ token: String, scope: String, in db: GRDB.Database) throws {
        try db.cachedStatement(sql: "INSERT OR REPLACE INTO \(tables.tokens) (scope, token) VALUES (?, ?)").execute(arguments: [scope, token])
    }

    func remember(_ record: CloudRecord, in db: GRDB.Database) throws {
        try remember([record], in: db)
    }

    /// Keeps the server's version of records, many to a statement.
    func remember(_ records: [CloudRecord], in db: GRDB.Database) throws {
        let columns = 14, rowsPerStatement = 200
        var values: [DatabaseValue] = []
        values.reserveCapacity(records.count * columns)
        for record in records {
            guard let system = record.systemFields else { continue }
            var writer = WireWriter(capacity: 256)
            writer.fields(record.fields, encrypted: record.encryptedKeys)
            let id = record.recordID
            values += [id.zoneID.zoneName.databaseValue, (id.zoneID.ownerRecordName ?? "").databaseValue, id.recordName.databaseValue,
                       system.recordType.databaseValue, system.changeTag.databaseValue,
                       system.created?.timestamp.databaseValue ?? .null, system.created?.userRecordName.databaseValue ?? .null,
                       system.created?.deviceID.databaseValue ?? .null,
                       system.modified?.timestamp.databaseValue ?? .null, system.modified?.userRecordName.databaseValue ?? .null,
                       system.modified?.deviceID.databaseValue ?? .null,
                       system.parent.databaseValue, system.share.databaseValue, Data(writer.bytes).databaseValue]
        }
        for chunk in values.slices(of: columns * rowsPerStatement) {
            try db.batchStatement(sql: """
                INSERT OR REPLACE INTO \(tables.records) (zone_name, owner, record_name, record_type, change_tag, created_at, created_by,
                    created_device, modified_at, modified_by, modified_device, parent, share, fields)
                VALUES \(databaseRowsQuestionMarks(rows: chunk.count / columns, columns: columns))
                """, isFull: chunk.count == columns * rowsPerStatement).bind(chunk).execute()
        }
    }

    /// The record names among `names` that `table` holds for `zoneID`, with the value of `column`
    /// (nil when none is named), asked in statements of up to 500 names.
    func names(in table: String, of zoneID: ZoneID, among names: [String], with column: String = "NULL",
                       in db: GRDB.Database) throws -> [(String, String?)] {
        var found: [(String, String?)] = []
        for chunk in names.slices(of: 500) {
            let rows = try Row.fetchCursor(db.batchStatement(sql: """
                SELECT record_name, \(column) FROM \(table) WHERE zone_name = ? AND owner = ?
                AND record_name IN (\(databaseQuestionMarks(count: chunk.count)))
                """, isFull: chunk.count == 500).bind(([zoneID.zoneName, zoneID.ownerRecordName ?? ""] + chunk).map(\.databaseValue)))
            while let row = try rows.next() { found.append((row[0], row[1])) }
        }
        return found
    }

    func forget(_ id: RecordID, in db: GRDB.Database) throws {
        try db.cachedStatement(sql: "DELETE FROM \(tables.records) WHERE zone_name = ? AND owner = ? AND record_name = ?").execute(arguments: Self.key(id))
    }

    func forgetZone(_ zoneID: ZoneID, in db: GRDB.Database, keepingPendingZone: Bool) throws {
        let arguments: StatementArguments = [zoneID.zoneName, zoneID.ownerRecordName ?? ""]
        for table in [tables.records, tables.pendingRecords, tables.setAside] {
            try db.execute(sql: "DELETE FROM \(table) WHERE zone_name = ? AND owner = ?", arguments: arguments)
        }
        if !keepingPendingZone { try db.execute(sql: "DELETE FROM \(tables.pendingZones) WHERE zone_name = ? AND owner = ?", arguments: arguments) }
        try db.execute(sql: "DELETE FROM \(tables.tokens) WHERE scope = ?", arguments: [Self.zoneScope(zoneID)])
    }

    static func record(_ id: RecordID, _ row: Row) throws -> CloudRecord {
        func stamp(_ at: Int64?, _ by: String?, _ device: String?) -> RecordStamp? {
            guard let at, let by, let device else { return nil }
            return RecordStamp(timestamp: at, userRecordName: by, deviceID: device)
        }
        let system = RecordSystemFields(recordID: id, recordType: row[0], changeTag: row[1], created: stamp(row[2], row[3], row[4]),
                                        modified: stamp(row[5], row[6], row[7]), parent: row[8], share: row[9])
        var wire = StratusCore.Record()
        if let data: Data = row[10] {
            try Record.readFields(JSONParser.parse(Array(data)), into: &wire)
        }
        let fields = wire.fields.compactMapValues { $0 }
        var record = CloudRecord(systemFields: system, fields: fields)
        record.encryptedKeys = wire.encryptedFields
        return record.edit(of: system, serverFields: fields)
    }
}
