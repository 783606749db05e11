import StratusCore

/// A `records/modify` body as the HTTP route reads it: the request, with its operations left as
/// JSON text for ``PreparedBatch`` to read beside the writer.
package struct RecordsModifyBody: Decodable, WireReadableLeavingElements {
    /// The request's other keys (`zoneID`, `atomic`, `desiredKeys`); its operations are empty.
    package var request: RecordsModifyRequest
    package var operations: JSONElements

    static let elementsLeftUnread = "operations"
    /// An operation holding one of these strings may name a share (``PreparedBatch/mentionsShares``).
    static let flaggingWords = Set(ShareKeys.recordTypeSpellings + [ShareKeys.zoneShareName])

    package init(json: JSONValue) throws(CloudKitError) {
        try self.init(json: json, elements: nil)
    }

    init(json: JSONValue, elements: JSONElements?) throws(CloudKitError) {
        let list: [JSONValue]
        (request, list) = try RecordsModifyRequest.readingOperationsLater(json)
        operations = elements ?? JSONElements(list)
    }

    package init(from decoder: any Decoder) throws {
        try self.init(decodingTreeFrom: decoder)
    }
}
