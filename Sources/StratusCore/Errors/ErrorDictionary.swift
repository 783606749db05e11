/// CloudKit's error dictionary, the body of every failed request:
/// `{uuid, serverErrorCode, reason, retryAfter?, redirectURL?}`.
package struct ErrorDictionary: Codable, Sendable, Equatable {
    package var uuid: String
    package var serverErrorCode: ServerErrorCode
    package var reason: String
    package var retryAfter: Int?
    package var redirectURL: String?

    package init(uuid: String, serverErrorCode: ServerErrorCode, reason: String, retryAfter: Int? = nil, redirectURL: String? = nil) {
        self.uuid = uuid
        self.serverErrorCode = serverErrorCode
        self.reason = reason
        self.retryAfter = retryAfter
        self.redirectURL = redirectURL
    }

    package init(_ error: CloudKitError, uuid: String) {
        self.init(uuid: uuid, serverErrorCode: error.code, reason: error.reason, retryAfter: error.retryAfter)
    }
}
