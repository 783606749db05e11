import Foundation
import StratusCore

/// Converts between stored rows and wire records, and fields to and from their stored JSON.
enum RecordMapper {
    /// The fields' stored JSON; fields set to nil are left out.
    static func encodeFields(_ fields: [String: FieldValue?]) -> [UInt8] {
        var writer = WireWriter(capacity: 256)
        writer.fields(fields)
        return writer.bytes
    }

    static func decodeFields(_ json: [UInt8]) throws -> [String: FieldValue] {
        try Record.readFields(JSONParser.parse(json)).compactMapValues { $0 }
    }

    /// The wire record for a stored row: a tombstone (`deleted: true`) or the record with the
    /// fields `desiredKeys` asks for (nil: all; empty: none). Encrypted fields are answered only
    /// once the row's fields are opened (``SealedFields/open(_:recordName:with:)``).
    static func record(from stored: StoredRecord, desiredKeys: [String]?) throws -> Record {
        if stored.deleted {
            return Record(recordName: stored.recordName, recordType: stored.recordType, recordChangeTag: stored.changeTag, deleted: true)
        }
        var record = systemFields(of: stored)
        try Record.readFields(JSONParser.parse(stored.fieldsJSON), into: &record)
        var fields = record.fields.compactMapValues { $0 }
        if let desiredKeys {
            let wanted = Set(desiredKeys)
            fields = fields.filter { wanted.contains($0.key) }
        }
        record.fields = fields
        // A field still sealed (``SealedFields``) has no value to answer.
        record.encryptedFields.formIntersection(fields.keys)
        record.untypedEncryptedFields = []
        return record
    }

    /// The record's identity and system fields, without its fields.
    static func systemFields(of stored: StoredRecord) -> Record {
        Record(recordName: stored.recordName, recordType: stored.recordType, recordChangeTag: stored.changeTag,
               created: stored.created, modified: stored.modified, deleted: false,
               parent: stored.parent.map(RecordPointer.init), share: stored.share.map(RecordPointer.init))
    }

    /// Whether stored fields JSON holds an asset (`ASSETID` or `ASSETID_LIST`), without parsing it.
    static func hasAssets(_ fieldsJSON: [UInt8]) -> Bool {
        assetMarker.occurs(in: fieldsJSON)
    }

    // `I` is rare in field JSON, unlike `"`.
    private static let assetMarker = FieldsMarker(#""type":"ASSETID"#, pivot: "I")
}
