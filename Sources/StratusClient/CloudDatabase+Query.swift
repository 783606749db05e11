import StratusCore

/// Where a query's next page starts (CloudKit's `CKQueryOperation.Cursor`).
public struct QueryCursor: Sendable, Equatable {
    let query: CloudQuery
    /// Nil for a query over every zone.
    let zoneID: ZoneID?
    let desiredKeys: [String]?
    let marker: String
}

extension CloudDatabase {
    /// Records of a query's type matching its filters, in its sort order, one page at a time
    /// (CloudKit's `records(matching:inZoneWith:…)`); a nil zone searches every zone of the
    /// database (a `zoneWide` query). Pass the cursor to
    /// ``records(continuingMatchFrom:resultsLimit:)`` for the next page.
    public func records(matching query: CloudQuery, inZoneWith zoneID: ZoneID? = .default, desiredKeys: [String]? = nil,
                        resultsLimit: Int? = nil) async throws -> (matchResults: [CloudRecord], queryCursor: QueryCursor?) {
        try await page(RecordsQueryRequest(query: query, zoneID: zoneID, resultsLimit: resultsLimit, desiredKeys: desiredKeys,
                                           zoneWide: zoneID == nil ? true : nil))
    }

    /// The next page of a query.
    public func records(continuingMatchFrom cursor: QueryCursor, resultsLimit: Int? = nil) async throws
        -> (matchResults: [CloudRecord], queryCursor: QueryCursor?) {
        try await page(RecordsQueryRequest(query: cursor.query, zoneID: cursor.zoneID, resultsLimit: resultsLimit,
                                           continuationMarker: cursor.marker, desiredKeys: cursor.desiredKeys,
                                           zoneWide: cursor.zoneID == nil ? true : nil))
    }

    private func page(_ request: RecordsQueryRequest) async throws -> (matchResults: [CloudRecord], queryCursor: QueryCursor?) {
        let zoneID = request.zoneID.map(normalized)
        let response = try await post("records/query", request, as: RecordsQueryResponse.self)
        var records: [CloudRecord] = []
        for record in response.records {
            let recordZone = zoneID ?? normalized(record.zoneID ?? .default)
            records.append(try await downloadingAssets(of: try CloudRecord(wire: record, zoneID: recordZone)))
        }
        let cursor = response.continuationMarker.map {
            QueryCursor(query: request.query, zoneID: zoneID, desiredKeys: request.desiredKeys, marker: $0)
        }
        return (records, cursor)
    }
}
