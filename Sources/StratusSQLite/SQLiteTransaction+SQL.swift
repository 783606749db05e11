import Foundation
import GRDB
import StratusServer

/// The statements written once (``SQLDatabase``), run on this transaction's connection.
extension SQLiteTransaction: SQLDatabase {
    var dialect: SQLDialect { .sqlite }

    /// Binds and reads through SQLite's C API (``DirectStatement``): every request's
    /// authentication and most small reads come this way.
    func fetch(_ statement: SQLStatement) throws -> [SQLRow] {
        let (sql, binds) = statement.rendered(.sqlite)
        var rows = DirectStatement(try db.cachedStatement(sql: sql))
        for value in binds { rows.bind(value) }
        let columns = rows.columnCount
        var result: [SQLRow] = []
        while try rows.next(in: db) {
            result.append(SQLRow((0..<columns).map { rows.value($0) }))
        }
        return result
    }

    func run(_ statement: SQLStatement) throws {
        let (sql, binds) = statement.rendered(.sqlite)
        try db.cachedStatement(sql: sql).execute(arguments: StatementArguments(binds.map { $0.databaseValue }))
    }

    /// Binds and reads through SQLite's C API (``DirectStatement``), without GRDB's boxing.
    func forEachRecord(_ statement: SQLStatement, extraColumns: Int, _ body: (StoredRecord, RowActors, [SQLValue]) throws -> Bool) throws {
        let (sql, binds) = statement.rendered(.sqlite)
        var rows = DirectStatement(try db.cachedStatement(sql: sql))
        for value in binds { rows.bind(value) }
        while try rows.next(in: db) {
            let extra = (0..<extraColumns).map { rows.value(Int32(RecordColumns.count + $0)) }
            let (record, actors) = Self.record(rows)
            guard try body(record, actors, extra) else {
                rows.reset()
                return
            }
        }
    }
}

extension SQLValue {
    var databaseValue: DatabaseValue {
        switch self {
        case .null: .null
        case .integer(let integer): integer.databaseValue
        case .real(let real): real.databaseValue
        case .text(let text): text.databaseValue
        case .blob(let bytes): Data(bytes).databaseValue
        case .boolean(let bool): bool.databaseValue
        }
    }
}
