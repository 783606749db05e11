import Foundation
import GRDB
import StratusClient

/// One change to a shopping list. Lists are append-only journals of these (Shopping UK's design):
/// devices add entries and never change them, so concurrent edits merge by applying everyone's
/// entries in one order. An entry is a row of the synced table `journalEntry`, in its list's zone.
public struct JournalEntry: Codable, Sendable, Hashable, FetchableRecord, PersistableRecord {
    public enum Kind: String, Codable, Sendable {
        case add, check, uncheck, delete, rename, recolor
    }

    /// The entry's record name: unique, so it also breaks ties in the order.
    public var id: String
    /// The list it belongs to (its parent, whose zone it lives in).
    public var listID: String
    public var kind: Kind
    /// The item an add, check, uncheck or delete is about.
    public var itemID: String?
    /// An added item's text, or a list's new name or color.
    public var text: String?
    /// An added item's predecessor: the item it follows (nil: the top of the list).
    public var after: String?
    /// When the entry was made, on its device (ms since 1970).
    public var timestamp: Int64
    public var author: String
    /// Held in shopping mode (someone else's add, not shown until applied): local, never synced.
    var held = false

    public init(id: String = UUID().uuidString, listID: String = "", kind: Kind, itemID: String? = nil, text: String? = nil,
                after: String? = nil, timestamp: Int64, author: String) {
        self.id = id
        self.listID = listID
        self.kind = kind
        self.itemID = itemID
        self.text = text
        self.after = after
        self.timestamp = timestamp
        self.author = author
    }

    /// The order entries apply in: by time, then by ID.
    public static func order(_ a: JournalEntry, _ b: JournalEntry) -> Bool {
        (a.timestamp, a.id) < (b.timestamp, b.id)
    }

    public static let databaseTableName = "journalEntry"
    static let recordType = "JournalEntry"

    /// The table's columns the app and its sync declaration name.
    public enum Columns {
        public static let listID = Column(CodingKeys.listID)
        public static let timestamp = Column(CodingKeys.timestamp)
        public static let held = Column(CodingKeys.held)
    }

    /// An entry read from its record (a compaction's query answer).
    init?(record: CloudRecord) {
        guard record.recordType == Self.recordType, let kindName = record.string("kind"), let kind = Kind(rawValue: kindName),
              case .timestamp(let timestamp)? = record["timestamp"] else { return nil }
        self.init(id: record.recordID.recordName, listID: record["listID"]?.references.first?.recordName ?? "", kind: kind,
                  itemID: record.string("itemID"), text: record.string("text"), after: record.string("after"),
                  timestamp: timestamp, author: record.string("author") ?? "")
    }
}
