/// The body of `records/query`.
package struct RecordsQueryRequest: Codable, Sendable, Equatable {
    package var query: CloudQuery
    package var zoneID: ZoneID?
    package var resultsLimit: Int?
    /// From the previous page's response; continues that query where it stopped.
    package var continuationMarker: String?
    package var desiredKeys: [String]?
    /// Without `zoneID`: `true` searches every zone of the database (each record then carries its
    /// `zoneID`), `false` or absent the default zone only. Ignored when `zoneID` is set.
    package var zoneWide: Bool?

    package init(query: CloudQuery, zoneID: ZoneID? = nil, resultsLimit: Int? = nil, continuationMarker: String? = nil,
                desiredKeys: [String]? = nil, zoneWide: Bool? = nil) {
        self.query = query
        self.zoneID = zoneID
        self.resultsLimit = resultsLimit
        self.continuationMarker = continuationMarker
        self.desiredKeys = desiredKeys
        self.zoneWide = zoneWide
    }

    /// Whether the query searches every zone of the database.
    package var searchesEveryZone: Bool { zoneID == nil && zoneWide == true }
}

/// The response of `records/query`: a page of records and, when more match, the marker for the next page.
package struct RecordsQueryResponse: Codable, Sendable, Equatable {
    package var records: [Record]
    package var continuationMarker: String?

    package init(records: [Record], continuationMarker: String?) {
        self.records = records
        self.continuationMarker = continuationMarker
    }
}
