import NIOCore
import PostgresNIO
import StratusServer

/// The statements written once (``SQLDatabase``), sent on this transaction's connection after
/// the held writes.
extension PostgresTransaction: SQLDatabase {
    var dialect: SQLDialect { .postgres }

    func fetch(_ statement: SQLStatement) async throws -> [SQLRow] {
        try await rows(Self.query(statement)).map { row in SQLRow(try row.map(SQLValue.init)) }
    }

    func run(_ statement: SQLStatement) async throws {
        try await execute(Self.query(statement))
    }

    /// Decodes the record columns straight from the row, the rest as ``SQLValue``s; rows after
    /// a stop are read and dropped by the row sequence's end.
    func forEachRecord(_ statement: SQLStatement, extraColumns: Int, _ body: (StoredRecord, RowActors, [SQLValue]) throws -> Bool) async throws {
        for try await row in try await query(Self.query(statement)) {
            let cells = row.makeRandomAccess()
            let extra = try (0..<extraColumns).map { try SQLValue(cells[RecordColumns.count + $0]) }
            let (record, actors) = try Self.record(cells)
            guard try body(record, actors, extra) else { return }
        }
    }

    private static func query(_ statement: SQLStatement) throws -> PostgresQuery {
        let (sql, binds) = statement.rendered(.postgres)
        var bindings = PostgresBindings(capacity: binds.count)
        for value in binds { bindings.append(value) }
        return PostgresQuery(unsafeSQL: sql, binds: bindings)
    }
}

extension PostgresBindings {
    mutating func append(_ value: SQLValue) {
        switch value {
        case .null: appendNull()
        case .integer(let integer): append(integer)
        case .real(let real): append(real)
        case .text(let text): append(text)
        case .blob(let bytes): append(ByteBuffer(bytes: bytes))
        case .boolean(let bool): append(bool)
        }
    }
}

extension SQLValue {
    init(_ cell: PostgresCell) throws {
        guard cell.bytes != nil else {
            self = .null
            return
        }
        switch cell.dataType {
        case .bool: self = .boolean(try cell.decode(Bool.self))
        case .int2, .int4, .int8: self = .integer(try cell.decode(Int64.self))
        case .float4, .float8: self = .real(try cell.decode(Double.self))
        case .bytea: self = .blob(Array(buffer: try cell.decode(ByteBuffer.self)))
        default: self = .text(try cell.decode(String.self))
        }
    }
}
