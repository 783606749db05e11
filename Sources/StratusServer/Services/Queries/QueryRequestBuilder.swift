import Foundation
import StratusCore

/// A `records/query` body from what a person types: a record type, filters as field, comparator
/// and value (JSON, or else a bare string), and sort fields. `stratus records query` and the
/// console's query builder both build their queries here.
package enum QueryRequestBuilder {
    /// Every comparator's name, as CloudKit spells it.
    package static var comparators: [String] { QueryComparator.allCases.map(\.rawValue) }

    package static func request(recordType: String, filters: [(field: String, comparator: String, value: String)],
                                sort: [(field: String, ascending: Bool)], zone: String, limit: Int?) throws -> RecordsQueryRequest {
        let query: [String: Any] = [
            "recordType": recordType,
            "filterBy": filters.map { filter -> [String: Any] in
                let value = (try? JSONSerialization.jsonObject(with: Data(filter.value.utf8), options: .fragmentsAllowed)) ?? filter.value
                return ["fieldName": filter.field, "comparator": filter.comparator.uppercased(), "fieldValue": ["value": value]]
            },
            "sortBy": sort.map { ["fieldName": $0.field, "ascending": $0.ascending] },
        ]
        var body: [String: Any] = ["query": query, "zoneID": ["zoneName": zone]]
        if let limit { body["resultsLimit"] = limit }
        do {
            return try JSONDecoder().decode(RecordsQueryRequest.self, from: JSONSerialization.data(withJSONObject: body))
        } catch {
            throw CloudKitError.badRequest("the query does not read: \(error)")
        }
    }
}
