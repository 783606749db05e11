import Foundation
import StratusClient

/// One change to a shopping list. Lists are append-only journals of these (Shopping UK's design):
/// devices add entries and never change them, so concurrent edits merge by applying everyone's
/// entries in one order.
public struct JournalEntry: Codable, Sendable, Hashable {
    public enum Kind: String, Codable, Sendable {
        case add, check, uncheck, delete, rename, recolor
    }

    /// The entry's record name: unique, so it also breaks ties in the order.
    public var id: String
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

    public init(id: String = UUID().uuidString, kind: Kind, itemID: String? = nil, text: String? = nil, after: String? = nil,
                timestamp: Int64, author: String) {
        self.id = id
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

    static let recordType = "JournalEntry"

    /// The entry as a record in the list's zone.
    func record(in zoneID: ZoneID) -> CloudRecord {
        var fields: [String: FieldValue] = ["kind": .string(kind.rawValue), "timestamp": .timestamp(timestamp), "author": .string(author)]
        if let itemID { fields["itemID"] = .string(itemID) }
        if let text { fields["text"] = .string(text) }
        if let after { fields["after"] = .string(after) }
        return CloudRecord(recordType: Self.recordType, recordID: RecordID(recordName: id, zoneID: zoneID), fields: fields)
    }

    /// An entry read from its record.
    init?(record: CloudRecord) {
        guard record.recordType == Self.recordType, let kindName = record.string("kind"), let kind = Kind(rawValue: kindName),
              case .timestamp(let timestamp)? = record["timestamp"] else { return nil }
        self.init(id: record.recordID.recordName, kind: kind, itemID: record.string("itemID"), text: record.string("text"),
                  after: record.string("after"), timestamp: timestamp, author: record.string("author") ?? "")
    }
}
