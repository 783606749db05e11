/// One entry of a `records` array in a response: a record, or CloudKit's Record Fetch Error
/// Dictionary for that item.
public enum RecordResult: Codable, Sendable, Equatable {
    case record(Record)
    case failure(RecordError)

    public init(from decoder: any Decoder) throws {
        let probe = try decoder.container(keyedBy: RecordError.CodingKeys.self)
        if probe.contains(.serverErrorCode) {
            self = .failure(try RecordError(from: decoder))
        } else {
            self = .record(try Record(from: decoder))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .record(let record): try record.encode(to: encoder)
        case .failure(let error): try error.encode(to: encoder)
        }
    }

    /// The record, when this result is one.
    public var record: Record? {
        if case .record(let record) = self { record } else { nil }
    }

    /// The error, when this result is one.
    public var error: RecordError? {
        if case .failure(let error) = self { error } else { nil }
    }
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

    enum CodingKeys: String, CodingKey {
        case recordName, reason, serverErrorCode, retryAfter, uuid, serverRecord
    }
}
