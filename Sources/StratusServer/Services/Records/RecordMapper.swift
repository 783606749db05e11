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
    /// fields `desiredKeys` asks for (nil: all; empty: none).
    static func record(from stored: StoredRecord, desiredKeys: [String]?) throws -> Record {
        if stored.deleted {
            return Record(recordName: stored.recordName, recordType: stored.recordType, recordChangeTag: stored.changeTag, deleted: true)
        }
        var fields = try decodeFields(stored.fieldsJSON)
        if let desiredKeys {
            let wanted = Set(desiredKeys)
            fields = fields.filter { wanted.contains($0.key) }
        }
        var record = systemFields(of: stored)
        record.fields = fields
        return record
    }

    /// The record's identity and system fields, without its fields.
    static func systemFields(of stored: StoredRecord) -> Record {
        Record(recordName: stored.recordName, recordType: stored.recordType, recordChangeTag: stored.changeTag,
               created: stored.created, modified: stored.modified, deleted: false,
               parent: stored.parent.map(RecordPointer.init), share: stored.share.map(RecordPointer.init))
    }

    /// Whether stored fields JSON holds an asset (`ASSETID` or `ASSETID_LIST`), without parsing it.
    /// The marker cannot occur inside a string value: a string's quotes are escaped.
    static func hasAssets(_ fieldsJSON: [UInt8]) -> Bool {
        let marker = assetMarker
        guard fieldsJSON.count >= marker.count else { return false }
        return fieldsJSON.withUnsafeBytes { bytes in
            marker.withUnsafeBytes { needle in
                // Jump with memchr between the marker's `I`s, rare in field JSON (unlike `"`),
                // and compare the whole marker only around them.
                guard let base = bytes.baseAddress, let needleBase = needle.baseAddress else { return false }
                let pivot = assetMarkerPivot
                var offset = pivot
                let last = bytes.count - needle.count + pivot
                while offset <= last, let found = memchr(base + offset, Int32(needle[pivot]), last - offset + 1) {
                    let position = base.distance(to: UnsafeRawPointer(found))
                    if memcmp(base + position - pivot, needleBase, needle.count) == 0 { return true }
                    offset = position + 1
                }
                return false
            }
        }
    }

    private static let assetMarker = Array(#""type":"ASSETID"#.utf8)
    /// The offset of the marker's first `I`, the byte the search looks for.
    private static let assetMarkerPivot = assetMarker.firstIndex(of: UInt8(ascii: "I"))!
}
