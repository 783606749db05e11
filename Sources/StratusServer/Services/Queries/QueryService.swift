import Crypto
import Foundation
import StratusCore

/// `records/query`: records of a type matching filters on indexed fields, sorted, in pages.
///
/// A filter needs its field marked `QUERYABLE`, a sort key `SORTABLE` (system fields always
/// qualify). Pages continue from a keyset marker, so records saved between pages neither repeat
/// nor push earlier results out. A `zoneWide` query searches every zone of the database the
/// caller may read, in one order, and names each record's zone.
package struct QueryService: Sendable {
    let storage: any StratusStorage
    let directory: DatabaseDirectory
    let maxResultsLimit: Int
    let limits: QueryLimits
    let signer: AssetURLSigner
    let markerKey: SymmetricKey
    /// Opens encrypted fields for the answer (``SealedFields``).
    let keys: KeyVault

    /// The bounds on one query (see ``ServerConfiguration``).
    struct QueryLimits: Sendable {
        var maxFilters: Int
        var maxSortKeys: Int
        var maxListValues: Int
        var maxResponseBytes: Int
    }

    init(storage: any StratusStorage, directory: DatabaseDirectory, maxResultsLimit: Int, limits: QueryLimits, signer: AssetURLSigner,
         keys: KeyVault) {
        self.storage = storage
        self.keys = keys
        self.directory = directory
        self.maxResultsLimit = maxResultsLimit
        self.limits = limits
        self.signer = signer
        markerKey = signer.derivedKey(for: "stratus continuation marker v1")
    }

    package func query(_ request: RecordsQueryRequest, _ access: DatabaseAccess) async throws -> QueryResults {
        let limit = try ResultsLimit.resolve(request.resultsLimit, maximum: maxResultsLimit)
        try checkBounds(request.query)
        let fingerprint = try Self.fingerprint(request)
        let links = AssetLinks(signer: signer, access: access)
        let limits = self.limits
        let markerKey = self.markerKey
        var results = try await directory.read(for: access) { databaseID, transaction in
            let grants = try await Self.zones(of: request, databaseID: databaseID, access: access, in: transaction)
            let recordType = request.query.recordType
            guard let schema = try await transaction.recordTypeSchema(containerID: access.containerID, environment: access.environment,
                                                                 recordType: recordType) else {
                if access.environment == .production {
                    throw CloudKitError.badRequest("record type '\(recordType)' is not in the production schema")
                }
                return QueryResults(rows: [], desiredKeys: request.desiredKeys, continuationMarker: nil, links: links)
            }
            var query = RecordQuery(zoneRowIDs: grants.keys.sorted(), recordType: recordType, limit: limit + 1)
            if access.scope == .public {
                var roles = PublicPermissions(access, in: transaction)
                if case .createdBy(let user) = try await roles.readScope(of: recordType) {
                    query.conditions.append(RecordQuery.Condition(source: .column(.createdBy), test: .equals(.text(user)), negated: false))
                }
            }
            for filter in request.query.filterBy ?? [] {
                query.conditions += try QueryTranslation.conditions(for: filter, in: schema)
            }
            for sort in request.query.sortBy ?? [] {
                query.sort.append(try QueryTranslation.sortKey(for: sort, in: schema))
            }
            if let text = request.continuationMarker {
                let position = try ContinuationMarker(unsealing: text, with: markerKey)
                guard position.fingerprint == fingerprint, position.values.count == query.sort.count else {
                    throw CloudKitError.badRequest("continuationMarker belongs to another query")
                }
                query.after = RecordQuery.Position(values: position.values, recordName: position.recordName,
                                                   zoneRowID: position.zoneRowID ?? query.zoneRowIDs.first ?? 0)
            }
            var budget = ResponseBudget(bytes: limits.maxResponseBytes)
            var taken: [QueryRow] = []
            // The last row handled (returned, or skipped as not visible to a participant).
            var handled: QueryRow?
            var more = false
            var scanned = 0
            // A participant gets only the matches their shares cover: rows are filtered before the
            // page is cut, so the page and its marker are made of records the caller may see.
            scan: while true {
                query.maxBytes = max(0, budget.remaining)
                let page = try await transaction.query(query)
                let rows = page.rows
                for row in rows.prefix(limit) {
                    guard let grant = grants[row.record.zoneRowID] else { continue }
                    let visible = if grant.sharing == nil { true } else {
                        try await grant.permission(forRecord: row.record.recordName, in: transaction).canRead
                    }
                    if visible {
                        guard taken.count < limit, budget.take(row.record) else {
                            more = true
                            break scan
                        }
                        taken.append(row)
                    }
                    handled = row
                    scanned += 1
                }
                guard rows.count > limit || page.cutShort, let resume = handled else { break }
                if taken.count == limit || scanned >= Self.maxScannedRows {
                    more = true
                    break
                }
                query.after = resume.position
            }
            var marker: String?
            // The last returned record; only when a participant's scan found none to return, the
            // sealed marker resumes after the rows it read past.
            if more, let position = taken.last ?? handled {
                marker = ContinuationMarker(fingerprint: fingerprint, position: position.position).sealed(with: markerKey)
            }
            var zoneIDs: [Int64: ZoneID]?
            if request.searchesEveryZone {
                zoneIDs = grants.mapValues { grant in
                    ZoneID(zoneName: grant.zone.zoneName, ownerRecordName: access.scope == .shared ? grant.owner : access.zoneOwnerName)
                }
            }
            return QueryResults(rows: taken.map(\.record), zoneIDs: zoneIDs, owners: grants.mapValues(\.owner), desiredKeys: request.desiredKeys,
                                continuationMarker: marker, links: links)
        }
        try await results.openFields(with: keys)
        return results
    }

    typealias QueryRow = (record: StoredRecord, position: RecordQuery.Position)

    /// The most zones a `zoneWide` query searches; a database with more answers `LIMIT_EXCEEDED`.
    static let maxZonesSearched = 1_000

    /// The zones a query searches, by row id, with the caller's access to each: the one named
    /// (or the default zone), or with `zoneWide` every live zone the caller may read.
    private static func zones(of request: RecordsQueryRequest, databaseID: Int64, access: DatabaseAccess,
                              in transaction: any StorageTransaction) async throws -> [Int64: ZoneGrant] {
        guard request.searchesEveryZone else {
            let grant = try await DatabaseDirectory.grant(request.zoneID, databaseID: databaseID, access: access, in: transaction)
            return [grant.zone.rowID: grant]
        }
        var grants: [Int64: ZoneGrant] = [:]
        if access.scope == .shared {
            let user = try access.requireUser()
            for entry in try await transaction.activeSharedZones(user: user) {
                // A zone whose shares ended since is left out, as its own query would refuse it.
                guard let zone = try await transaction.zone(rowID: entry.zoneRowID), !zone.deleted,
                      let owner = try await transaction.databaseKey(id: zone.databaseID)?.ownerRecordName,
                      let grant = try await DatabaseDirectory.sharedGrant(zone, owner: owner, user: user, in: transaction) else { continue }
                grants[zone.rowID] = grant
            }
        } else {
            let owner = try access.databaseKey().ownerRecordName
            for zone in try await transaction.liveZones(databaseID: databaseID) {
                grants[zone.rowID] = ZoneGrant(zone: zone, owner: owner, sharing: nil)
            }
        }
        guard grants.count <= maxZonesSearched else {
            throw CloudKitError.limitExceeded("a zoneWide query searches at most \(maxZonesSearched) zones; name a zone")
        }
        return grants
    }

    /// Rows a participant's query reads past before it answers with the page it has.
    static let maxScannedRows = 10_000

    /// Refuses queries over the filter, sort and list bounds with `LIMIT_EXCEEDED`.
    private func checkBounds(_ query: CloudQuery) throws(CloudKitError) {
        let filters = query.filterBy ?? []
        guard filters.count <= limits.maxFilters else {
            throw .limitExceeded("a query may have at most \(limits.maxFilters) filters")
        }
        guard (query.sortBy ?? []).count <= limits.maxSortKeys else {
            throw .limitExceeded("a query may have at most \(limits.maxSortKeys) sort descriptors")
        }
        for filter in filters {
            if case .list(_, let values) = filter.fieldValue.value, values.count > limits.maxListValues {
                throw .limitExceeded("a filter's list may hold at most \(limits.maxListValues) values")
            }
        }
    }

    /// Identifies a query (zone and query dictionary, not the page) so a marker cannot continue another.
    private static func fingerprint(_ request: RecordsQueryRequest) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let data = try encoder.encode(QueryIdentity(zoneID: request.zoneID ?? .default, zoneWide: request.searchesEveryZone ? true : nil,
                                                    query: request.query))
        return SecretGenerator.hex(SHA256.hash(data: data).prefix(12))
    }

    private struct QueryIdentity: Encodable {
        var zoneID: ZoneID
        var zoneWide: Bool?
        var query: CloudQuery
    }
}

/// The response of `records/query`, written from stored rows.
package struct QueryResults: WireWritable {
    var rows: [StoredRecord]
    /// Each zone's ID by row id, when the query spanned zones: every record then names its zone.
    var zoneIDs: [Int64: ZoneID]?
    /// Each zone's owner by row id, whose key opens its records' encrypted fields.
    var owners: [Int64: String] = [:]
    var desiredKeys: [String]?
    var continuationMarker: String?
    var links: AssetLinks

    package var estimatedByteCount: Int { WireWriter.estimatedByteCount(of: rows) + 256 }

    package func write(to writer: inout WireWriter) throws {
        writer.raw("{\"records\":")
        try writer.records(rows, desiredKeys: desiredKeys, links: links, zoneIDs: zoneIDs)
        writer.member("continuationMarker", continuationMarker)
        writer.raw("}")
    }
}
