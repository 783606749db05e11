import Foundation
import StratusCore

/// Which values of a record go into index rows: every value of the fields its schema marks
/// `QUERYABLE` or `SORTABLE` (a list field gives one row per element), and the words of the
/// string fields it marks `SEARCHABLE`.
package enum QueryIndexing {
    /// The fields of a record type that have index rows.
    static func indexedFields(_ type: RecordTypeSchema?) -> [FieldSchema] {
        type?.fields.values.filter { !$0.indexes.isEmpty } ?? []
    }

    /// The index rows of a record's fields.
    static func entries(_ fields: [String: FieldValue?], indexed: [FieldSchema]) -> [IndexEntry] {
        indexed.flatMap { field -> [IndexEntry] in
            guard let value = fields[field.name] ?? nil else { return [] }
            var entries: [IndexEntry] = []
            if !field.indexes.isDisjoint(with: [.queryable, .sortable]) {
                entries += values(value).map { IndexEntry(field: field.name, value: $0) }
            }
            if !field.indexes.isDisjoint(with: [.queryable, .sortable]), case .location(let location) = value {
                entries.append(IndexEntry(field: latitudeKey(field.name), value: .real(location.latitude)))
                entries.append(IndexEntry(field: longitudeKey(field.name), value: .real(location.longitude)))
            }
            if field.indexes.contains(.searchable), case .string(let text) = value {
                entries += Set(tokens(text)).map { IndexEntry(field: tokenKey(field.name), value: .text($0)) }
            }
            return entries
        }
    }

    /// Where a field's words are kept among the index rows: a key no field name can take
    /// (field names are printable ASCII).
    static func tokenKey(_ field: String) -> String { "\u{1}tokens:" + field }

    /// Where a LOCATION field's latitude and longitude are kept among the index rows.
    static func latitudeKey(_ field: String) -> String { "\u{2}latitude:" + field }
    static func longitudeKey(_ field: String) -> String { "\u{2}longitude:" + field }

    /// The words of a text for `CONTAINS_*_TOKENS`: runs of letters and digits, lowercased.
    static func tokens(_ text: String) -> [String] {
        text.lowercased().split { !($0.isLetter || $0.isNumber) }.map(String.init)
    }

    /// A value as index rows hold it; types without an order (bytes, assets, locations) have none.
    static func values(_ value: FieldValue) -> [IndexValue] {
        switch value {
        case .string(let text): [.text(text)]
        case .int64(let number), .timestamp(let number): [.integer(number)]
        case .double(let number): [.real(number)]
        case .reference(let reference): [.text(reference.recordName)]
        case .list(_, let elements): elements.flatMap(values)
        case .bytes, .location, .asset: []
        }
    }

    /// Rewrites the index rows of every record of a type after its indexed fields changed.
    static func rebuild(recordType: String, schema: RecordTypeSchema?, containerID: String, environment: ContainerEnvironment,
                        in transaction: any StorageTransaction) async throws {
        let indexed = indexedFields(schema)
        for record in try await transaction.liveRecords(containerID: containerID, environment: environment, recordType: recordType) {
            let fields = indexed.isEmpty ? [:] : try RecordMapper.decodeFields(record.fieldsJSON).mapValues(Optional.some)
            try await transaction.replaceIndexEntries(zoneRowID: record.zoneRowID, recordType: recordType, recordName: record.recordName,
                                                entries: entries(fields, indexed: indexed))
        }
    }

    /// The great-circle distance in meters between two points (haversine, on a sphere of
    /// Earth's mean radius).
    package static func greatCircleMeters(_ latitude1: Double, _ longitude1: Double, _ latitude2: Double, _ longitude2: Double) -> Double {
        let radians = Double.pi / 180
        let dLatitude = (latitude2 - latitude1) * radians
        let dLongitude = (longitude2 - longitude1) * radians
        let a = sin(dLatitude / 2) * sin(dLatitude / 2)
            + cos(latitude1 * radians) * cos(latitude2 * radians) * sin(dLongitude / 2) * sin(dLongitude / 2)
        return 6_371_000 * 2 * atan2(a.squareRoot(), (1 - a).squareRoot())
    }
}
