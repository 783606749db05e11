/// CloudKit's error dictionary, the body of every failed request:
/// `{uuid, serverErrorCode, reason, retryAfter?, redirectURL?}`, and, as a Stratus extension,
/// `methods` when a change needs fresh proof.
package struct ErrorDictionary: Codable, Sendable, Equatable {
    package var uuid: String
    package var serverErrorCode: ServerErrorCode
    package var reason: String
    package var retryAfter: Int?
    package var redirectURL: String?
    /// *Extension*: the sign-in methods that give fresh proof (``CloudKitError/methods``).
    package var methods: [String]?

    package init(uuid: String, serverErrorCode: ServerErrorCode, reason: String, retryAfter: Int? = nil, redirectURL: String? = nil,
                 methods: [String]? = nil) {
        self.uuid = uuid
        self.serverErrorCode = serverErrorCode
        self.reason = reason
        self.retryAfter = retryAfter
        self.redirectURL = redirectURL
        self.methods = methods
    }

    package init(_ error: CloudKitError, uuid: String) {
        self.init(uuid: uuid, serverErrorCode: error.code, reason: error.reason, retryAfter: error.retryAfter, methods: error.methods)
    }
}
