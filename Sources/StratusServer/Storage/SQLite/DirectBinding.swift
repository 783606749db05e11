import Foundation
import GRDB
import GRDBSQLite

/// Executes a cached GRDB statement with values bound straight through SQLite's C API.
///
/// GRDB's `StatementArguments` box every value; on the record-saving hot path (one insert per
/// record) that boxing costs more than SQLite's own work, so the insert binds directly.
struct DirectBinding {
    private let statement: Statement
    private let handle: OpaquePointer
    private var position: Int32 = 0

    init(_ statement: Statement) {
        self.statement = statement
        handle = statement.sqliteStatement
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
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

    mutating func bind(_ value: Data) {
        position += 1
        value.withUnsafeBytes { bytes in
            _ = sqlite3_bind_blob(handle, position, bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(bytes.count), Self.transient)
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

    /// SQLite copies the bytes before the call returns.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}
