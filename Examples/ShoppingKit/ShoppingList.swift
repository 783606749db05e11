import GRDB

/// A list's own record (`ShoppingList`): its name and color when created, and how far its journal
/// is compacted. The row's ID is the list's zone name, so each list lives in a zone of its own.
struct ShoppingList: Codable, Sendable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "list"
    var id: String
    var name: String
    var color: String
    /// Entries before this time may have been compacted away (ms since 1970).
    var compressedUntil: Int64 = 0

    enum Columns {
        static let id = Column(CodingKeys.id)
        static let compressedUntil = Column(CodingKeys.compressedUntil)
    }
}
