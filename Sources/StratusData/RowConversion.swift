import Foundation
import GRDB
import StratusClient
import StratusCore

/// Between a synced table's rows and CloudKit records.
struct RowConversion {
    let table: SyncedTable
    /// The table's columns, in order.
    let columns: [String]
    /// Columns declared BLOB (an asset column's file goes into them as bytes, others as text).
    let blobColumns: Set<String>
    /// Where asset columns' values are written as files to upload.
    let assetDirectory: URL
    /// The columns a fetched record sets, in this order: the primary key, the columns that are
    /// fields, and the zone column if there is one.
    let appliedColumns: [String]
    /// For each field name, its column's index in `appliedColumns`, and how its value is stored.
    private let fields: [String: (index: Int, kind: ColumnKind)]

    /// How a field's value goes into its column.
    private enum ColumnKind {
        case value, asset, referenceList
    }

    init(table: SyncedTable, columns: [String], blobColumns: Set<String>, assetDirectory: URL) {
        self.table = table
        self.columns = columns
        self.blobColumns = blobColumns
        self.assetDirectory = assetDirectory
        let fieldColumns = columns.filter(table.isField)
        appliedColumns = [table.primaryKey] + fieldColumns + (table.zoneColumn.map { [$0] } ?? [])
        fields = Dictionary(fieldColumns.enumerated().map { offset, column in
            let kind: ColumnKind = table.assetColumns.contains(column) ? .asset
                : table.referenceLists.contains(where: { $0.column == column }) ? .referenceList : .value
            return (table.fieldName(column), (offset + 1, kind))
        }, uniquingKeysWith: { first, _ in first })
    }

    /// The record for a row: its columns as fields (references as REFERENCE, reference lists as
    /// REFERENCE_LIST, the parent reference also as `parent`), plus the fields this device does not
    /// know, kept from the last fetch so they survive the save.
    func record(from row: Row, zoneID: ZoneID, unknownFields: [String: FieldValue]) -> CloudRecord? {
        guard let id = row[table.primaryKey] as String? else { return nil }
        var fields = unknownFields
        var parent: String?
        for column in columns where table.isField(column) {
            let field = table.fieldName(column)
            let value = row[column] as DatabaseValue
            if let reference = table.references.first(where: { $0.column == column }) {
                fields[field] = (value.storage.value as? String).map {
                    .reference(Reference(recordName: $0, zoneID: nil, action: reference.deleteRule == .cascade ? .deleteSelf : Reference.Action.none))
                }
                if reference.isParent { parent = value.storage.value as? String }
            } else if table.assetColumns.contains(column) {
                continue   // attached below, as a file
            } else if table.timestampColumns.contains(column), case .int64(let milliseconds) = value.storage {
                fields[field] = .timestamp(milliseconds)
            } else if table.referenceLists.contains(where: { $0.column == column }) {
                let ids = (value.storage.value as? String).flatMap { try? JSONDecoder().decode([String].self, from: Data($0.utf8)) } ?? []
                fields[field] = .list(.reference, ids.map { .reference(Reference(recordName: $0, zoneID: nil, action: Reference.Action.none)) })
            } else {
                fields[field] = Self.fieldValue(value)
            }
        }
        var record = CloudRecord(recordType: table.recordType, recordID: RecordID(recordName: id, zoneID: zoneID), fields: fields)
        record.encryptedKeys = Set(table.encryptedColumns.filter(table.isField).map(table.fieldName)).intersection(fields.keys)
        record.parent = parent
        for column in table.assetColumns where table.isField(column) {
            let data: Data? = switch (row[column] as DatabaseValue).storage {
            case .string(let text): Data(text.utf8)
            case .blob(let bytes): bytes
            default: nil
            }
            guard let data else { continue }
            let file = assetDirectory.appendingPathComponent("\(table.tableName)-\(id)-\(column)-\(UUID().uuidString)")
            guard (try? data.write(to: file)) != nil else { continue }
            record.setAsset(fileURL: file, forKey: table.fieldName(column))
        }
        return record
    }

    /// The column values of a fetched record, one for each of ``appliedColumns`` (nil: the column
    /// keeps its value), and the fields that match no column.
    func values(of record: CloudRecord) -> (values: [DatabaseValue?], unknown: [String: FieldValue]) {
        var values = [DatabaseValue?](repeating: .null, count: appliedColumns.count)
        values[0] = record.recordID.recordName.databaseValue
        if table.zoneColumn != nil { values[values.count - 1] = record.recordID.zoneID.zoneName.databaseValue }
        var unknown: [String: FieldValue] = [:]
        for (field, value) in record.fields {
            guard let (index, kind) = fields[field] else {
                unknown[field] = value
                continue
            }
            switch kind {
            case .value:
                values[index] = Self.databaseValue(value)
            case .asset:
                // An asset not downloaded (a record a send's conflict returned) leaves the column as it is.
                guard let file = record.assetFiles[field] else {
                    if !value.assets.isEmpty { values[index] = nil }
                    continue
                }
                let data = try? Data(contentsOf: file)
                values[index] = data.map { blobColumns.contains(appliedColumns[index]) ? $0.databaseValue : String(decoding: $0, as: UTF8.self).databaseValue } ?? .null
            case .referenceList:
                let ids = value.references.map(\.recordName)
                values[index] = String(decoding: (try? JSONEncoder().encode(ids)) ?? Data("[]".utf8), as: UTF8.self).databaseValue
            }
        }
        return (values, unknown)
    }

    static func fieldValue(_ value: DatabaseValue) -> FieldValue? {
        switch value.storage {
        case .null: nil
        case .int64(let number): .int64(number)
        case .double(let number): .double(number)
        case .string(let text): .string(text)
        case .blob(let data): .bytes(data)
        }
    }

    static func databaseValue(_ value: FieldValue) -> DatabaseValue {
        switch value {
        case .string(let text): return text.databaseValue
        case .int64(let number), .timestamp(let number): return number.databaseValue
        case .double(let number): return number.databaseValue
        case .bytes(let data): return data.databaseValue
        case .reference(let reference): return reference.recordName.databaseValue
        default:
            var writer = WireWriter(capacity: 64)
            writer.field(value)
            return String(decoding: writer.bytes, as: UTF8.self).databaseValue
        }
    }
}
