/// A value bound to a statement or read from a row, in the types both drivers store.
///
/// Booleans are their own case: PostgreSQL has a `BOOLEAN` type, SQLite stores 0 and 1, and
/// ``SQLRow/bool(_:)`` reads either.
package enum SQLValue: Sendable, Equatable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])
    case boolean(Bool)
}

/// A Swift value a statement may bind.
package protocol SQLBindable {
    var sqlValue: SQLValue { get }
}

extension String: SQLBindable {
    package var sqlValue: SQLValue { .text(self) }
}

extension Int64: SQLBindable {
    package var sqlValue: SQLValue { .integer(self) }
}

extension Int: SQLBindable {
    package var sqlValue: SQLValue { .integer(Int64(self)) }
}

extension Double: SQLBindable {
    package var sqlValue: SQLValue { .real(self) }
}

extension Bool: SQLBindable {
    package var sqlValue: SQLValue { .boolean(self) }
}

extension [UInt8]: SQLBindable {
    package var sqlValue: SQLValue { .blob(self) }
}

extension Optional: SQLBindable where Wrapped: SQLBindable {
    package var sqlValue: SQLValue { self?.sqlValue ?? .null }
}

extension SQLValue: SQLBindable {
    package var sqlValue: SQLValue { self }
}
