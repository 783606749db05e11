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
