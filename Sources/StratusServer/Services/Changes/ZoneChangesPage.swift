import StratusCore

/// One zone's page of changes as the change service reads it: stored rows, written to the wire
/// without decoding their fields (the stored fields JSON is copied into the response).
package struct ZoneChangesPage: Sendable {
    package var zoneID: ZoneID
    package var syncToken: String
    package var moreComing: Bool
    /// The page's rows: a slice of those read, which may hold one more (to tell `moreComing`).
    package var records: ArraySlice<StoredRecord>
    /// Fields to keep; nil keeps all (and lets the stored JSON be copied as it is).
    package var desiredKeys: [String]?
    var links: AssetLinks
    /// The share keys of share records on the page, by record name.
    var shares: [String: ShareKeys] = [:]
}

/// The response of `changes/zone`: one page or one error per requested zone.
package struct ZoneChangesPages: WireWritable {
    package var zones: [Result<ZoneChangesPage, ZoneError>]

    package var estimatedByteCount: Int {
        zones.reduce(64) { $0 + ((try? $1.get()).map { WireWriter.estimatedByteCount(of: $0.records) + 256 } ?? 256) }
    }

    package func write(to writer: inout WireWriter) throws {
        writer.raw("{\"zones\":[")
        for (index, zone) in zones.enumerated() {
            if index > 0 { writer.raw(",") }
            switch zone {
            case .success(let page):
                writer.raw("{\"zoneID\":")
                writer.zoneID(page.zoneID)
                writer.key("syncToken")
                writer.string(page.syncToken)
                writer.key("moreComing")
                writer.bool(page.moreComing)
                writer.key("records")
                try writer.records(page.records, desiredKeys: page.desiredKeys, links: page.links, shares: page.shares)
                writer.raw("}")
            case .failure(let error):
                writer.zoneError(error)
            }
        }
        writer.raw("]}")
    }
}

/// The response of the older `records/changes`: one zone's page.
package struct RecordChangesPage: WireWritable {
    package var page: ZoneChangesPage

    package var estimatedByteCount: Int { WireWriter.estimatedByteCount(of: page.records) + 256 }

    package func write(to writer: inout WireWriter) throws {
        writer.raw("{\"records\":")
        try writer.records(page.records, desiredKeys: page.desiredKeys, links: page.links, shares: page.shares)
        writer.key("syncToken")
        writer.string(page.syncToken)
        writer.key("moreComing")
        writer.bool(page.moreComing)
        writer.raw(",\"reverse\":false}")
    }
}
