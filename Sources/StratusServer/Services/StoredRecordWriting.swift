import StratusCore

extension WireWriter {
    /// Writes a stored row as a Record Dictionary. Without `desiredKeys` or assets, the stored
    /// fields JSON is copied as it is; otherwise the fields are decoded, filtered, and their assets
    /// given download URLs.
    mutating func record(_ stored: StoredRecord, desiredKeys: [String]?, links: AssetLinks, shares: [String: ShareKeys] = [:]) throws {
        let hasAssets = !stored.deleted && RecordMapper.hasAssets(stored.fieldsJSON)
        let shareKeys = stored.deleted ? nil : shares[stored.recordName]
        if stored.deleted || desiredKeys != nil || hasAssets || shareKeys != nil {
            var wire = try RecordMapper.record(from: stored, desiredKeys: desiredKeys)
            if hasAssets { try links.attach(to: &wire, zoneRowID: stored.zoneRowID) }
            wire.shareKeys = shareKeys
            record(wire)
        } else {
            record(RecordMapper.systemFields(of: stored), encodedFields: stored.fieldsJSON)
        }
    }

    /// Writes `[record, …]` from stored rows.
    mutating func records(_ rows: [StoredRecord], desiredKeys: [String]?, links: AssetLinks, shares: [String: ShareKeys] = [:]) throws {
        raw("[")
        for (index, stored) in rows.enumerated() {
            if index > 0 { raw(",") }
            try record(stored, desiredKeys: desiredKeys, links: links, shares: shares)
        }
        raw("]")
    }
}

/// The response of `records/modify` and `records/lookup`, written from the stored rows.
package struct RecordResults: WireWritable {
    /// One requested item's outcome.
    package enum Outcome: Sendable {
        case stored(StoredRecord, desiredKeys: [String]?)
        case failure(RecordError)
    }

    package var results: [Outcome]
    var links: AssetLinks
    /// The share keys of share records among the results, by record name.
    var shares: [String: ShareKeys] = [:]

    package func write(to writer: inout WireWriter) throws {
        writer.raw("{\"records\":[")
        for (index, result) in results.enumerated() {
            if index > 0 { writer.raw(",") }
            switch result {
            case .stored(let stored, let desiredKeys): try writer.record(stored, desiredKeys: desiredKeys, links: links, shares: shares)
            case .failure(let error): writer.recordError(error)
            }
        }
        writer.raw("]}")
    }
}
