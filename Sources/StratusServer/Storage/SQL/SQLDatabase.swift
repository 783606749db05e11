/// A driver's transaction as the statements written once see it: it runs an ``SQLStatement``
/// in its ``SQLDialect`` and hands back rows as ``SQLRow``s.
///
/// The stores' shared implementations (`extension AccountStore where Self: SQLDatabase`…) are
/// written against this, so a rule or a statement exists once for both backends.
package protocol SQLDatabase {
    /// Runs a statement and returns every row of its result.
    func fetch(_ statement: SQLStatement) async throws -> [SQLRow]
    /// Runs a statement whose rows, if any, are not needed.
    func run(_ statement: SQLStatement) async throws
}

extension SQLDatabase {
    /// The first row, if there is one.
    package func fetchOne(_ statement: SQLStatement) async throws -> SQLRow? {
        try await fetch(statement).first
    }

    /// Runs a statement ending in `RETURNING …` and tells how many rows it changed.
    package func changedRowCount(_ statement: SQLStatement) async throws -> Int {
        try await fetch(statement).count
    }
}
