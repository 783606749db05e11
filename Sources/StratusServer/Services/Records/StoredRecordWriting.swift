import StratusCore

extension WireWriter {
    /// Writes a stored row as a Record Dictionary. Without `desiredKeys` or assets, the stored
    /// fields JSON is copied as it is; otherwise the fields are decoded, filtered, and their assets
    /// given download URLs. With `zoneID`, the record names its zone.
    mutating func record(_ stored: StoredRecord, desiredKeys: [String]?, links: AssetLinks, shares: [String: ShareKeys] = [:],
                         zoneID: ZoneID? = nil) throws {
        let hasAssets = !stored.deleted && RecordMapper.hasAssets(stored.fieldsJSON)
        let shareKeys = stored.deleted ? nil : shares[stored.recordName]
        if stored.deleted || desiredKeys != nil || hasAssets || shareKeys != nil {
            var wire = try RecordMapper.record(from: stored, desiredKeys: desiredKeys)
            if hasAssets { try links.attach(to: &wire, zoneRowID: stored.zoneRowID) }
            wire.shareKeys = shareKeys
            wire.zoneID = zoneID
            record(wire)
        } else {
            var system = RecordMapper.systemFields(of: stored)
            system.zoneID = zoneID
            record(system, encodedFields: stored.fieldsJSON)
        }
    }

    /// Writes `[record, …]` from stored rows; with `zoneIDs`, each names its zone.
    mutating func records(_ rows: [StoredRecord], desiredKeys: [String]?, links: AssetLinks, shares: [String: ShareKeys] = [:],
                          zoneIDs: [Int64: ZoneID]? = nil) throws {
        raw("[")
        for (index, stored) in rows.enumerated() {
            if index > 0 { raw(",") }
            try record(stored, desiredKeys: desiredKeys, links: links, shares: shares, zoneID: zoneIDs?[stored.zoneRowID])
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

    /// How many operations succeeded: records stored or served.
    var storedCount: Int {
        results.count { if case .stored = $0 { true } else { false } }
    }
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
