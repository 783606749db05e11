import GRDB
import StratusServer

/// Transactions and savepoints through cached statements.
///
/// GRDB's `beginTransaction`, `commit` and `inSavepoint` compile their SQL anew on every call,
/// and each compilation runs GRDB's statement authorizer; a single-record save opens a
/// transaction and two savepoints, so compiling them cost more than the save. GRDB follows
/// these statements' effects on the transaction state either way (it records them when a
/// statement is compiled), so the cached statements below keep its bookkeeping exact.
extension Database {
    /// `BEGIN IMMEDIATE TRANSACTION`: the writer's transactions.
    func beginImmediateTransaction() throws {
        try cachedStatement(sql: "BEGIN IMMEDIATE TRANSACTION").execute()
    }

    /// `COMMIT TRANSACTION`.
    func commitTransaction() throws {
        try cachedStatement(sql: "COMMIT TRANSACTION").execute()
    }

    /// Runs `body` inside a savepoint of the current transaction: released when it returns,
    /// rolled back when it throws (and the error rethrown). When SQLite abandoned the whole
    /// transaction meanwhile (a full disk, an I/O error), there is nothing left to roll back.
    func inCachedSavepoint<T>(_ body: () async throws -> T) async throws -> T {
        try cachedStatement(sql: "SAVEPOINT stratus").execute()
        let result: T
        do {
            result = try await body()
        } catch {
            if isInsideTransaction {
                try cachedStatement(sql: "ROLLBACK TRANSACTION TO SAVEPOINT stratus").execute()
                try cachedStatement(sql: "RELEASE SAVEPOINT stratus").execute()
            }
            throw error
        }
        try cachedStatement(sql: "RELEASE SAVEPOINT stratus").execute()
        return result
    }
}
