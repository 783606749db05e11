import GRDB

extension GRDB.Database {
    /// The statement of one batch of a many-rows write or lookup: cached when the batch is full
    /// (the same text comes back page after page), prepared afresh when it is the short last one
    /// (whose text varies), so the cache holds one statement per kind of batch, not one per size.
    package func batchStatement(sql: String, isFull: Bool) throws -> Statement {
        isFull ? try cachedStatement(sql: sql) : try makeStatement(sql: sql)
    }
}

/// The `VALUES` list of a many-rows insert: `rows` groups of `columns` placeholders.
package func databaseRowsQuestionMarks(rows: Int, columns: Int) -> String {
    Array(repeating: "(" + databaseQuestionMarks(count: columns) + ")", count: rows).joined(separator: ", ")
}

extension Array {
    /// The array in consecutive slices of at most `count` elements: the batches of a many-rows
    /// statement.
    package func slices(of count: Int) -> [ArraySlice<Element>] {
        stride(from: 0, to: self.count, by: count).map { self[$0..<Swift.min($0 + count, self.count)] }
    }
}

extension Statement {
    /// Binds `values` to the statement's parameters, in order, for its next execution or fetch
    /// (`execute()`, `Row.fetchCursor(statement)`): there must be exactly as many (the many-rows
    /// statements here are built with one parameter per value).
    ///
    /// `StatementArguments` converts each value through generic code that is not specialized
    /// outside GRDB: for the thousands of values of a fetched page's statements, that conversion
    /// took a third of the time the page took to apply. Values are bound directly instead.
    package func bind(_ values: some Collection<DatabaseValue>) throws -> Statement {
        setUncheckedArguments(StatementArguments())   // resets, and clears the bindings
        var index: CInt = 1
        for value in values {
            let code = value.bind(to: sqliteStatement, at: index)
            guard code == 0 else { throw DatabaseError(resultCode: ResultCode(rawValue: code), message: "binding parameter \(index)", sql: sql) }
            index += 1
        }
        return self
    }
}
