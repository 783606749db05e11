/// One entry of a response array that reports per item: the item, or CloudKit's error dictionary
/// for that item (recognised by its `serverErrorCode` key).
public enum ItemResult<Success: Codable & Sendable & Equatable, Failure: Codable & Sendable & Equatable>: Codable, Sendable, Equatable {
    case success(Success)
    case failure(Failure)

    private enum ProbeKeys: String, CodingKey { case serverErrorCode }

    public init(from decoder: any Decoder) throws {
        let probe = try decoder.container(keyedBy: ProbeKeys.self)
        self = probe.contains(.serverErrorCode) ? .failure(try Failure(from: decoder)) : .success(try Success(from: decoder))
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .success(let value): try value.encode(to: encoder)
        case .failure(let error): try error.encode(to: encoder)
        }
    }

    /// The item, when this result is one.
    public var value: Success? {
        if case .success(let value) = self { value } else { nil }
    }

    /// The error, when this result is one.
    public var error: Failure? {
        if case .failure(let error) = self { error } else { nil }
    }
}

/// An entry of a `records` array: a record or a Record Fetch Error Dictionary.
public typealias RecordResult = ItemResult<Record, RecordError>

extension ItemResult where Success == Record {
    /// The record, when this result is one.
    public var record: Record? { value }
}

/// A per-record failure (CloudKit's Record Fetch Error Dictionary).
public struct RecordError: Codable, Sendable, Equatable {
    public var recordName: String?
    public var reason: String
    public var serverErrorCode: ServerErrorCode
    public var retryAfter: Int?
    public var uuid: String?
    /// *Extension*: on `CONFLICT`, the record as it is on the server, so the client can merge.
    public var serverRecord: Record?

    public init(recordName: String?, error: CloudKitError, uuid: String? = nil, serverRecord: Record? = nil) {
        self.recordName = recordName
        self.reason = error.reason
        self.serverErrorCode = error.code
        self.retryAfter = error.retryAfter
        self.uuid = uuid
        self.serverRecord = serverRecord
    }

}
