import GRDB

extension SyncEngine {
    /// An SQL expression that is true while what the server has is being applied to an app's
    /// database whose engines keep their state under `tablePrefix`: in
    /// ``SyncEngineDelegate/applyServerChanges(_:in:)``, or in ``applyingServerChanges(in:tablePrefix:_:)``.
    /// A trigger that refuses some edits of the app (a row shared read-only) tests it to let the
    /// server's version in.
    public static func isApplyingServerChanges(tablePrefix: String) -> String {
        "(SELECT applying FROM \(applyingTable(tablePrefix: tablePrefix))) > 0"
    }

    /// Runs `body` in `db`'s transaction as the engine applies what the server has, the one way
    /// the server's own changes are told from the app's: ``isApplyingServerChanges(tablePrefix:)``
    /// holds meanwhile, and what the app's triggers queue in the outbox (``outboxTable(tablePrefix:)``)
    /// is removed when it returns, so capture triggers need no condition. The engine applies
    /// fetched and sent records this way; an app calls it to remove local data on the server's
    /// word outside an engine's fetch.
    public static func applyingServerChanges<T>(in db: GRDB.Database, tablePrefix: String, _ body: () throws -> T) throws -> T {
        try applyingServerChanges(in: db, flag: applyingTable(tablePrefix: tablePrefix), outbox: outboxTable(tablePrefix: tablePrefix), body)
    }

    /// The one-row table of the flag, beside the outbox.
    static func applyingTable(tablePrefix: String) -> String { "\(tablePrefix)applying" }

    /// Raises the flag in `flag` around `body` (a count, as applying may nest), and removes from
    /// `outbox` what `body` appended: the transaction is this connection's alone, so every row
    /// past the outbox's end before `body` is its.
    static func applyingServerChanges<T>(in db: GRDB.Database, flag: String, outbox: String, _ body: () throws -> T) throws -> T {
        let end = try Int64.fetchOne(db, sql: "SELECT MAX(sequence) FROM \(outbox)") ?? 0
        try db.execute(sql: "UPDATE \(flag) SET applying = applying + 1")
        defer { try? db.execute(sql: "UPDATE \(flag) SET applying = applying - 1") }
        let result = try body()
        try db.execute(sql: "DELETE FROM \(outbox) WHERE sequence > ?", arguments: [end])
        return result
    }
}
