import Foundation
import Logging
import NIOCore
import PostgresNIO
import StratusCore
import StratusServer

/// ``StorageTransaction`` over one PostgreSQL connection, inside a transaction
/// ``PostgresStorage`` opened.
///
/// Statements bind their values as parameters (`\(value)` in a ``PostgresQuery``); the SQL texts
/// are constants, so the server plans each once per connection. Like ``SQLiteTransaction``, the
/// change sequence is read once (a write transaction reads it under the row lock that makes
/// writers take turns) and written back before the transaction commits.
final class PostgresTransaction: StorageTransaction {
    /// The connection the transaction runs on. Statements go through ``query(_:)``, which sends
    /// the held writes first.
    private let connection: PostgresConnection
    let logger: Logger
    let storeEpoch: Int64
    private var sequence: (stored: Int64, current: Int64)?
    /// Record saves not sent yet.
    var held = HeldRecordWrites()
    /// The savepoints open now, outermost first. One is sent (`SAVEPOINT`) only when a statement
    /// must run inside it; until then it remembers where in ``held`` it began, and rolling it
    /// back forgets the saves held since.
    private var openSavepoints: [OpenSavepoint] = []

    private struct OpenSavepoint {
        var name: String
        /// Where in ``held`` it began; nil once it was sent to the server.
        var heldPosition: Int?
    }

    init(connection: PostgresConnection, logger: Logger, epoch: Int64, changeSequence: Int64? = nil) {
        self.connection = connection
        self.logger = logger
        self.storeEpoch = epoch
        self.sequence = changeSequence.map { ($0, $0) }
    }

    // MARK: Running statements

    /// Runs a statement, after the held writes (and the savepoints among them) reach the server.
    func query(_ query: PostgresQuery) async throws -> PostgresRowSequence {
        try await sendHeldWrites()
        return try await connection.query(query, logger: logger)
    }

    /// Sends the held saves and the unsent savepoints, in the order they were made.
    func sendHeldWrites() async throws {
        guard !held.isEmpty || openSavepoints.last?.heldPosition != nil else { return }
        let actors = RecordActors.actors(of: held.saves.lazy.map(\.record))
        var sent = 0
        for index in openSavepoints.indices {
            guard let position = openSavepoints[index].heldPosition else { continue }
            try await send(HeldRecordWrites.statements(for: held.saves[sent..<position]))
            sent = position
            try await send(["SAVEPOINT \(unescaped: openSavepoints[index].name)"])
            openSavepoints[index].heldPosition = nil
        }
        try await send(HeldRecordWrites.statements(for: held.saves[sent...]))
        held.removeAll()
        try await verifyActors(actors)
    }

    private func send(_ statements: [PostgresQuery]) async throws {
        for statement in statements {
            for try await _ in try await connection.query(statement, logger: logger) {}
        }
    }

    /// Runs a statement and returns every row of its result.
    func rows(_ query: PostgresQuery) async throws -> [PostgresRandomAccessRow] {
        var rows: [PostgresRandomAccessRow] = []
        for try await row in try await self.query(query) { rows.append(row.makeRandomAccess()) }
        return rows
    }

    /// Runs a statement whose rows, if any, are not needed.
    func execute(_ query: PostgresQuery) async throws {
        for try await _ in try await self.query(query) {}
    }

    /// Runs a statement ending in `RETURNING …` and tells how many rows it changed.
    func changedRows(_ query: PostgresQuery) async throws -> Int {
        var count = 0
        for try await _ in try await self.query(query) { count += 1 }
        return count
    }

    /// The first column of the first row, if there is a row.
    func value<T: PostgresDecodable>(_ query: PostgresQuery, as type: T.Type = T.self) async throws -> T? {
        for try await row in try await self.query(query) {
            return try row.makeRandomAccess()[0].decode(T.self)
        }
        return nil
    }

    /// The first column of every row.
    func values<T: PostgresDecodable>(_ query: PostgresQuery, as type: T.Type = T.self) async throws -> [T] {
        var values: [T] = []
        for try await row in try await self.query(query) { values.append(try row.makeRandomAccess()[0].decode(T.self)) }
        return values
    }

    // MARK: Change sequence

    func currentChangeSequence() async throws -> Int64 {
        if let sequence { return sequence.current }
        let stored = try await value("SELECT value FROM change_sequence WHERE id = 1", as: Int64.self) ?? 0
        sequence = (stored, stored)
        return stored
    }

    func nextChangeSequence() async throws -> Int64 {
        let next = try await currentChangeSequence() + 1
        sequence?.current = next
        return next
    }

    func advanceChangeSequence(to value: Int64) async throws {
        if try await currentChangeSequence() < value { sequence?.current = value }
    }

    /// Writes the sequence handed out by this transaction back to its row.
    func storeChangeSequence() async throws {
        guard let sequence, sequence.current != sequence.stored else { return }
        try await execute("UPDATE change_sequence SET value = \(sequence.current) WHERE id = 1")
        self.sequence = (sequence.current, sequence.current)
    }

    func withSavepoint<T>(_ body: () async throws -> T) async throws -> T {
        let name = "stratus_\(openSavepoints.count + 1)"
        openSavepoints.append(OpenSavepoint(name: name, heldPosition: held.count))
        let result: T
        do {
            result = try await body()
        } catch {
            if let position = openSavepoints.removeLast().heldPosition {
                // Nothing reached the server since it began: forgetting the held saves undoes it.
                held.discard(from: position)
            } else {
                // Every save held now came after it was sent.
                held.removeAll()
                try await send(["ROLLBACK TO SAVEPOINT \(unescaped: name)", "RELEASE SAVEPOINT \(unescaped: name)"])
            }
            throw error
        }
        if openSavepoints.removeLast().heldPosition == nil {
            try await send(["RELEASE SAVEPOINT \(unescaped: name)"])
        }
        return result
    }

}
