/// CloudKit's error dictionary, the body of every failed request:
/// `{uuid, serverErrorCode, reason, retryAfter?, redirectURL?}`.
public struct ErrorDictionary: Codable, Sendable, Equatable {
    public var uuid: String
    public var serverErrorCode: ServerErrorCode
    public var reason: String
    public var retryAfter: Int?
    public var redirectURL: String?

    public init(uuid: String, serverErrorCode: ServerErrorCode, reason: String, retryAfter: Int? = nil, redirectURL: String? = nil) {
        self.uuid = uuid
        self.serverErrorCode = serverErrorCode
        self.reason = reason
        self.retryAfter = retryAfter
        self.redirectURL = redirectURL
    }

    public init(_ error: CloudKitError, uuid: String) {
        self.init(uuid: uuid, serverErrorCode: error.code, reason: error.reason, retryAfter: error.retryAfter)
    }
}
