import GRDB

extension GRDB.Database {
    /// The statement of one batch of a many-rows write or lookup: cached when the batch is full
    /// (the same text comes back page after page), prepared afresh when it is the short last one
    /// (whose text varies), so the cache holds one statement per kind of batch, not one per size.
    package func batchStatement(sql: String, isFull: Bool) throws -> Statement {
        isFull ? try cachedStatement(sql: sql) : try makeStatement(sql: sql)
    }
}
