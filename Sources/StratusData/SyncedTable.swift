import GRDB
import StratusClient

/// How one GRDB table syncs: its CloudKit record type, the zone its rows live in, and how its
/// columns map to record fields (ZenCloudKit's mapping dictionary).
///
/// The table's primary key is a `TEXT` column (default `id`) whose value is the record name, so a
/// row is one record however often or concurrently it is saved. Columns map to fields of the same
/// name unless ``fieldNames`` says otherwise; `references` and `referenceLists` name the columns
/// that point at rows of other synced tables.
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
        public var column: String
        /// The table the reference points into.
        public var targetTable: String
        /// What deleting the target does to this row.
        public var deleteRule: DeleteRule
        /// Column values of a stand-in row inserted into the target table when a fetched row
        /// points at a target this device does not have (ZenCloudKit's `referencePlaceholder`).
        public var placeholder: [String: DatabaseValue]?
        /// Whether the target is this row's parent for sharing (a share of the target covers it).
        public var isParent: Bool

        /// A reference from a column to a table's rows; nullified when its target is deleted unless told otherwise.
        public init(column: String, targetTable: String, deleteRule: DeleteRule = .nullify,
                    placeholder: [String: DatabaseValue]? = nil, isParent: Bool = false) {
            self.column = column
            self.targetTable = targetTable
            self.deleteRule = deleteRule
            self.placeholder = placeholder
            self.isParent = isParent
        }
    }

    /// A to-many relation: a column holding a JSON array of other rows' IDs (a REFERENCE_LIST).
    public struct ReferenceList: Sendable {
        /// The column holding the target rows' primary keys, as a JSON array.
        public var column: String
        /// The table the references point into.
        public var targetTable: String

        /// A list of references from a JSON-array column to a table's rows.
        public init(column: String, targetTable: String) {
            self.column = column
            self.targetTable = targetTable
        }
    }

    /// The local table's name.
    public var tableName: String
    /// The record type its rows sync as.
    public var recordType: String
    /// The zone its rows sync in.
    public var zoneID: ZoneID
    /// The TEXT primary key column: the record name.
    public var primaryKey: String
    /// Field names of columns whose field is named differently (column → field).
    public var fieldNames: [String: String]
    /// Columns that are not synced.
    public var localColumns: Set<String>
    /// Columns whose value (TEXT or BLOB) travels as an ASSET: a file uploaded on save and
    /// downloaded on fetch, for values too large for a record.
    public var assetColumns: Set<String>
    /// INTEGER columns of milliseconds since 1970 that travel as TIMESTAMP fields.
    public var timestampColumns: Set<String>
    /// Columns that reference rows of synced tables.
    public var references: [Reference]
    /// JSON-array columns that reference rows of synced tables.
    public var referenceLists: [ReferenceList]

    /// A synced table: its rows sync as records of `recordType` (the table's name by default) in `zoneID`.
    ///
    /// Columns map to fields of the same name unless `fieldNames` says otherwise; `localColumns`
    /// stay on the device; `assetColumns` travel as asset files and `timestampColumns` as
    /// TIMESTAMP fields.
    public init(_ tableName: String, recordType: String? = nil, zoneID: ZoneID = ZoneID(zoneName: "StratusData"), primaryKey: String = "id",
                fieldNames: [String: String] = [:], localColumns: Set<String> = [], assetColumns: Set<String> = [],
                timestampColumns: Set<String> = [], references: [Reference] = [], referenceLists: [ReferenceList] = []) {
        self.tableName = tableName
        self.recordType = recordType ?? tableName
        self.zoneID = zoneID
        self.primaryKey = primaryKey
        self.fieldNames = fieldNames
        self.localColumns = localColumns
        self.assetColumns = assetColumns
        self.timestampColumns = timestampColumns
        self.references = references
        self.referenceLists = referenceLists
    }

    func fieldName(_ column: String) -> String { fieldNames[column] ?? column }
    func column(forField field: String) -> String { fieldNames.first { $0.value == field }?.key ?? field }
}

/// A GRDB record type that syncs: it declares its ``SyncedTable``.
public protocol SyncedRecord: FetchableRecord, PersistableRecord {
    /// The table the type's rows are stored in, and how they sync.
    static var syncedTable: SyncedTable { get }
}
