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
        // The values to seal, framed (a 4-byte length before each), in the order they are written.
        var names: [String] = []
        var plaintext = WireWriter(capacity: 64 * encrypted.count)
        for (name, value) in fields where encrypted.contains(name) {
            guard let value else { continue }
            var escaped = WireWriter(capacity: name.utf8.count + 2)
            escaped.string(name)
            names.append(String(decoding: escaped.bytes.dropFirst().dropLast(), as: UTF8.self))
            var framed = WireWriter(capacity: 64)
            framed.fieldValue(value)
            withUnsafeBytes(of: UInt32(framed.bytes.count).bigEndian) { plaintext.raw($0) }
            plaintext.raw(framed.bytes)
        }
        let sealed = names.isEmpty ? "" : try sealer.seal(plaintext.bytes, in: context(recordName: recordName, fields: names))
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
            if place == 0 { writer.string(sealed) } else { writer.integer(Int64(place)) }
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

    /// Stored fields JSON with its sealed values opened with `sealer`, as the wire carries them;
    /// JSON without any returned as it is; ``keyReset`` for values the key does not open.
    ///
    /// It splices without parsing: each sealed dictionary, `{"sealed":…,…}`, becomes
    /// `{"value":…,…}`, its field's name read just before it (field names need no escapes).
    static func open(_ fieldsJSON: [UInt8], recordName: String, with sealer: Sealer) throws -> [UInt8] {
        guard occur(in: fieldsJSON) else { return fieldsJSON }
        let damaged = CloudKitError(.internalError, "record '\(recordName)': its stored fields are damaged")
        let quote = UInt8(ascii: "\"")
        // Each sealed dictionary: where it starts, its field's name, and where its `"sealed"`
        // member's value ends.
        var places: [(start: Int, name: String, end: Int)] = []
        var sealed: String?
        var from = 0
        while let start = marker.firstOccurrence(in: fieldsJSON, from: from) {
            let token = start + marker.count
            guard start >= 3, fieldsJSON[start - 1] == UInt8(ascii: ":"), fieldsJSON[start - 2] == quote,
                  let nameStart = openingQuote(before: start - 2, in: fieldsJSON), token < fieldsJSON.count else { throw damaged }
            let end: Int
            if fieldsJSON[token] == quote {
                guard sealed == nil, let close = fieldsJSON[(token + 1)...].firstIndex(of: quote) else { throw damaged }
                sealed = String(decoding: fieldsJSON[(token + 1)..<close], as: UTF8.self)
                end = close + 1
            } else {
                guard let comma = fieldsJSON[token...].firstIndex(of: UInt8(ascii: ",")) else { throw damaged }
                end = comma
            }
            places.append((start, String(decoding: fieldsJSON[(nameStart + 1)..<(start - 2)], as: UTF8.self), end))
            from = end
        }
        // The values in the order they were sealed: the first place holds the text, the others
        // their number.
        var order = places.indices.map { _ in 0 }
        for (index, place) in places.enumerated() where fieldsJSON[place.start + marker.count] != quote {
            guard let number = Int(String(decoding: fieldsJSON[(place.start + marker.count)..<place.end], as: UTF8.self)),
                  number > 0, number < places.count else { throw damaged }
            order[index] = number
        }
        var names = places.map(\.name)
        for (index, place) in places.enumerated() { names[order[index]] = place.name }
        guard let sealed, Set(order).count == places.count,
              let plaintext = try? sealer.open(sealed, in: context(recordName: recordName, fields: names)) else { throw keyReset }
        var values: [ArraySlice<UInt8>] = []
        var offset = 0
        while offset + 4 <= plaintext.count {
            let length = plaintext[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
            guard offset + 4 + length <= plaintext.count else { throw damaged }
            values.append(plaintext[(offset + 4)..<(offset + 4 + length)])
            offset += 4 + length
        }
        guard values.count == places.count else { throw damaged }
        var opened: [UInt8] = []
        opened.reserveCapacity(fieldsJSON.count + plaintext.count)
        var copied = 0
        for (index, place) in places.enumerated() {
            opened += fieldsJSON[copied..<place.start]
            opened += #"{"value":"#.utf8
            opened += values[order[index]]
            copied = place.end   // what follows is the dictionary's `,"type":…,"isEncrypted":true}`
        }
        opened += fieldsJSON[copied...]
        return opened
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

    /// What a record's sealed values are bound to: its name and its encrypted fields' names as
    /// the stored JSON spells them, in the order sealed, each after its length (so that no two
    /// lists read alike).
    private static func context(recordName: String, fields: [String]) -> String {
        "fields|" + ([recordName] + fields).map { "\($0.utf8.count):\($0)" }.joined()
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

    /// Opens the row's sealed fields (``SealedFields``) for an answer, with the data key of its
    /// zone's owner. A row whose owner's key is gone (the account was deleted, or the key reset)
    /// answers ``SealedFields/keyReset``.
    func openFields(of row: inout StoredRecord, owner: String) async throws {
        guard row.hasSealedFields else { return }
        let opener = try await fieldOpener(of: owner)
        row.fieldsJSON = try SealedFields.open(row.fieldsJSON, recordName: row.recordName, with: opener)
    }

    /// The key that opens the sealed fields of `owner`'s zones.
    private func fieldOpener(of owner: String) async throws -> Sealer {
        do {
            return try await opener(for: .user(owner))
        } catch KeyVaultError.destroyed {
            throw SealedFields.keyReset
        }
    }
}

extension RecordResults {
    /// Opens the sealed fields of the records, all of one zone owned by `owner`; a record whose
    /// fields cannot be opened fails alone.
    mutating func openFields(with keys: KeyVault, owner: String) async throws {
        for index in results.indices {
            guard case .stored(var stored, let desiredKeys) = results[index], stored.hasSealedFields else { continue }
            do {
                try await keys.openFields(of: &stored, owner: owner)
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
        for index in records.indices where records[index].hasSealedFields {
            try await keys.openFields(of: &records[index], owner: owner)
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
        for index in rows.indices where rows[index].hasSealedFields {
            try await keys.openFields(of: &rows[index], owner: owners[rows[index].zoneRowID] ?? "")
        }
    }
}
