import StratusCore

/// Encrypted fields at rest (CloudKit's `isEncrypted`): a record's encrypted values sealed
/// together with the data key of its zone's owner (``KeyVault``), bound to the record's name and
/// to the names of its encrypted fields, in order.
///
/// One seal per record, not per field: sealing costs most in what each seal does once (a nonce,
/// the key's schedule, the text's encoding), not in the bytes. The first encrypted field's stored
/// dictionary holds the sealed text, `{"sealed":"sk1.…","type":"STRING","isEncrypted":true}`; each
/// other names its place in it, `{"sealed":1,"type":"DOUBLE_LIST","isEncrypted":true}`. Opened,
/// each becomes the wire's `{"value":…,"type":…,"isEncrypted":true}`. Everything that copies stored
/// rows (the change read-ahead, notifications, exports, `stratus copy`, backups) keeps them
/// sealed; an answer opens them last, with the owner's key.
enum SealedFields {
    /// Thrown inside a transaction that must seal or open a value of `owner`'s and was not given
    /// their key: the request takes it (outside the transaction, where the key store may be
    /// reached) and runs again with it.
    struct KeyNeeded: Error {
        var owner: String
    }

    /// Whether stored fields JSON holds sealed values, without parsing it.
    static func occur(in fieldsJSON: [UInt8]) -> Bool {
        textMarker.occurs(in: fieldsJSON)
    }

    // `{"sealed":` cannot start a plain field's dictionary (`{"value":` does), nor a fields
    // object (a field's dictionary follows its name, not a string or a number).
    private static let marker = FieldsMarker(#"{"sealed":"#, pivot: "d")
    /// The marker of the dictionary that holds the sealed text, once in a record.
    private static let textMarker = FieldsMarker(#"{"sealed":"sk1."#, pivot: "k")

    /// The fields' stored JSON, those named in `encrypted` sealed with `sealer`; fields set to
    /// nil are left out.
    static func encode(_ fields: [String: FieldValue?], sealing encrypted: Set<String>, recordName: String,
                       with sealer: Sealer) throws -> [UInt8] {
        // The values to seal, framed (a 4-byte length before each), in the order they are written,
        // and their fields' names as JSON spells them (one after another in `spelled`).
        var spelled = WireWriter(capacity: 16 * encrypted.count)
        var names: [Range<Int>] = []
        var plaintext = WireWriter(capacity: 64 * encrypted.count)
        for (name, value) in fields where encrypted.contains(name) {
            guard let value else { continue }
            let start = spelled.bytes.count
            spelled.string(name)
            names.append((start + 1)..<(spelled.bytes.count - 1))
            plaintext.lengthPrefixed { $0.fieldValue(value) }
        }
        let sealed = names.isEmpty ? "" : try sealer.seal(plaintext.bytes, in: context(recordName: recordName, fields: names, in: spelled.bytes,
                                                                                       with: sealer))
        var writer = WireWriter(capacity: 256 + sealed.utf8.count)
        writer.raw("{")
        var first = true
        var place = 0
        for (name, value) in fields {
            guard let value else { continue }
            if !first { writer.raw(",") }
            first = false
            writer.string(name)
            writer.raw(":")
            guard encrypted.contains(name) else {
                writer.field(value)
                continue
            }
            writer.raw("{\"sealed\":")
            if place == 0 {
                // "sk1." and standard base64: nothing in it to escape, so no character is checked.
                writer.raw("\"")
                writer.raw(Array(sealed.utf8))
                writer.raw("\"")
            } else {
                writer.integer(Int64(place))
            }
            place += 1
            writer.raw(",\"type\":")
            writer.string(value.type.wireName)
            writer.raw(",\"isEncrypted\":true}")
        }
        writer.raw("}")
        return writer.bytes
    }

    /// What a read of a value its owner's key cannot open answers — the key was reset (destroyed,
    /// and maybe made again since), or the value changed in the database: `ZONE_NOT_FOUND`, as
    /// CloudKit answers a zone whose encryption key was reset.
    static let keyReset = CloudKitError(.zoneNotFound, "the zone's encryption key was reset (userDidResetEncryptedDataKey): its encrypted fields cannot be read; delete the zone and upload its records again")

    /// Stored fields JSON that holds sealed values (``occur(in:)``) with them opened with
    /// `sealer`, as the wire carries them; ``keyReset`` for values the key does not open.
    ///
    /// It splices without parsing: each sealed dictionary, `{"sealed":…,…}`, becomes
    /// `{"value":…,…}`, its field's name read just before it (field names need no escapes).
    static func open(_ fieldsJSON: [UInt8], recordName: String, with sealer: Sealer) throws -> [UInt8] {
        // Made only when thrown: every record read with encrypted fields passes here.
        func damaged() -> CloudKitError { CloudKitError(.internalError, "record '\(recordName)': its stored fields are damaged") }
        let quote = UInt8(ascii: "\"")
        let marker = self.marker
        var places: [SealedPlace] = []
        places.reserveCapacity(8)
        var sealed: Range<Int>?
        var from = 0
        while let start = marker.firstOccurrence(in: fieldsJSON, from: from) {
            let token = start + marker.count
            guard start >= 3, fieldsJSON[start - 1] == UInt8(ascii: ":"), fieldsJSON[start - 2] == quote,
                  let nameStart = openingQuote(before: start - 2, in: fieldsJSON), token < fieldsJSON.count else { throw damaged() }
            var place = SealedPlace(start: start, name: (nameStart + 1)..<(start - 2), end: 0, number: 0)
            if fieldsJSON[token] == quote {
                guard sealed == nil, let close = fieldsJSON[(token + 1)...].firstIndex(of: quote) else { throw damaged() }
                sealed = (token + 1)..<close
                place.end = close + 1
            } else {
                var end = token
                while end < fieldsJSON.count, fieldsJSON[end] >= UInt8(ascii: "0"), fieldsJSON[end] <= UInt8(ascii: "9"), end - token < 6 {
                    place.number = place.number * 10 + Int(fieldsJSON[end] - UInt8(ascii: "0"))
                    end += 1
                }
                guard end > token, end < fieldsJSON.count, fieldsJSON[end] == UInt8(ascii: ",") else { throw damaged() }
                place.end = end
            }
            places.append(place)
            from = place.end
        }
        // The names in the order the values were sealed: the first place holds the text, the
        // others their number.
        var names = [Range<Int>](repeating: 0..<0, count: places.count)
        for place in places {
            guard place.number < places.count, names[place.number].isEmpty else { throw damaged() }
            names[place.number] = place.name
        }
        guard let sealed,
              let plaintext = try? sealer.open(fieldsJSON[sealed], in: context(recordName: recordName, fields: names, in: fieldsJSON, with: sealer)) else {
            throw keyReset
        }
        return try plaintext.withUnsafeBytes { plaintext in
            // Each value's bytes in the plaintext, in the order sealed.
            var values = [Range<Int>]()
            values.reserveCapacity(places.count)
            var offset = 0
            while offset + 4 <= plaintext.count {
                let length = Int(plaintext[offset]) << 24 | Int(plaintext[offset + 1]) << 16 | Int(plaintext[offset + 2]) << 8 | Int(plaintext[offset + 3])
                guard offset + 4 + length <= plaintext.count else { throw damaged() }
                values.append((offset + 4)..<(offset + 4 + length))
                offset += 4 + length
            }
            guard values.count == places.count else { throw damaged() }
            var opened: [UInt8] = []
            opened.reserveCapacity(fieldsJSON.count + plaintext.count)
            var copied = 0
            for place in places {
                opened += fieldsJSON[copied..<place.start]
                opened += #"{"value":"#.utf8
                opened += UnsafeRawBufferPointer(rebasing: plaintext[values[place.number]])
                copied = place.end   // what follows is the dictionary's `,"type":…,"isEncrypted":true}`
            }
            opened += fieldsJSON[copied...]
            return opened
        }
    }

    /// Where a sealed dictionary is in stored fields JSON: where it starts, its field's name, where
    /// its `"sealed"` member's value ends, and its value's place among those sealed (0 for the
    /// one that holds the text).
    private struct SealedPlace {
        var start: Int
        var name: Range<Int>
        var end: Int
        var number: Int
    }

    /// Where the JSON string that closes at `close` opens: the quote before it that no
    /// backslash escapes.
    private static func openingQuote(before close: Int, in json: [UInt8]) -> Int? {
        var end = close
        while let quote = json[..<end].lastIndex(of: UInt8(ascii: "\"")) {
            let backslashes = json[..<quote].reversed().prefix { $0 == UInt8(ascii: "\\") }.count
            if backslashes % 2 == 0 { return quote }
            end = quote
        }
        return nil
    }

    /// What a record's sealed values are bound to (after the scope, ``Sealer/context(_:)``): its
    /// name and its encrypted fields' names as the stored JSON spells them (ranges of `spelling`),
    /// in the order sealed, each after its length (so that no two lists read alike):
    /// `fields|3:rec6:secret…`.
    private static func context(recordName: String, fields: [Range<Int>], in spelling: [UInt8], with sealer: Sealer) -> [UInt8] {
        sealer.context { bytes in
            bytes.append(contentsOf: "fields|".utf8)
            func appendLength(_ length: Int) {
                var divisor = 1
                while divisor * 10 <= length { divisor *= 10 }
                while divisor > 0 {
                    bytes.append(UInt8(ascii: "0") + UInt8(length / divisor % 10))
                    divisor /= 10
                }
                bytes.append(UInt8(ascii: ":"))
            }
            appendLength(recordName.utf8.count)
            bytes.append(contentsOf: recordName.utf8)
            for name in fields {
                appendLength(name.count)
                bytes.append(contentsOf: spelling[name])
            }
        }
    }
}

extension StoredRecord {
    /// Whether the row holds sealed fields (``SealedFields``) that an answer must open.
    var hasSealedFields: Bool { !deleted && SealedFields.occur(in: fieldsJSON) }
}

extension KeyVault {
    /// Runs `body` with the keys in memory, and once more after fetching the key it said it
    /// needed (``SealedFields/KeyNeeded``), which is then in memory.
    func withFieldKeys<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let needed as SealedFields.KeyNeeded {
            _ = try await fieldOpener(of: needed.owner)
            return try await body()
        }
    }

    /// The key that opens the sealed fields of `owner`'s zones.
    func fieldOpener(of owner: String) async throws -> Sealer {
        do {
            return try await opener(for: .user(owner))
        } catch KeyVaultError.destroyed {
            throw SealedFields.keyReset
        }
    }
}

/// The keys that open the sealed fields of the rows of one answer, each owner's fetched once. A
/// row whose owner's key is gone (the account was deleted, or the key reset) answers
/// ``SealedFields/keyReset``.
struct FieldOpeners {
    let keys: KeyVault
    private var openers: [String: Sealer] = [:]

    init(_ keys: KeyVault) {
        self.keys = keys
    }

    /// Opens the row's sealed fields, if it has any, with its zone owner's key.
    mutating func open(_ row: inout StoredRecord, owner: String) async throws {
        guard row.hasSealedFields else { return }
        let opener: Sealer
        if let known = openers[owner] {
            opener = known
        } else {
            opener = try await keys.fieldOpener(of: owner)
            openers[owner] = opener
        }
        row.fieldsJSON = try SealedFields.open(row.fieldsJSON, recordName: row.recordName, with: opener)
    }
}

extension RecordResults {
    /// Opens the sealed fields of the records, all of one zone owned by `owner`; a record whose
    /// fields cannot be opened fails alone.
    mutating func openFields(with keys: KeyVault, owner: String) async throws {
        var openers = FieldOpeners(keys)
        for index in results.indices {
            guard case .stored(var stored, let desiredKeys) = results[index], stored.hasSealedFields else { continue }
            do {
                try await openers.open(&stored, owner: owner)
                results[index] = .stored(stored, desiredKeys: desiredKeys)
            } catch let error as CloudKitError {
                results[index] = .failure(RecordError(recordName: stored.recordName, error: error))
            }
        }
    }
}

extension ZoneChangesPage {
    /// Opens the sealed fields of the page's records, with its zone owner's key.
    mutating func openFields(with keys: KeyVault) async throws {
        let owner = zoneID.ownerRecordName ?? ""
        var openers = FieldOpeners(keys)
        for index in records.indices where records[index].hasSealedFields {
            try await openers.open(&records[index], owner: owner)
        }
    }
}

extension ZoneChangesPages {
    /// Opens the sealed fields of every page; a zone whose owner's key is gone fails alone.
    mutating func openFields(with keys: KeyVault) async throws {
        for index in zones.indices {
            guard case .success(var page) = zones[index] else { continue }
            do {
                try await page.openFields(with: keys)
                zones[index] = .success(page)
            } catch let error as CloudKitError {
                zones[index] = .failure(ZoneError(zoneID: page.zoneID, error: error))
            }
        }
    }
}

extension QueryResults {
    /// Opens the sealed fields of the records, each with its zone owner's key.
    mutating func openFields(with keys: KeyVault) async throws {
        var openers = FieldOpeners(keys)
        for index in rows.indices where rows[index].hasSealedFields {
            try await openers.open(&rows[index], owner: owners[rows[index].zoneRowID] ?? "")
        }
    }
}
