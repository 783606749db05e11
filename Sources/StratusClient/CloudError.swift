import Foundation
import StratusCore

/// Every failure the client reports: a CloudKit-like code, the server's reason, and what the code
/// needs — a retry delay, the records of a conflict, the per-item errors of a partial failure.
public struct CloudError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, in CloudKit's terms (`CKError.Code`).
    public enum Code: String, Sendable, Hashable, CaseIterable {
        /// Some items of a batch failed; see ``CloudError/partialErrors``.
        case partialFailure
        /// The server's record changed since this one was fetched, or already exists; see
        /// ``CloudError/serverRecord``.
        case serverRecordChanged
        /// The zone does not exist (or is not visible to the caller).
        case zoneNotFound
        /// The record does not exist.
        case unknownItem
        /// The request is over a count or size limit: split it.
        case limitExceeded
        /// The server is throttling this client: wait ``CloudError/retryAfter`` seconds.
        case requestRateLimited
        /// The zone is busy with other writes: retry after ``CloudError/retryAfter``.
        case zoneBusy
        /// The server cannot answer now: retry after ``CloudError/retryAfter``.
        case serviceUnavailable
        /// The change token is too old: fetch again from no token.
        case changeTokenExpired
        /// No signed-in user, or the session expired: sign in again.
        case notAuthenticated
        /// The caller may not do this (another user's data, a read-only share).
        case permissionFailure
        /// The user's storage quota is full.
        case quotaExceeded
        /// The server could not be reached.
        case networkUnavailable
        /// The connection failed during the request; the server may or may not have applied it.
        case networkFailure
        /// Another item of an atomic batch failed.
        case batchRequestFailed
        /// A `VALIDATE` reference's target is missing, or is still referenced.
        case referenceViolation
        /// The request or a record is malformed or breaks the schema.
        case invalidArguments
        /// An asset file could not be read or written.
        case assetFileNotFound
        /// The server failed, or answered something the client does not understand.
        case internalError
    }

    /// What went wrong.
    public var code: Code
    /// The server's (or the client's) explanation, for logs and developers.
    public var reason: String
    /// Seconds to wait before retrying, when the server said.
    public var retryAfter: Double?
    /// The server's `serverErrorCode`, when the server answered.
    public var serverErrorCode: ServerErrorCode?
    /// For ``Code-swift.enum/zoneNotFound``: the zone's encrypted fields can no longer be read
    /// because the user's key was reset (CloudKit's `CKErrorUserDidResetEncryptedDataKey`); the app
    /// deletes the zone and uploads its records again.
    public var userDidResetEncryptedDataKey: Bool {
        code == .zoneNotFound && reason.contains(Self.encryptedDataKeyResetMarker)
    }

    /// What the server's reason says when a zone's encryption key was reset.
    static let encryptedDataKeyResetMarker = "userDidResetEncryptedDataKey"
    /// For ``Code-swift.enum/partialFailure``: the error of each failed item, by record name or zone name.
    public var partialErrors: [String: CloudError] = [:]
    /// For ``Code-swift.enum/serverRecordChanged``: the record this client tried to save, the
    /// server's current record, and the server version the client's was based on (if known).
    public var clientRecord: CloudRecord?
    /// The record as the server has it now.
    public var serverRecord: CloudRecord?
    /// The server's version the client's record was based on, when known.
    public var ancestorRecord: CloudRecord?
    /// For a change that needs fresh proof (``Code-swift.enum/notAuthenticated``, reason `fresh
    /// proof required`): the sign-in methods the account can prove itself with again
    /// (``Container/reauthenticate(password:)``, ``Container/reauthenticate(appleIdentityToken:nonce:authorizationCode:)``).
    public var freshProofMethods: [String]?

    /// An error with a code and a reason; `retryAfter` and `serverErrorCode` as the server gave them.
    public init(_ code: Code, _ reason: String, retryAfter: Double? = nil, serverErrorCode: ServerErrorCode? = nil) {
        self.code = code
        self.reason = reason
        self.retryAfter = retryAfter
        self.serverErrorCode = serverErrorCode
    }

    /// The client error for a server error code.
    init(server code: ServerErrorCode, reason: String, retryAfter: Int?) {
        self.init(Self.code(for: code), reason, retryAfter: retryAfter.map(Double.init), serverErrorCode: code)
    }

    /// The client error for a request-level error answer.
    init(status: Int, body: [UInt8]) {
        if let dictionary = try? JSONDecoder().decode(ErrorDictionary.self, from: Data(body)) {
            self.init(server: dictionary.serverErrorCode, reason: dictionary.reason, retryAfter: dictionary.retryAfter)
            freshProofMethods = dictionary.methods
            return
        }
        let code: Code = switch status {
        case 401, 421: .notAuthenticated
        case 403: .permissionFailure
        case 404: .unknownItem
        case 413: .limitExceeded
        case 429: .requestRateLimited
        case 500...599: .serviceUnavailable
        default: .internalError
        }
        self.init(code, "HTTP \(status): \(String(decoding: body.prefix(200), as: UTF8.self))")
    }

    static func code(for serverCode: ServerErrorCode) -> Code {
        switch serverCode {
        case .accessDenied: .permissionFailure
        case .atomicError: .batchRequestFailed
        case .authenticationFailed, .authenticationRequired: .notAuthenticated
        case .badRequest: .invalidArguments
        case .conflict, .exists: .serverRecordChanged
        case .internalError: .internalError
        case .notFound: .unknownItem
        case .quotaExceeded: .quotaExceeded
        case .throttled: .requestRateLimited
        case .tryAgainLater: .serviceUnavailable
        case .validatingReferenceError: .referenceViolation
        case .zoneNotFound: .zoneNotFound
        case .limitExceeded: .limitExceeded
        case .changeTokenExpired: .changeTokenExpired
        }
    }

    /// Whether retrying the same request later may succeed.
    public var isTransient: Bool {
        switch code {
        case .requestRateLimited, .zoneBusy, .serviceUnavailable, .networkUnavailable, .networkFailure: true
        default: false
        }
    }

    public var description: String { "\(code.rawValue): \(reason)" }
}
