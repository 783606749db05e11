/// An error as CloudKit Web Services reports it: a code, a human-readable reason and, when the
/// caller may retry, the number of seconds to wait.
///
/// Services throw it; the HTTP layer turns it into CloudKit's error dictionary
/// (``ErrorDictionary``) with the code's HTTP status. Per-item failures travel inside
/// ``RecordResult`` and ``ZoneResult`` instead.
package struct CloudKitError: Error, Sendable, Equatable, CustomStringConvertible {
    package var code: ServerErrorCode
    package var reason: String
    package var retryAfter: Int?
    /// *Extension*: with `AUTHENTICATION_REQUIRED` for a change that needs fresh proof, the
    /// sign-in methods the account can prove itself with (`account/reauthenticate`).
    package var methods: [String]?

    package init(_ code: ServerErrorCode, _ reason: String, retryAfter: Int? = nil, methods: [String]? = nil) {
        self.code = code
        self.reason = reason
        self.retryAfter = retryAfter
        self.methods = methods
    }

    package var description: String { "\(code.rawValue): \(reason)" }

    package static func badRequest(_ reason: String) -> CloudKitError { .init(.badRequest, reason) }
    package static func notFound(_ reason: String) -> CloudKitError { .init(.notFound, reason) }
    package static func zoneNotFound(_ zoneName: String) -> CloudKitError {
        .init(.zoneNotFound, "zone '\(zoneName)' does not exist")
    }
    package static func accessDenied(_ reason: String) -> CloudKitError { .init(.accessDenied, reason) }
    package static func limitExceeded(_ reason: String) -> CloudKitError { .init(.limitExceeded, reason) }
}
