/// A CloudKit Web Services `serverErrorCode`, with the HTTP status CloudKit answers it with.
///
/// The raw values are Apple's spelling. Codes marked *extension* are Stratus additions for
/// situations CloudKit Web Services does not document; they are listed in docs/protocol.md (Extensions).
public enum ServerErrorCode: String, Codable, Sendable, CaseIterable {
    case accessDenied = "ACCESS_DENIED"
    case atomicError = "ATOMIC_ERROR"
    case authenticationFailed = "AUTHENTICATION_FAILED"
    case authenticationRequired = "AUTHENTICATION_REQUIRED"
    case badRequest = "BAD_REQUEST"
    case conflict = "CONFLICT"
    case exists = "EXISTS"
    case internalError = "INTERNAL_ERROR"
    case notFound = "NOT_FOUND"
    case quotaExceeded = "QUOTA_EXCEEDED"
    case throttled = "THROTTLED"
    case tryAgainLater = "TRY_AGAIN_LATER"
    case validatingReferenceError = "VALIDATING_REFERENCE_ERROR"
    case zoneNotFound = "ZONE_NOT_FOUND"
    /// A request, a record or a batch is over a configured size or count limit (CKError `limitExceeded`).
    case limitExceeded = "LIMIT_EXCEEDED"
    /// *Extension*: the change token is older than the purged tombstones; refetch from no token.
    case changeTokenExpired = "CHANGE_TOKEN_EXPIRED"

    /// The HTTP status CloudKit Web Services uses when this code fails a whole request.
    public var httpStatus: Int {
        switch self {
        case .accessDenied: 403
        case .atomicError, .badRequest: 400
        case .authenticationFailed: 401
        case .authenticationRequired: 421
        case .conflict, .exists: 409
        case .internalError: 500
        case .notFound, .zoneNotFound: 404
        case .quotaExceeded, .limitExceeded: 413
        case .throttled: 429
        case .tryAgainLater: 503
        case .validatingReferenceError: 412
        case .changeTokenExpired: 410
        }
    }
}
