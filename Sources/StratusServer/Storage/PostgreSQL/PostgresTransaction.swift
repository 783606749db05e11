import Foundation
import Logging
import NIOCore
import PostgresNIO
import StratusCore

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

    var holdsRecordWrites: Bool { true }

    // MARK: Running statements

    /// Runs a statement, after the held writes (and the savepoints among them) reach the server.
    func query(_ query: PostgresQuery) async throws -> PostgresRowSequence {
        try await sendHeldWrites()
        return try await connection.query(query, logger: logger)
    }

    /// Sends the held saves and the unsent savepoints, in the order they were made.
    func sendHeldWrites() async throws {
        guard !held.isEmpty || openSavepoints.last?.heldPosition != nil else { return }
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

    // MARK: Containers, users, sessions

    func container(id: String) async throws -> StoredContainer? {
        try await rows("SELECT id, api_token, created_at FROM containers WHERE id = \(id)").first.map(Self.container)
    }

    static func container(_ row: PostgresRandomAccessRow) throws -> StoredContainer {
        StoredContainer(id: try row[0].decode(String.self), apiToken: try row[1].decode(String.self), createdAt: try row[2].decode(Int64.self))
    }

    func insertContainer(_ container: StoredContainer) async throws {
        try await execute("INSERT INTO containers (id, api_token, created_at) VALUES (\(container.id), \(container.apiToken), \(container.createdAt))")
    }

    static let userColumns = "user_record_name, container_id, username, password_hash, created_at, email, discoverable, email_verified, disabled_at"

    static func user(_ row: PostgresRandomAccessRow) throws -> StoredUser {
        StoredUser(userRecordName: try row[0].decode(String.self), containerID: try row[1].decode(String.self),
                   username: try row[2].decode(String.self), passwordHash: try row[3].decode(String.self),
                   createdAt: try row[4].decode(Int64.self), email: try row[5].decode(String?.self),
                   discoverable: try row[6].decode(Bool.self), emailVerified: try row[7].decode(Bool.self),
                   disabledAt: try row[8].decode(Int64?.self))
    }

    func user(containerID: String, username: String) async throws -> StoredUser? {
        try await rows("SELECT \(unescaped: Self.userColumns) FROM users WHERE container_id = \(containerID) AND username = \(username)")
            .first.map(Self.user)
    }

    func user(containerID: String, email: String) async throws -> StoredUser? {
        try await rows("""
            SELECT \(unescaped: Self.userColumns) FROM users WHERE container_id = \(containerID) AND email = \(email.lowercased()) AND email_verified
            """).first.map(Self.user)
    }

    func user(recordName: String) async throws -> StoredUser? {
        try await rows("SELECT \(unescaped: Self.userColumns) FROM users WHERE user_record_name = \(recordName)").first.map(Self.user)
    }

    func insertUser(_ user: StoredUser) async throws {
        let inserted = try await changedRows("""
            INSERT INTO users (\(unescaped: Self.userColumns)) VALUES (\(user.userRecordName), \(user.containerID), \(user.username),
                \(user.passwordHash), \(user.createdAt), \(user.email?.lowercased()), \(user.discoverable), \(user.emailVerified), \(user.disabledAt))
            ON CONFLICT (container_id, username) DO NOTHING RETURNING 1
            """)
        if inserted == 0 { throw CloudKitError(.exists, "username '\(user.username)' is taken") }
    }

    func saveEmailCode(_ code: StoredEmailCode) async throws {
        try await execute("""
            INSERT INTO email_codes (user_record_name, code_hash, expires_at, attempts)
            VALUES (\(code.userRecordName), \(code.codeHash), \(code.expiresAt), \(code.attempts))
            ON CONFLICT (user_record_name) DO UPDATE SET code_hash = EXCLUDED.code_hash, expires_at = EXCLUDED.expires_at, attempts = EXCLUDED.attempts
            """)
    }

    func emailCode(user: String) async throws -> StoredEmailCode? {
        try await rows("SELECT user_record_name, code_hash, expires_at, attempts FROM email_codes WHERE user_record_name = \(user)").first.map {
            StoredEmailCode(userRecordName: try $0[0].decode(String.self), codeHash: try $0[1].decode(String.self),
                            expiresAt: try $0[2].decode(Int64.self), attempts: Int(try $0[3].decode(Int32.self)))
        }
    }

    func markEmailVerified(user: String) async throws {
        // The partial unique index refuses a second verified claim; checked first so that the
        // transaction is not aborted by the violation.
        let taken = try await value("""
            SELECT 1 FROM users mine JOIN users other ON other.container_id = mine.container_id AND other.email = mine.email
            WHERE mine.user_record_name = \(user) AND other.user_record_name <> mine.user_record_name AND other.email_verified
            """, as: Int32.self)
        if taken != nil { throw CloudKitError(.exists, "another account has verified this email address") }
        try await execute("UPDATE users SET email_verified = TRUE WHERE user_record_name = \(user)")
        try await execute("DELETE FROM email_codes WHERE user_record_name = \(user)")
    }

    func session(tokenHash: String) async throws -> StoredSession? {
        try await rows("""
            SELECT token_hash, user_record_name, container_id, environment, expires_at FROM sessions WHERE token_hash = \(tokenHash)
            """).first.flatMap { row in
            guard let environment = ContainerEnvironment(rawValue: try row[3].decode(String.self)) else { return nil }
            return StoredSession(tokenHash: try row[0].decode(String.self), userRecordName: try row[1].decode(String.self),
                                 containerID: try row[2].decode(String.self), environment: environment, expiresAt: try row[4].decode(Int64.self))
        }
    }

    func insertSession(_ session: StoredSession) async throws {
        try await execute("""
            INSERT INTO sessions (token_hash, user_record_name, container_id, environment, expires_at)
            VALUES (\(session.tokenHash), \(session.userRecordName), \(session.containerID), \(session.environment.rawValue), \(session.expiresAt))
            """)
    }

    func deleteSession(tokenHash: String) async throws {
        try await execute("DELETE FROM apns_tokens WHERE session_hash = \(tokenHash)")
        try await execute("DELETE FROM sessions WHERE token_hash = \(tokenHash)")
    }

    func deleteExpiredSessions(before time: Int64) async throws {
        try await execute("DELETE FROM apns_tokens WHERE session_hash IN (SELECT token_hash FROM sessions WHERE expires_at < \(time))")
        try await execute("DELETE FROM sessions WHERE expires_at < \(time)")
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

    // MARK: Databases and zones

    func databaseID(_ key: DatabaseKey, create: Bool) async throws -> Int64? {
        if let id = try await value("""
            SELECT id FROM databases WHERE container_id = \(key.containerID) AND environment = \(key.environment.rawValue)
              AND scope = \(key.scope.rawValue) AND owner_record_name = \(key.ownerRecordName)
            """, as: Int64.self) {
            return id
        }
        guard create else { return nil }
        return try await value("""
            INSERT INTO databases (container_id, environment, scope, owner_record_name)
            VALUES (\(key.containerID), \(key.environment.rawValue), \(key.scope.rawValue), \(key.ownerRecordName)) RETURNING id
            """, as: Int64.self)
    }

    func databaseKey(id: Int64) async throws -> DatabaseKey? {
        try await rows("SELECT container_id, environment, scope, owner_record_name FROM databases WHERE id = \(id)").first.flatMap { row in
            guard let environment = ContainerEnvironment(rawValue: try row[1].decode(String.self)),
                  let scope = DatabaseScope(rawValue: try row[2].decode(String.self)) else { return nil }
            return DatabaseKey(containerID: try row[0].decode(String.self), environment: environment, scope: scope,
                               ownerRecordName: try row[3].decode(String.self))
        }
    }

    func databasePurgedSequence(databaseID: Int64) async throws -> Int64 {
        try await value("SELECT purged_sequence FROM databases WHERE id = \(databaseID)", as: Int64.self) ?? 0
    }

    static let zoneColumns = "id, database_id, zone_name, change_sequence, purged_sequence, deleted"

    static func zone(_ row: PostgresRandomAccessRow) throws -> StoredZone {
        StoredZone(rowID: try row[0].decode(Int64.self), databaseID: try row[1].decode(Int64.self), zoneName: try row[2].decode(String.self),
                   changeSequence: try row[3].decode(Int64.self), purgedSequence: try row[4].decode(Int64.self), deleted: try row[5].decode(Bool.self))
    }

    func liveZone(databaseID: Int64, zoneName: String) async throws -> StoredZone? {
        try await rows("""
            SELECT \(unescaped: Self.zoneColumns) FROM zones WHERE database_id = \(databaseID) AND zone_name = \(zoneName) AND NOT deleted
            """).first.map(Self.zone)
    }

    func zone(rowID: Int64) async throws -> StoredZone? {
        try await rows("SELECT \(unescaped: Self.zoneColumns) FROM zones WHERE id = \(rowID)").first.map(Self.zone)
    }

    func liveZones(databaseID: Int64) async throws -> [StoredZone] {
        try await rows("""
            SELECT \(unescaped: Self.zoneColumns) FROM zones WHERE database_id = \(databaseID) AND NOT deleted ORDER BY zone_name
            """).map(Self.zone)
    }

    func insertZone(databaseID: Int64, zoneName: String, sequence: Int64) async throws -> StoredZone {
        guard let rowID = try await value("""
            INSERT INTO zones (database_id, zone_name, change_sequence) VALUES (\(databaseID), \(zoneName), \(sequence)) RETURNING id
            """, as: Int64.self) else { throw CloudKitError(.internalError, "the zone was not inserted") }
        return StoredZone(rowID: rowID, databaseID: databaseID, zoneName: zoneName, changeSequence: sequence, purgedSequence: 0, deleted: false)
    }

    func deleteZone(rowID: Int64, sequence: Int64) async throws {
        for table in ["records", "record_references", "record_index", "asset_references"] {
            try await execute("DELETE FROM \(unescaped: table) WHERE zone_id = \(rowID)")
        }
        try await execute("UPDATE zones SET deleted = TRUE, change_sequence = \(sequence), deleted_at = \(Self.now()) WHERE id = \(rowID)")
    }

    func setZoneChangeSequence(rowID: Int64, sequence: Int64) async throws {
        try await execute("UPDATE zones SET change_sequence = \(sequence) WHERE id = \(rowID)")
    }

    func zonesChanged(databaseID: Int64, after sequence: Int64, skippingDeletionsThrough horizon: Int64, limit: Int) async throws -> [StoredZone] {
        try await rows("""
            SELECT \(unescaped: Self.zoneColumns) FROM zones WHERE database_id = \(databaseID) AND change_sequence > \(sequence)
              AND NOT (deleted AND change_sequence <= \(horizon))
            ORDER BY change_sequence LIMIT \(Int64(limit))
            """).map(Self.zone)
    }

    // MARK: Maintenance

    func purgeTombstones(before time: Int64) async throws -> Int {
        try await execute("""
            UPDATE zones SET purged_sequence = GREATEST(purged_sequence, (
                SELECT MAX(sequence) FROM records WHERE zone_id = zones.id AND deleted AND modified_at < \(time)))
            WHERE NOT deleted AND EXISTS (SELECT 1 FROM records WHERE zone_id = zones.id AND deleted AND modified_at < \(time))
            """)
        var purged = try await changedRows("DELETE FROM records WHERE deleted AND modified_at < \(time) RETURNING 1")
        try await execute("""
            UPDATE databases SET purged_sequence = GREATEST(purged_sequence, (
                SELECT MAX(change_sequence) FROM zones WHERE database_id = databases.id AND deleted AND deleted_at < \(time)))
            WHERE EXISTS (SELECT 1 FROM zones WHERE database_id = databases.id AND deleted AND deleted_at < \(time))
            """)
        // Zone ids come from an identity sequence, which never hands out a purged zone's id again.
        purged += try await changedRows("DELETE FROM zones WHERE deleted AND deleted_at < \(time) RETURNING 1")
        return purged
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

    static func now() -> Int64 { Int64(Date().timeIntervalSince1970 * 1000) }
}
