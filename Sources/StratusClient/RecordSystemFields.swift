import Foundation

/// The fields the server keeps about a record — its change tag, who created and last modified it,
/// its parent and share — without its own fields. Apps archive these (as they archive a
/// `CKRecord`'s system fields) so a record saved later carries the change tag it was based on.
public struct RecordSystemFields: Codable, Sendable, Hashable {
    public var recordID: RecordID
    public var recordType: String
    /// The server's change tag of the version this record is based on.
    public var changeTag: String
    public var created: RecordStamp?
    public var modified: RecordStamp?
    public var parent: String?
    public var share: String?

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
