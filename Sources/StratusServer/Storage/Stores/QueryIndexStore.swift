/// The index rows of queryable and sortable fields, and the queries that run over them.
package protocol QueryIndexStore {
    /// Replaces a record's index rows (none are written for fields that are not indexed).
    func replaceIndexEntries(zoneRowID: Int64, recordType: String, recordName: String, entries: [IndexEntry]) async throws
    /// Runs a query over index rows; at most `limit` rows, in the sort order.
    func query(_ query: RecordQuery) async throws -> QueryPage
}
