import Foundation

/// Writes CloudKit Web Services JSON straight into bytes, for the hot paths where Foundation's
/// `JSONEncoder` costs more than the work itself (records, their fields, change pages).
///
/// The output is the same JSON the `Codable` conformances produce and decode; tests decode what
/// the writer writes with them.
package struct WireWriter: Sendable {
    package private(set) var bytes: [UInt8] = []

    package init(capacity: Int = 1024) {
        bytes.reserveCapacity(capacity)
    }

    // MARK: - JSON primitives

    package mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    package mutating func raw(_ json: some Collection<UInt8>) {
        bytes.append(contentsOf: json)
    }

    /// The same for bytes in an array (stored fields JSON): a copy other modules need not
    /// specialize.
    package mutating func raw(_ json: [UInt8]) {
        bytes.append(contentsOf: json)
    }

    /// What `write` writes, after its length in 4 bytes, big-endian: values packed one after
    /// another, to be told apart again (sealed fields).
    package mutating func lengthPrefixed(_ write: (inout WireWriter) -> Void) {
        let start = bytes.count
        bytes.append(contentsOf: [0, 0, 0, 0] as [UInt8])
        write(&self)
        let length = UInt32(bytes.count - start - 4).bigEndian
        withUnsafeBytes(of: length) { bytes.replaceSubrange(start..<(start + 4), with: $0) }
    }

    /// A JSON string with the escapes JSON requires.
    package mutating func string(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            var start = 0
            for index in utf8.indices {
                let byte = utf8[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                bytes.append(contentsOf: utf8[start..<index])
                switch byte {
                case UInt8(ascii: "\""): raw("\\\"")
                case UInt8(ascii: "\\"): raw("\\\\")
                case 0x0A: raw("\\n")
                case 0x0D: raw("\\r")
                case 0x09: raw("\\t")
                default:
                    raw("\\u00")
                    bytes.append(Self.hexDigits[Int(byte >> 4)])
                    bytes.append(Self.hexDigits[Int(byte & 0x0F)])
                }
                start = index + 1
            }
            bytes.append(contentsOf: utf8[start...])
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// A decimal integer, its digits written straight into the bytes (no string is made).
    package mutating func integer(_ value: Int64) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var start = digits.count
            repeat {
                start -= 1
                digits[start] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[start...]))
        }
    }

    /// A finite double in its shortest round-tripping form.
    package mutating func double(_ value: Double) {
        bytes.append(contentsOf: (value.isFinite ? value.description : "0").utf8)
    }

    package mutating func bool(_ value: Bool) {
        if value { raw("true") } else { raw("false") }
    }

    /// `"key":` after a comma unless it is the object's first member.
    /// Any parsed JSON value, written compactly with the same primitives.
    package mutating func json(_ value: JSONValue) {
        switch value {
        case .null: raw("null")
        case .bool(let value): bool(value)
        case .integer(let value): integer(value)
        case .number(let value): double(value)
        case .string(let value): string(value)
        case .array(let elements):
            bytes.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                json(element)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let object):
            bytes.append(UInt8(ascii: "{"))
            for (index, member) in object.members.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                string(member.key)
                bytes.append(UInt8(ascii: ":"))
                json(member.value)
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    package mutating func key(_ name: StaticString, first: Bool = false) {
        if !first { bytes.append(UInt8(ascii: ",")) }
        bytes.append(UInt8(ascii: "\""))
        raw(name)
        raw("\":")
    }

    /// `,"name":"text"` when there is a text.
    package mutating func member(_ name: StaticString, _ text: String?) {
        guard let text else { return }
        key(name)
        string(text)
    }

    /// `,"name":number` when there is a number.
    package mutating func member(_ name: StaticString, _ number: Int64?) {
        guard let number else { return }
        key(name)
        integer(number)
    }

    /// `,"name":number` when there is a number.
    package mutating func member(_ name: StaticString, _ number: Double?) {
        guard let number else { return }
        key(name)
        double(number)
    }

    private mutating func key(dynamic name: String, first: Bool) {
        if !first { bytes.append(UInt8(ascii: ",")) }
        string(name)
        bytes.append(UInt8(ascii: ":"))
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    // MARK: - CloudKit dictionaries

    /// A fields dictionary: `{"name": {"value": …, "type": …}, …}`, the fields named in
    /// `encrypted` with `"isEncrypted": true`. Nil fields are left out, or with `writingRemovals`
    /// written as `{"value": null}` (a request's "remove this field").
    package mutating func fields(_ fields: [String: FieldValue?], encrypted: Set<String> = [], writingRemovals: Bool = false) {
        members(fields.lazy.map { ($0.key, $0.value) }, encrypted: encrypted, writingRemovals: writingRemovals)
    }

    /// A Record Field Dictionary of fields that all have a value, those in `encrypted` with
    /// `"isEncrypted": true`.
    package mutating func fields(_ fields: [String: FieldValue], encrypted: Set<String> = []) {
        members(fields.lazy.map { ($0.key, Optional($0.value)) }, encrypted: encrypted, writingRemovals: false)
    }

    private mutating func members(_ fields: some Sequence<(String, FieldValue?)>, encrypted: Set<String>, writingRemovals: Bool) {
        bytes.append(UInt8(ascii: "{"))
        var first = true
        for (name, value) in fields {
            guard let value else {
                if writingRemovals {
                    key(dynamic: name, first: first)
                    first = false
                    raw("{\"value\":null}")
                }
                continue
            }
            key(dynamic: name, first: first)
            first = false
            field(value, isEncrypted: !encrypted.isEmpty && encrypted.contains(name))
        }
        bytes.append(UInt8(ascii: "}"))
    }

    /// One Record Field Dictionary.
    package mutating func field(_ value: FieldValue, isEncrypted: Bool = false) {
        raw("{\"value\":")
        fieldValue(value)
        raw(",\"type\":")
        string(value.type.wireName)
        if isEncrypted { raw(",\"isEncrypted\":true") }
        bytes.append(UInt8(ascii: "}"))
    }

    /// A field's value alone, as its dictionary's `value` holds it.
    package mutating func fieldValue(_ value: FieldValue) {
        switch value {
        case .list(_, let elements):
            bytes.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                scalar(element)
            }
            bytes.append(UInt8(ascii: "]"))
        default:
            scalar(value)
        }
    }

    private mutating func scalar(_ value: FieldValue) {
        switch value {
        case .string(let text): string(text)
        case .int64(let number), .timestamp(let number): integer(number)
        case .double(let number): double(number)
        case .bytes(let data): string(data.base64EncodedString())
        case .reference(let reference): self.reference(reference)
        case .location(let location): self.location(location)
        case .asset(let asset): self.asset(asset)
        case .list: raw("null")
        }
    }

    package mutating func zoneID(_ zoneID: ZoneID) {
        raw("{\"zoneName\":")
        string(zoneID.zoneName)
        member("ownerRecordName", zoneID.ownerRecordName)
        bytes.append(UInt8(ascii: "}"))
    }

    private mutating func reference(_ reference: Reference) {
        raw("{\"recordName\":")
        string(reference.recordName)
        if let zoneID = reference.zoneID {
            key("zoneID")
            self.zoneID(zoneID)
        }
        member("action", reference.action?.rawValue)
        bytes.append(UInt8(ascii: "}"))
    }

    private mutating func location(_ location: Location) {
        raw("{\"latitude\":")
        double(location.latitude)
        key("longitude")
        double(location.longitude)
        member("horizontalAccuracy", location.horizontalAccuracy)
        member("verticalAccuracy", location.verticalAccuracy)
        member("altitude", location.altitude)
        member("speed", location.speed)
        member("course", location.course)
        member("timestamp", location.timestamp)
        bytes.append(UInt8(ascii: "}"))
    }

    private mutating func asset(_ asset: Asset) {
        bytes.append(UInt8(ascii: "{"))
        var first = true
        for (name, value) in [("fileChecksum", asset.fileChecksum), ("referenceChecksum", asset.referenceChecksum),
                              ("wrappingKey", asset.wrappingKey), ("receipt", asset.receipt), ("downloadURL", asset.downloadURL)] {
            guard let value else { continue }
            key(dynamic: name, first: first)
            first = false
            string(value)
        }
        if let size = asset.size {
            key(dynamic: "size", first: first)
            integer(size)
        }
        bytes.append(UInt8(ascii: "}"))
    }

    /// A record's `created` or `modified` dictionary.
    package mutating func stamp(_ stamp: RecordStamp) {
        raw("{\"timestamp\":")
        integer(stamp.timestamp)
        key("userRecordName")
        string(stamp.userRecordName)
        key("deviceID")
        string(stamp.deviceID)
        bytes.append(UInt8(ascii: "}"))
    }

    /// A Record Dictionary. `encodedFields`, when given, is the fields dictionary already in wire
    /// JSON and is copied as it is instead of `record.fields`.
    package mutating func record(_ record: Record, encodedFields: [UInt8]? = nil, writingRemovals: Bool = false) {
        bytes.append(UInt8(ascii: "{"))
        var first = true
        if let name = record.recordName {
            key("recordName", first: true)
            string(name)
            first = false
        }
        if let type = record.recordType {
            key("recordType", first: first)
            string(type)
            first = false
        }
        if let tag = record.recordChangeTag {
            key("recordChangeTag", first: first)
            string(tag)
            first = false
        }
        if record.deleted != true || !record.fields.isEmpty || encodedFields != nil {
            key("fields", first: first)
            first = false
            if let encodedFields {
                raw(encodedFields)
            } else {
                fields(record.fields, encrypted: record.encryptedFields, writingRemovals: writingRemovals)
            }
        }
        if let created = record.created {
            key("created", first: first)
            first = false
            stamp(created)
        }
        if let modified = record.modified {
            key("modified", first: first)
            first = false
            stamp(modified)
        }
        if let deleted = record.deleted {
            key("deleted", first: first)
            first = false
            bool(deleted)
        }
        if let parent = record.parent {
            key("parent", first: first)
            first = false
            raw("{\"recordName\":")
            string(parent.recordName)
            bytes.append(UInt8(ascii: "}"))
        }
        if let share = record.share {
            key("share", first: first)
            first = false
            raw("{\"recordName\":")
            string(share.recordName)
            bytes.append(UInt8(ascii: "}"))
        }
        if let zoneID = record.zoneID {
            key("zoneID", first: first)
            first = false
            self.zoneID(zoneID)
        }
        if let shareKeys = record.shareKeys, let encoded = try? JSONEncoder().encode(shareKeys), encoded.count > 2 {
            // The share keys' object, its braces dropped, as members of the record's.
            if !first { bytes.append(UInt8(ascii: ",")) }
            raw(encoded.dropFirst().dropLast())
        }
        bytes.append(UInt8(ascii: "}"))
    }

    /// A Record Fetch Error Dictionary.
    package mutating func recordError(_ error: RecordError) {
        raw("{\"serverErrorCode\":")
        string(error.serverErrorCode.rawValue)
        member("reason", error.reason)
        member("recordName", error.recordName)
        member("uuid", error.uuid)
        member("retryAfter", error.retryAfter.map(Int64.init))
        if let serverRecord = error.serverRecord {
            key("serverRecord")
            record(serverRecord)
        }
        bytes.append(UInt8(ascii: "}"))
    }

    /// A Zone Fetch Error Dictionary.
    package mutating func zoneError(_ error: ZoneError) {
        raw("{\"zoneID\":")
        zoneID(error.zoneID)
        member("serverErrorCode", error.serverErrorCode.rawValue)
        member("reason", error.reason)
        member("uuid", error.uuid)
        bytes.append(UInt8(ascii: "}"))
    }
}

/// A response body that writes itself with ``WireWriter`` instead of `JSONEncoder`.
package protocol WireWritable: Sendable {
    func write(to writer: inout WireWriter) throws

    /// About how many bytes ``write(to:)`` writes, for the writer to reserve at once (a large
    /// answer then never copies its bytes over as it grows).
    var estimatedByteCount: Int { get }
}

extension WireWritable {
    package var estimatedByteCount: Int { 16 * 1024 }
}
