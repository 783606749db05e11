/// A statement written once for both drivers: SQL text in which interpolated values become bound
/// parameters, never text (GRDB's and postgres-nio's interpolation, unified).
///
/// ```swift
/// let statement: SQLStatement = "SELECT username FROM users WHERE container_id = \(containerID) LIMIT \(limit)"
/// ```
///
/// `\(unescaped:)` inserts constant SQL (a column list, a table name the code chose); a driver
/// renders the text with its dialect's placeholders (``SQLDialect``), so the text stays the same
/// for every call and each driver's statement cache stays bounded.
package struct SQLStatement: Sendable, ExpressibleByStringInterpolation {
    package enum Part: Sendable {
        case sql(String)
        case bind(SQLValue)
        /// A boolean constant written into the text (where a partial index's condition must match).
        case boolean(Bool)
        /// A function whose name differs between dialects.
        case function(SQLDialect.Function)
        /// A row id an insert keeps, bound, or nil for the table to number the row.
        case rowID(Int64?, table: String)
    }

    package private(set) var parts: [Part]

    package init(stringLiteral value: String) {
        parts = [.sql(value)]
    }

    package init(stringInterpolation: StringInterpolation) {
        parts = stringInterpolation.parts
    }

    /// The statements in order, `separator` between each two (a list of conditions or values).
    package init(joining statements: [SQLStatement], separator: String) {
        parts = []
        for (index, statement) in statements.enumerated() {
            if index > 0 { parts.append(.sql(separator)) }
            parts.append(contentsOf: statement.parts)
        }
    }

    /// The SQL text with `dialect`'s placeholders, and the values they stand for in order.
    package func rendered(_ dialect: SQLDialect) -> (sql: String, binds: [SQLValue]) {
        var sql = ""
        var binds: [SQLValue] = []
        for part in parts {
            switch part {
            case .sql(let text): sql += text
            case .bind(let value):
                binds.append(value)
                sql += dialect.placeholder(binds.count)
            case .boolean(let value): sql += value ? dialect.trueLiteral : dialect.falseLiteral
            case .function(.greatest): sql += dialect.greatest
            case .rowID(let value, let table):
                binds.append(value.sqlValue)
                sql += dialect.numbersRowIDsBySequence
                    ? "COALESCE(\(dialect.placeholder(binds.count)), nextval(pg_get_serial_sequence('\(table)', 'id')))"
                    : dialect.placeholder(binds.count)
            }
        }
        return (sql, binds)
    }

    package struct StringInterpolation: StringInterpolationProtocol {
        var parts: [Part] = []

        package init(literalCapacity: Int, interpolationCount: Int) {
            parts.reserveCapacity(2 * interpolationCount + 1)
        }

        package mutating func appendLiteral(_ literal: String) {
            parts.append(.sql(literal))
        }

        /// Binds `value` as a parameter.
        package mutating func appendInterpolation(_ value: some SQLBindable) {
            parts.append(.bind(value.sqlValue))
        }

        /// Inserts constant SQL text; never a value from a request.
        package mutating func appendInterpolation(unescaped text: String) {
            parts.append(.sql(text))
        }

        /// Writes a boolean constant in the dialect's spelling (`1` in SQLite, `TRUE` in PostgreSQL),
        /// so that a condition can match a partial index's.
        package mutating func appendInterpolation(literal value: Bool) {
            parts.append(.boolean(value))
        }

        /// Writes the dialect's name of a function.
        package mutating func appendInterpolation(function: SQLDialect.Function) {
            parts.append(.function(function))
        }

        /// The `id` of a row inserted into `table`: `value` kept, or numbered by the table when nil.
        package mutating func appendInterpolation(rowID value: Int64?, of table: String) {
            parts.append(.rowID(value, table: table))
        }

        /// Binds each value as a parameter, separated by commas: `IN (\(list: names))` (never empty).
        package mutating func appendInterpolation(list values: [some SQLBindable]) {
            for (index, value) in values.enumerated() {
                if index > 0 { parts.append(.sql(", ")) }
                parts.append(.bind(value.sqlValue))
            }
        }

        /// Inserts another statement, its parameters included.
        package mutating func appendInterpolation(_ statement: SQLStatement) {
            parts.append(contentsOf: statement.parts)
        }
    }
}
