/// What the SQL of the two drivers differs in, for the statements written once
/// (``SQLStatement``). Both speak `ON CONFLICT … DO UPDATE`, `RETURNING` and
/// `IS DISTINCT FROM`; a statement that needs more than this names its dialect's piece here.
package struct SQLDialect: Sendable {
    /// The placeholder of the `index`th bound value (from 1).
    package let placeholder: @Sendable (Int) -> String
    /// How a boolean constant is written: a boolean column is an `INTEGER` in SQLite.
    package let trueLiteral: String
    package let falseLiteral: String
    /// The function that answers the largest of its arguments (`MAX` in SQLite).
    package let greatest: String
    /// Whether `record_index.value` holds each value as a byte string that sorts in SQLite's order
    /// (``IndexValue/sortKey``), with its number in `number` and its kind in `is_real`
    /// (PostgreSQL); otherwise it holds the typed value, which sorts so itself (SQLite).
    package let storesIndexSortKeys: Bool
    /// A setting sent before a change feed's ordered read, if the planner needs one (see
    /// ``RecordStore/recordChanges(zoneRowID:after:skippingDeletionsThrough:limit:maxBytes:recordTypes:)``).
    package let changeFeedSetting: String?
    /// Whether a table numbers its rows from a sequence that a row inserted with its own id does
    /// not move (PostgreSQL); SQLite numbers a row past the largest id.
    package let numbersRowIDsBySequence: Bool
    /// How the migrations written once (``SQLSchema``) name the types the two differ in.
    package let ddl: DDL
    /// What the key store's table names start with (``KeyStoreSchema``): nothing in SQLite, whose
    /// key store is a database file of its own; PostgreSQL's schema `stratus_keys.`, beside the data
    /// but left out of its dumps.
    package let keyStoreSchema: String

    /// The column types of ``SQLSchema``'s tables in a dialect's words.
    package struct DDL: Sendable {
        /// A 64-bit integer.
        package let integer: String
        /// A row id that numbers itself, the table's primary key.
        package let rowID: String
        /// Text compared byte by byte: keys and names.
        package let key: String
        /// What ends a table whose primary key is not a row id.
        package let withoutRowID: String
        /// Bytes.
        package let blob: String
    }

    /// SQLite's `?`, and 1 and 0.
    package static let sqlite = SQLDialect(placeholder: { _ in "?" }, trueLiteral: "1", falseLiteral: "0", greatest: "MAX",
                                           storesIndexSortKeys: false, changeFeedSetting: nil, numbersRowIDsBySequence: false,
                                           ddl: DDL(integer: "INTEGER", rowID: "INTEGER PRIMARY KEY", key: "TEXT", withoutRowID: " WITHOUT ROWID",
                                                    blob: "BLOB"),
                                           keyStoreSchema: "")
    /// PostgreSQL's `$1`, `$2`…, and `TRUE` and `FALSE`.
    ///
    /// Its change feed turns bitmap scans off: right after a burst of writes, before autovacuum
    /// analyzes the table, the planner believes a zone holds a few dozen rows and picks a bitmap
    /// scan that reads and sorts every row after the token instead of walking `records_changes`
    /// in order (measured: 9.6 ms a page at 40,000 records, against 0.5 ms), so a feed read in
    /// pages grew with the square of its length.
    package static let postgres = SQLDialect(placeholder: { "$\($0)" }, trueLiteral: "TRUE", falseLiteral: "FALSE", greatest: "GREATEST",
                                             storesIndexSortKeys: true, changeFeedSetting: "SET LOCAL enable_bitmapscan = off",
                                             numbersRowIDsBySequence: true,
                                             ddl: DDL(integer: "BIGINT", rowID: "BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY",
                                                      key: "TEXT COLLATE \"C\"", withoutRowID: "", blob: "BYTEA"),
                                             keyStoreSchema: "stratus_keys.")

    /// The functions whose names differ.
    package enum Function: Sendable {
        case greatest
    }
}
