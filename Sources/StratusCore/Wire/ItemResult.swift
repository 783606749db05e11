/// One entry of a response array that reports per item: the item, or CloudKit's error dictionary
/// for that item (recognised by its `serverErrorCode` key).
package enum ItemResult<Success: Codable & Sendable & Equatable, Failure: Codable & Sendable & Equatable>: Codable, Sendable, Equatable {
    case success(Success)
    case failure(Failure)

    private enum ProbeKeys: String, CodingKey { case serverErrorCode }

    package init(from decoder: any Decoder) throws {
        let probe = try decoder.container(keyedBy: ProbeKeys.self)
        self = probe.contains(.serverErrorCode) ? .failure(try Failure(from: decoder)) : .success(try Success(from: decoder))
    }

    package func encode(to encoder: any Encoder) throws {
        switch self {
        case .success(let value): try value.encode(to: encoder)
        case .failure(let error): try error.encode(to: encoder)
        }
    }

    /// The item, when this result is one.
    package var value: Success? {
        if case .success(let value) = self { value } else { nil }
    }

    /// The error, when this result is one.
    package var error: Failure? {
        if case .failure(let error) = self { error } else { nil }
    }
}

/// An entry of a `records` array: a record or a Record Fetch Error Dictionary.
package typealias RecordResult = ItemResult<Record, RecordError>

extension ItemResult where Success == Record {
    /// The record, when this result is one.
    package var record: Record? { value }
}

/// A per-record failure (CloudKit's Record Fetch Error Dictionary).
package struct RecordError: Codable, Sendable, Equatable {
    package var recordName: String?
    package var reason: String
    package var serverErrorCode: ServerErrorCode
    package var retryAfter: Int?
    package var uuid: String?
    /// *Extension*: on `CONFLICT`, the record as it is on the server, so the client can merge.
    package var serverRecord: Record?

    package init(recordName: String?, error: CloudKitError, uuid: String? = nil, serverRecord: Record? = nil) {
        self.recordName = recordName
        self.reason = error.reason
        self.serverErrorCode = error.code
        self.retryAfter = error.retryAfter
        self.uuid = uuid
        self.serverRecord = serverRecord
    }

}
