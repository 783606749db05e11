import Crypto
import Foundation
import StratusCore

/// `records/query`: records of a type matching filters on indexed fields, sorted, in pages.
///
/// A filter needs its field marked `QUERYABLE`, a sort key `SORTABLE` (system fields always
/// qualify). Pages continue from a keyset marker, so records saved between pages neither repeat
/// nor push earlier results out.
package struct QueryService: Sendable {
    let storage: any StratusStorage
    let directory: DatabaseDirectory
    let maxResultsLimit: Int
    let signer: AssetURLSigner

    package func query(_ request: RecordsQueryRequest, _ access: DatabaseAccess) async throws -> QueryResults {
        let limit = try ResultsLimit.resolve(request.resultsLimit, maximum: maxResultsLimit)
        let databaseID = try await directory.databaseID(for: access)
        let fingerprint = try Self.fingerprint(request)
        let links = AssetLinks(signer: signer, access: access)
        return try await storage.read { transaction in
            let grant = try DatabaseDirectory.grant(request.zoneID, databaseID: databaseID, access: access, in: transaction)
            let zone = grant.zone
            let recordType = request.query.recordType
            guard let schema = try transaction.recordTypeSchema(containerID: access.containerID, environment: access.environment,
                                                                 recordType: recordType) else {
                if access.environment == .production {
                    throw CloudKitError.badRequest("record type '\(recordType)' is not in the production schema")
                }
                return QueryResults(rows: [], desiredKeys: request.desiredKeys, continuationMarker: nil, links: links)
            }
            var query = RecordQuery(zoneRowID: zone.rowID, recordType: recordType, conditions: [], sort: [], after: nil, limit: limit + 1)
            for filter in request.query.filterBy ?? [] {
                query.conditions += try QueryTranslation.conditions(for: filter, in: schema)
            }
            for sort in request.query.sortBy ?? [] {
                query.sort.append(try QueryTranslation.sortKey(for: sort, in: schema))
            }
            if let marker = request.continuationMarker {
                let position = try ContinuationMarker(decoding: marker)
                guard position.fingerprint == fingerprint, position.values.count == query.sort.count else {
                    throw CloudKitError.badRequest("continuationMarker belongs to another query")
                }
                query.after = (position.values, position.recordName)
            }
            let page = try transaction.query(query)
            let rows = Array(page.rows.prefix(limit))
            var marker: String?
            if page.rows.count > limit, let last = rows.last {
                marker = ContinuationMarker(fingerprint: fingerprint, values: last.sortValues, recordName: last.record.recordName).encoded
            }
            var records = rows.map(\.record)
            if grant.sharing != nil {
                // A participant gets the matches their shares cover (the marker still follows every match).
                records = try records.filter { try grant.permission(forRecord: $0.recordName, in: transaction).canRead }
            }
            return QueryResults(rows: records, desiredKeys: request.desiredKeys, continuationMarker: marker, links: links)
        }
    }

    /// Identifies a query (zone and query dictionary, not the page) so a marker cannot continue another.
    private static func fingerprint(_ request: RecordsQueryRequest) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let data = try encoder.encode(QueryIdentity(zoneID: request.zoneID ?? .default, query: request.query))
        return SecretGenerator.hex(SHA256.hash(data: data).prefix(12))
    }

    private struct QueryIdentity: Encodable {
        var zoneID: ZoneID
        var query: Query
    }
}

/// The response of `records/query`, written from stored rows.
package struct QueryResults: WireWritable {
    var rows: [StoredRecord]
    var desiredKeys: [String]?
    var continuationMarker: String?
    var links: AssetLinks

    package func write(to writer: inout WireWriter) throws {
        writer.raw("{\"records\":")
        try writer.records(rows, desiredKeys: desiredKeys, links: links)
        writer.member("continuationMarker", continuationMarker)
        writer.raw("}")
    }
}
