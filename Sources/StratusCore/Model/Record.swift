/// A record: its identity, system fields and typed fields (CloudKit's Record Dictionary).
///
/// The same type is used for requests and responses. In a request, a field set to `nil`
/// (`{"value": null}`) means "remove this field" for `update`.
package struct Record: Codable, Sendable, Equatable {
    package var recordName: String?
    package var recordType: String?
    /// Opaque; changes on every write. Compare for equality only.
    package var recordChangeTag: String?
    package var fields: [String: FieldValue?]
    /// The fields whose values are encrypted (CloudKit's `encryptedValues`): sent and answered
    /// with `"isEncrypted": true`, kept sealed by the server.
    package var encryptedFields: Set<String> = []
    /// In a request, the encrypted fields sent without their `type`, which CloudKit reads as
    /// `ENCRYPTED_BYTES` (the schema check names them so); empty elsewhere.
    package var untypedEncryptedFields: Set<String> = []
    package var created: RecordStamp?
    package var modified: RecordStamp?
    /// Set on tombstones in change feeds and on the result of a delete.
    package var deleted: Bool?
    package var parent: RecordPointer?
    package var share: RecordPointer?
    /// The share-only keys of a `cloudkit.share` record (participants, permissions, short GUID).
    @OutOfLine package var shareKeys: ShareKeys? = nil
    /// The record's zone, in answers that span zones (a `zoneWide` query); nil elsewhere, where
    /// the request names the zone.
    package var zoneID: ZoneID?

    package init(recordName: String? = nil, recordType: String? = nil, recordChangeTag: String? = nil,
                fields: [String: FieldValue?] = [:], created: RecordStamp? = nil, modified: RecordStamp? = nil,
                deleted: Bool? = nil, parent: RecordPointer? = nil, share: RecordPointer? = nil) {
        self.recordName = recordName
        self.recordType = recordType
        self.recordChangeTag = recordChangeTag
        self.fields = fields
        self.created = created
        self.modified = modified
        self.deleted = deleted
        self.parent = parent
        self.share = share
    }

    private enum CodingKeys: String, CodingKey {
        case recordName, recordType, recordChangeTag, fields, created, modified, deleted, parent, share, zoneID
    }

    package init(from decoder: any Decoder) throws {
        try self.init(decodingTreeFrom: decoder)
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(recordName, forKey: .recordName)
        try container.encodeIfPresent(recordType, forKey: .recordType)
        try container.encodeIfPresent(recordChangeTag, forKey: .recordChangeTag)
        if deleted != true || !fields.isEmpty {
            var fieldsContainer = container.nestedContainer(keyedBy: FieldKey.self, forKey: .fields)
            for (name, value) in fields {
                try fieldsContainer.encode(RecordField(value, isEncrypted: encryptedFields.contains(name)), forKey: FieldKey(name))
            }
        }
        try container.encodeIfPresent(created, forKey: .created)
        try container.encodeIfPresent(modified, forKey: .modified)
        try container.encodeIfPresent(deleted, forKey: .deleted)
        try container.encodeIfPresent(parent, forKey: .parent)
        try container.encodeIfPresent(share, forKey: .share)
        try container.encodeIfPresent(zoneID, forKey: .zoneID)
        try shareKeys?.encode(to: encoder)
    }
}

/// A coding key made from any field name.
struct FieldKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
