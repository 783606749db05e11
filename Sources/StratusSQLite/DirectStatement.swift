import Foundation
import GRDB
import GRDBSQLite
import StratusServer

/// Runs a cached GRDB statement through SQLite's C API: values bound and columns read directly.
///
/// GRDB's `StatementArguments` and `Row` box every value; on the record hot paths (one insert per
/// saved record, one row per record in a change page) that boxing costs more than SQLite's own
/// work. The statement is reset before and after use, so GRDB can keep caching it.
struct DirectStatement {
    private let statement: Statement
    private let handle: OpaquePointer
    private var position: Int32 = 0

    init(_ statement: Statement) {
        self.statement = statement
        handle = statement.sqliteStatement
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    /// Steps a statement whose arguments GRDB has already bound.
    init(bound statement: Statement) {
        self.statement = statement
        handle = statement.sqliteStatement
    }

    mutating func bind(_ value: Int64) {
        position += 1
        sqlite3_bind_int64(handle, position, value)
    }

    mutating func bind(_ value: Bool) { bind(value ? 1 : 0) }

    mutating func bind(_ value: String?) {
        position += 1
        guard let value else {
            sqlite3_bind_null(handle, position)
            return
        }
        var text = value
        text.withUTF8 { utf8 in
            utf8.withMemoryRebound(to: CChar.self) { chars in
                if let base = chars.baseAddress {
                    _ = sqlite3_bind_text(handle, position, base, Int32(chars.count), Self.transient)
                } else {
                    _ = sqlite3_bind_text(handle, position, "", 0, Self.transient)
                }
            }
        }
    }

    mutating func bind(_ value: [UInt8]) {
        position += 1
        value.withUnsafeBytes { bytes in
            _ = sqlite3_bind_blob(handle, position, bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(bytes.count), Self.transient)
        }
    }

    mutating func bind(_ value: SQLValue) {
        switch value {
        case .null: bind(nil as String?)
        case .integer(let integer): bind(integer)
        case .real(let real):
            position += 1
            sqlite3_bind_double(handle, position, real)
        case .text(let text): bind(text)
        case .blob(let bytes): bind(bytes)
        case .boolean(let bool): bind(bool)
        }
    }

    /// Runs the statement to completion and resets it for GRDB's next use.
    func execute(in db: Database) throws {
        let code = sqlite3_step(handle)
        sqlite3_reset(handle)
        guard code == SQLITE_DONE else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: db.lastErrorMessage, sql: statement.sql)
        }
    }

    /// Steps to the next row; false (and reset) when there is none.
    func next(in db: Database) throws -> Bool {
        switch sqlite3_step(handle) {
        case SQLITE_ROW:
            return true
        case SQLITE_DONE:
            sqlite3_reset(handle)
            return false
        case let code:
            sqlite3_reset(handle)
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: db.lastErrorMessage, sql: statement.sql)
        }
    }

    /// Stops a statement before its last row, so GRDB finds it reset.
    func reset() { sqlite3_reset(handle) }

    // MARK: Columns of the current row (0-based)

    /// The number of columns each row has.
    var columnCount: Int32 { sqlite3_column_count(handle) }

    func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }

    func bool(_ column: Int32) -> Bool { int64(column) != 0 }

    func text(_ column: Int32) -> String {
        guard let text = sqlite3_column_text(handle, column) else { return "" }
        return String(decoding: UnsafeBufferPointer(start: text, count: Int(sqlite3_column_bytes(handle, column))), as: UTF8.self)
    }

    func optionalText(_ column: Int32) -> String? {
        sqlite3_column_type(handle, column) == SQLITE_NULL ? nil : text(column)
    }

    func value(_ column: Int32) -> SQLValue {
        switch sqlite3_column_type(handle, column) {
        case SQLITE_INTEGER: .integer(int64(column))
        case SQLITE_FLOAT: .real(sqlite3_column_double(handle, column))
        case SQLITE_TEXT: .text(text(column))
        case SQLITE_BLOB: .blob(bytes(column))
        default: .null
        }
    }

    func bytes(_ column: Int32) -> [UInt8] {
        guard let blob = sqlite3_column_blob(handle, column) else { return [] }
        return Array(UnsafeRawBufferPointer(start: blob, count: Int(sqlite3_column_bytes(handle, column))))
    }

    /// SQLite copies the bytes before the call returns.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}
