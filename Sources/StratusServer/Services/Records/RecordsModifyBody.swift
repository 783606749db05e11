import StratusCore

/// A `records/modify` body as the HTTP route reads it: the request, with its operations left as
/// JSON for ``PreparedBatch`` to read beside the writer.
package struct RecordsModifyBody: Decodable, WireReadable {
    /// The request's other keys (`zoneID`, `atomic`, `desiredKeys`); its operations are empty.
    package var request: RecordsModifyRequest
    package var operations: [JSONValue]

    package init(json: JSONValue) throws(CloudKitError) {
        (request, operations) = try RecordsModifyRequest.readingOperationsLater(json)
    }

    package init(from decoder: any Decoder) throws {
        try self.init(decodingTreeFrom: decoder)
    }
}
