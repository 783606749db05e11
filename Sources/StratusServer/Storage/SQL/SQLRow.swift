import StratusCore

/// One row of a result, read by column position as the statement listed its columns.
package struct SQLRow: Sendable {
    package let values: [SQLValue]

    package init(_ values: [SQLValue]) {
        self.values = values
    }

    package func string(_ column: Int) throws -> String {
        guard let value = try optionalString(column) else { throw Self.unexpected(column, "NULL", "text") }
        return value
    }

    package func optionalString(_ column: Int) throws -> String? {
        switch values[column] {
        case .null: nil
        case .text(let text): text
        case let other: throw Self.unexpected(column, other, "text")
        }
    }

    package func int64(_ column: Int) throws -> Int64 {
        guard let value = try optionalInt64(column) else { throw Self.unexpected(column, "NULL", "an integer") }
        return value
    }

    package func optionalInt64(_ column: Int) throws -> Int64? {
        switch values[column] {
        case .null: nil
        case .integer(let integer): integer
        case let other: throw Self.unexpected(column, other, "an integer")
        }
    }

    package func int(_ column: Int) throws -> Int {
        Int(try int64(column))
    }

    /// A boolean, stored as one (PostgreSQL) or as 0 and 1 (SQLite).
    package func bytes(_ column: Int) throws -> [UInt8] {
        switch values[column] {
        case .blob(let bytes): bytes
        case .text(let text): Array(text.utf8)
        case let other: throw Self.unexpected(column, other, "bytes")
        }
    }

    package func bool(_ column: Int) throws -> Bool {
        switch values[column] {
        case .boolean(let bool): bool
        case .integer(let integer): integer != 0
        case let other: throw Self.unexpected(column, other, "a boolean")
        }
    }

    private static func unexpected(_ column: Int, _ found: Any, _ expected: String) -> CloudKitError {
        CloudKitError(.internalError, "storage: column \(column) holds \(found), not \(expected)")
    }
}
