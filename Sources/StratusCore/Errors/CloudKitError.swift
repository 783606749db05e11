/// An error as CloudKit Web Services reports it: a code, a human-readable reason and, when the
/// caller may retry, the number of seconds to wait.
///
/// Services throw it; the HTTP layer turns it into CloudKit's error dictionary
/// (``ErrorDictionary``) with the code's HTTP status. Per-item failures travel inside
/// ``RecordResult`` and ``ZoneResult`` instead.
public struct CloudKitError: Error, Sendable, Equatable, CustomStringConvertible {
    public var code: ServerErrorCode
    public var reason: String
    public var retryAfter: Int?

    public init(_ code: ServerErrorCode, _ reason: String, retryAfter: Int? = nil) {
        self.code = code
        self.reason = reason
        self.retryAfter = retryAfter
    }

    public var description: String { "\(code.rawValue): \(reason)" }

    public static func badRequest(_ reason: String) -> CloudKitError { .init(.badRequest, reason) }
    public static func notFound(_ reason: String) -> CloudKitError { .init(.notFound, reason) }
    public static func zoneNotFound(_ zoneName: String) -> CloudKitError {
        .init(.zoneNotFound, "zone '\(zoneName)' does not exist")
    }
    public static func accessDenied(_ reason: String) -> CloudKitError { .init(.accessDenied, reason) }
    public static func limitExceeded(_ reason: String) -> CloudKitError { .init(.limitExceeded, reason) }
}
