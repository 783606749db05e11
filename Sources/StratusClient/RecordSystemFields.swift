import Foundation

/// The fields the server keeps about a record — its change tag, who created and last modified it,
/// its parent and share — without its own fields. Apps archive these (as they archive a
/// `CKRecord`'s system fields) so a record saved later carries the change tag it was based on.
public struct RecordSystemFields: Codable, Sendable, Hashable {
    /// The record's name and zone.
    public var recordID: RecordID
    /// The record's type.
    public var recordType: String
    /// The server's change tag of the version this record is based on.
    public var changeTag: String
    /// When, by whom and from which device the record was created.
    public var created: RecordStamp?
    /// When, by whom and from which device the record was last changed.
    public var modified: RecordStamp?
    /// The record name of the record's parent, whose share it falls under.
    public var parent: String?
    /// The record name of the share whose root this record is.
    public var share: String?

    /// System fields from their parts, as a server answer gives them.
    public init(recordID: RecordID, recordType: String, changeTag: String, created: RecordStamp? = nil,
                modified: RecordStamp? = nil, parent: String? = nil, share: String? = nil) {
        self.recordID = recordID
        self.recordType = recordType
        self.changeTag = changeTag
        self.created = created
        self.modified = modified
        self.parent = parent
        self.share = share
    }

    /// The system fields as bytes to keep between runs.
    public func archived() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return try encoder.encode(self)
    }

    /// System fields from ``archived()`` bytes.
    public init(archived data: Data) throws {
        self = try JSONDecoder().decode(Self.self, from: data)
    }
}
