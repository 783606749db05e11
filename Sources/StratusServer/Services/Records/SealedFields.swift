import StratusCore

/// Encrypted fields at rest (CloudKit's `isEncrypted`): each value sealed with the data key of
/// its zone's owner (``KeyVault``), bound to its record's name and its field's.
///
/// A field's stored dictionary is `{"sealed":"sk1.…","type":"STRING","isEncrypted":true}`,
/// where the sealed text is the value's JSON; opened, it becomes the wire's
/// `{"value":…,"type":"STRING","isEncrypted":true}`. Everything that copies stored rows (the
/// change read-ahead, notifications, exports, `stratus copy`, backups) keeps them sealed; an
/// answer opens them last, with the owner's key (``KeyVault/openingFields(of:owner:)``).
enum SealedFields {
    /// Thrown inside a transaction that must seal or open a value of `owner`'s and was not given
    /// their key: the request takes it (outside the transaction, where the key store may be
    /// reached) and runs again with it.
    struct KeyNeeded: Error {
        var owner: String
    }

    /// Whether stored fields JSON holds a sealed value, without parsing it.
    static func occur(in fieldsJSON: [UInt8]) -> Bool {
        marker.occurs(in: fieldsJSON)
    }

    // `{"sealed":"` cannot start a plain field's dictionary (`{"value":` does), nor a fields
    // object (a field's dictionary follows its name, not a string).
    private static let marker = FieldsMarker(#"{"sealed":"sk1."#, pivot: "k")

    /// The fields' stored JSON, those named in `encrypted` sealed with `sealer`; fields set to
    /// nil are left out.
    static func encode(_ fields: [String: FieldValue?], sealing encrypted: Set<String>, recordName: String,
                       with sealer: Sealer) throws -> [UInt8] {
        var writer = WireWriter(capacity: 256)
        writer.raw("{")
        var first = true
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
            var plain = WireWriter(capacity: 64)
            plain.fieldValue(value)
            writer.raw("{\"sealed\":")
            writer.string(try sealer.seal(plain.bytes, in: context(recordName: recordName, field: name)))
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
    /// JSON without any returned as it is; ``keyReset`` for a value the key does not open.
    ///
    /// It splices without parsing: each sealed dictionary, `{"sealed":"sk1.…",…}`, becomes
    /// `{"value":…,…}`, its field's name read just before it (field names need no escapes).
    static func open(_ fieldsJSON: [UInt8], recordName: String, with sealer: Sealer) throws -> [UInt8] {
        guard var start = marker.firstOccurrence(in: fieldsJSON, from: 0) else { return fieldsJSON }
        var opened: [UInt8] = []
        opened.reserveCapacity(fieldsJSON.count)
        var copied = 0
        let quote = UInt8(ascii: "\"")
        while true {
            // `"name":` precedes the dictionary; the sealed text runs from `sk1.` to its quote.
            guard start >= 3, fieldsJSON[start - 1] == UInt8(ascii: ":"), fieldsJSON[start - 2] == quote,
                  let nameStart = fieldsJSON[..<(start - 2)].lastIndex(of: quote),
                  let textEnd = fieldsJSON[(start + sealedTextOffset)...].firstIndex(of: quote) else {
                throw CloudKitError(.internalError, "record '\(recordName)': stored fields are damaged")
            }
            let name = String(decoding: fieldsJSON[(nameStart + 1)..<(start - 2)], as: UTF8.self)
            let sealed = String(decoding: fieldsJSON[(start + sealedTextOffset)..<textEnd], as: UTF8.self)
            guard let plaintext = try? sealer.open(sealed, in: context(recordName: recordName, field: name)) else { throw keyReset }
            opened += fieldsJSON[copied..<start]
            opened += #"{"value":"#.utf8
            opened += plaintext
            copied = textEnd + 1   // what follows is the dictionary's `,"type":…,"isEncrypted":true}`
            guard let next = marker.firstOccurrence(in: fieldsJSON, from: copied) else { break }
            start = next
        }
        opened += fieldsJSON[copied...]
        return opened
    }

    /// Where a sealed dictionary's text starts, after `{"sealed":"`.
    private static let sealedTextOffset = #"{"sealed":""#.utf8.count

    /// What a sealed value is bound to: its record (the name's length first, so that no two
    /// pairs of names read alike) and its field.
    private static func context(recordName: String, field: String) -> String {
        "field|\(recordName.utf8.count)|\(recordName)|\(field)"
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
        if let cached = cachedSealer(for: .user(owner)) { return cached }
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
