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
            recordAsStored(stored, zoneID: zoneID)
        }
    }

    /// Writes a live record's dictionary straight from its row, the stored fields JSON copied as
    /// it is: what ``record(_:encodedFields:writingRemovals:)`` writes for the row's system fields
    /// (``RecordMapper/systemFields(of:)``), without making a `Record` of them.
    mutating func recordAsStored(_ stored: StoredRecord, zoneID: ZoneID?) {
        raw("{\"recordName\":")
        string(stored.recordName)
        key("recordType")
        string(stored.recordType)
        key("recordChangeTag")
        string(stored.changeTag)
        key("fields")
        raw(stored.fieldsJSON)
        key("created")
        stamp(stored.created)
        key("modified")
        stamp(stored.modified)
        raw(",\"deleted\":false")
        if let parent = stored.parent {
            raw(",\"parent\":{\"recordName\":")
            string(parent)
            raw("}")
        }
        if let share = stored.share {
            raw(",\"share\":{\"recordName\":")
            string(share)
            raw("}")
        }
        if let zoneID {
            key("zoneID")
            self.zoneID(zoneID)
        }
        raw("}")
    }

    /// Writes `[record, …]` from stored rows; with `zoneIDs`, each names its zone.
    mutating func records(_ rows: some RandomAccessCollection<StoredRecord>, desiredKeys: [String]?, links: AssetLinks,
                          shares: [String: ShareKeys] = [:], zoneIDs: [Int64: ZoneID]? = nil) throws {
        raw("[")
        for index in rows.indices {
            if index != rows.startIndex { raw(",") }
            try record(rows[index], desiredKeys: desiredKeys, links: links, shares: shares, zoneID: zoneIDs?[rows[index].zoneRowID])
        }
        raw("]")
    }

    /// About the bytes ``records(_:desiredKeys:links:shares:zoneIDs:)`` writes for `rows`.
    static func estimatedByteCount(of rows: some RandomAccessCollection<StoredRecord>) -> Int {
        var total = 64
        for index in rows.indices { total += estimatedByteCount(of: rows[index]) }
        return total
    }

    /// About the bytes a row's dictionary takes: its fields JSON, and its system fields (name,
    /// type, tag and two stamps) in about 320.
    static func estimatedByteCount(of row: StoredRecord) -> Int {
        row.fieldsJSON.count + 320
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

    package var estimatedByteCount: Int {
        results.reduce(64) { total, result in
            if case .stored(let stored, _) = result { total + WireWriter.estimatedByteCount(of: stored) } else { total + 256 }
        }
    }

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
