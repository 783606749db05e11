import NIOCore
import PostgresNIO

/// The statements written once (``SQLDatabase``), sent on this transaction's connection after
/// the held writes.
extension PostgresTransaction: SQLDatabase {
    func fetch(_ statement: SQLStatement) async throws -> [SQLRow] {
        try await rows(Self.query(statement)).map { row in SQLRow(try row.map(SQLValue.init)) }
    }

    func run(_ statement: SQLStatement) async throws {
        try await execute(Self.query(statement))
    }

    private static func query(_ statement: SQLStatement) throws -> PostgresQuery {
        let (sql, binds) = statement.rendered(.postgres)
        var bindings = PostgresBindings(capacity: binds.count)
        for value in binds {
            switch value {
            case .null: bindings.appendNull()
            case .integer(let integer): bindings.append(integer)
            case .real(let real): bindings.append(real)
            case .text(let text): bindings.append(text)
            case .blob(let bytes): bindings.append(ByteBuffer(bytes: bytes))
            case .boolean(let bool): bindings.append(bool)
            }
        }
        return PostgresQuery(unsafeSQL: sql, binds: bindings)
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
