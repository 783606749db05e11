import GRDB
import StratusClient

/// How one GRDB table syncs: its CloudKit record type, the zone its rows live in, and how its
/// columns map to record fields (ZenCloudKit's mapping dictionary), declared from the table's
/// record type and its columns.
///
/// ```swift
/// SyncedTable(Person.self, recordType: "Person", fieldNames: [Person.Columns.name: "fullName"],
///             references: [.init(Person.Columns.addressID, to: Address.self)],
///             referenceLists: [.init(Person.Columns.courseIDs, to: Course.self)])
/// ```
///
/// The table's primary key is a `TEXT` column (default `id`) whose value is the record name, so a
/// row is one record however often or concurrently it is saved. Columns map to fields of the same
/// name unless `fieldNames` says otherwise; `references` and `referenceLists` name the columns that
/// point at rows of other synced tables.
public struct SyncedTable: Sendable {
    /// A to-one relation: a column holding another row's ID.
    public struct Reference: Sendable {
        /// What happens to this row when the target is deleted.
        public enum DeleteRule: Sendable {
            /// This row is deleted too: with the target's deletion by the app, in its transaction,
            /// and on the server (`DELETE_SELF`) when another device deletes the target.
            case cascade
            /// The column is cleared.
            case nullify
        }

        /// The column holding the target row's primary key.
        public let column: String
        /// The table the reference points into.
        public let targetTable: String
        /// What deleting the target does to this row.
        public let deleteRule: DeleteRule
        /// Whether the target is this row's parent for sharing (a share of the target covers it).
        public let isParent: Bool
        /// The column values of a stand-in row inserted into the target table when a fetched row
        /// points at a target this device does not have (ZenCloudKit's `referencePlaceholder`).
        let placeholder: (@Sendable () throws -> [String: DatabaseValue])?

        /// A reference from `column` to rows of `target`; nullified when its target is deleted
        /// unless `onDelete` says otherwise.
        ///
        /// With `isParent`, the target is this row's parent for sharing: a share of the target
        /// covers this row.
        public init<Target: TableRecord>(_ column: Column, to target: Target.Type, onDelete deleteRule: DeleteRule = .nullify,
                                         isParent: Bool = false) {
            self.column = column.name
            self.targetTable = Target.databaseTableName
            self.deleteRule = deleteRule
            self.isParent = isParent
            self.placeholder = nil
        }

        /// A reference from `column` to rows of `target`, with a stand-in target for a fetched row
        /// whose target this device does not have: `placeholder`'s columns, under the missing
        /// target's ID.
        public init<Target: TableRecord & EncodableRecord & Sendable>(_ column: Column, to target: Target.Type,
                                                                        onDelete deleteRule: DeleteRule = .nullify,
                                                                        placeholder: Target, isParent: Bool = false) {
            self.column = column.name
            self.targetTable = Target.databaseTableName
            self.deleteRule = deleteRule
            self.isParent = isParent
            self.placeholder = { try placeholder.databaseDictionary }
        }
    }

    /// A to-many relation: a column holding a JSON array of other rows' IDs (a REFERENCE_LIST).
    public struct ReferenceList: Sendable {
        /// The column holding the target rows' primary keys, as a JSON array.
        public let column: String
        /// The table the references point into.
        public let targetTable: String

        /// A list of references from a JSON-array column to rows of `target`.
        public init<Target: TableRecord>(_ column: Column, to target: Target.Type) {
            self.column = column.name
            self.targetTable = Target.databaseTableName
        }
    }

    /// The zone a table's rows live in: one for the whole table, or one per row.
    ///
    /// A zone per row is how an app keeps separate things apart — a shopping list and its items in
    /// a zone of their own, to be shared as a whole: the list's table takes its zone from a column
    /// (``column(_:)``), the items' table from their parent (``parent``). A row's zone is fixed
    /// when it is first saved; zones the user owns are created on the server as rows first go
    /// there. Rows shared by others keep the zone they were fetched from.
    public struct Zone: Sendable, Equatable {
        enum Rule: Sendable, Equatable {
            case named(String)
            case column(String)
            case parent
        }

        let rule: Rule

        /// Every row in one zone of the user's private database.
        public static func named(_ zoneName: String) -> Zone { Zone(rule: .named(zoneName)) }

        /// Every row in the database's default zone: the one zone of the public database, whose
        /// record types a table mirrors there (with a ``SyncedDatabase`` of the public database).
        public static let defaultZone = Zone(rule: .named(ZoneID.defaultZoneName))

        /// Each row in the zone named by one of its TEXT columns (which may be the primary key).
        /// The column is not a record field: a fetched row's column is set from its record's zone.
        public static func column(_ column: Column) -> Zone { Zone(rule: .column(column.name)) }

        /// Each row in the zone of its parent: the row its parent reference
        /// (``Reference/isParent``) points at. Saving a row whose parent is missing fails.
        public static let parent = Zone(rule: .parent)

        /// The zone of every row, when the table has one.
        var zoneID: ZoneID? {
            guard case .named(let name) = rule else { return nil }
            return ZoneID(zoneName: name)
        }
    }

    /// The local table's name.
    public let tableName: String
    /// The record type its rows sync as.
    public let recordType: String
    /// The zone its rows sync in.
    public let zone: Zone
    /// The TEXT primary key column: the record name.
    public let primaryKey: String
    /// Field names of columns whose field is named differently (column → field).
    public let fieldNames: [String: String]
    /// Columns that are not synced.
    public let localColumns: Set<String>
    /// Columns whose value (TEXT or BLOB) travels as an ASSET: a file uploaded on save and
    /// downloaded on fetch, for values too large for a record.
    public let assetColumns: Set<String>
    /// INTEGER columns of milliseconds since 1970 that travel as TIMESTAMP fields.
    public let timestampColumns: Set<String>
    /// Columns whose fields are encrypted (CloudKit's `encryptedValues`): sealed by the server
    /// under the user's key, never indexed, queried or sorted on.
    public let encryptedColumns: Set<String>
    /// Columns that reference rows of synced tables.
    public let references: [Reference]
    /// JSON-array columns that reference rows of synced tables.
    public let referenceLists: [ReferenceList]
    /// Whether the table mirrors records the user may only read (a public record type others
    /// write): fetched changes fill it, and the app's inserts, updates and deletes of its synced
    /// columns are refused. Its local columns stay the app's to change.
    public let isReadOnly: Bool

    /// The table of `record`'s type, syncing as records of `recordType` (the table's name by
    /// default) in `zone`.
    ///
    /// - Parameters:
    ///   - record: the GRDB record type whose table syncs.
    ///   - recordType: the CloudKit record type; the table's name by default.
    ///   - zone: the zone the rows sync in: a zone named `StratusData` by default.
    ///   - primaryKey: the TEXT primary key column, whose value is the record name.
    ///   - fieldNames: columns whose field is named differently, and the field's name.
    ///   - localColumns: columns that stay on the device.
    ///   - assetColumns: TEXT or BLOB columns that travel as asset files.
    ///   - timestampColumns: INTEGER columns of milliseconds since 1970 that travel as TIMESTAMP fields.
    ///   - encryptedColumns: columns whose fields are encrypted (never a reference or an asset column).
    ///   - references: columns holding another synced row's ID.
    ///   - referenceLists: columns holding a JSON array of other synced rows' IDs.
    ///   - readOnly: whether the table only mirrors what is fetched (``isReadOnly``).
    public init<Record: TableRecord>(_ record: Record.Type, recordType: String? = nil, zone: Zone = .named("StratusData"),
                                     primaryKey: Column = Column("id"), fieldNames: KeyValuePairs<Column, String> = [:],
                                     localColumns: [Column] = [], assetColumns: [Column] = [], timestampColumns: [Column] = [],
                                     encryptedColumns: [Column] = [], references: [Reference] = [], referenceLists: [ReferenceList] = [],
                                     readOnly: Bool = false) {
        self.tableName = Record.databaseTableName
        self.recordType = recordType ?? Record.databaseTableName
        self.zone = zone
        self.primaryKey = primaryKey.name
        self.fieldNames = Dictionary(fieldNames.map { ($0.key.name, $0.value) }, uniquingKeysWith: { $1 })
        self.localColumns = Set(localColumns.map(\.name))
        self.assetColumns = Set(assetColumns.map(\.name))
        self.timestampColumns = Set(timestampColumns.map(\.name))
        self.encryptedColumns = Set(encryptedColumns.map(\.name))
        self.references = references
        self.referenceLists = referenceLists
        self.isReadOnly = readOnly
    }

    /// The reference to the row's parent for sharing, if any.
    var parentReference: Reference? { references.first(where: \.isParent) }

    /// The column naming the row's zone, when it is not the primary key.
    var zoneColumn: String? {
        guard case .column(let column) = zone.rule, column != primaryKey else { return nil }
        return column
    }

    /// Whether a column travels as a record field: neither the primary key (the record name), nor
    /// local, nor the zone's name.
    func isField(_ column: String) -> Bool { column != primaryKey && !localColumns.contains(column) && column != zoneColumn }

    /// Whether a row of this table may live in `zoneID` (of the user's private database).
    func admits(_ zoneID: ZoneID) -> Bool { zone.zoneID.map { $0 == zoneID } ?? true }

    /// Whether `zoneID` is the one zone the table's rule puts every row in: where its rows live
    /// unless their bookkeeping says otherwise.
    func isTableZone(_ zoneID: ZoneID) -> Bool { zone.zoneID == zoneID }

    func fieldName(_ column: String) -> String { fieldNames[column] ?? column }
    func column(forField field: String) -> String { fieldNames.first { $0.value == field }?.key ?? field }
}
