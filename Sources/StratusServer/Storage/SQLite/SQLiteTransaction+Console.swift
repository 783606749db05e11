import GRDB
import StratusCore

/// Administrator accounts and their console sessions.
extension SQLiteTransaction {
    func insertAdministrator(_ administrator: StoredAdministrator) throws {
        do {
            try db.execute(sql: "INSERT INTO administrators (username, password_hash, created_at) VALUES (?, ?, ?)",
                           arguments: [administrator.username, administrator.passwordHash, administrator.createdAt])
        } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_PRIMARYKEY {
            throw CloudKitError(.exists, "there is an administrator '\(administrator.username)'")
        }
    }

    func administrator(username: String) throws -> StoredAdministrator? {
        try Row.fetchOne(db.cachedStatement(sql: "SELECT username, password_hash, created_at FROM administrators WHERE username = ?"),
                         arguments: [username]).map { StoredAdministrator(username: $0[0], passwordHash: $0[1], createdAt: $0[2]) }
    }

    func administrators() throws -> [StoredAdministrator] {
        try Row.fetchAll(db, sql: "SELECT username, password_hash, created_at FROM administrators ORDER BY username").map {
            StoredAdministrator(username: $0[0], passwordHash: $0[1], createdAt: $0[2])
        }
    }

    func deleteAdministrator(username: String) throws -> Bool {
        try db.execute(sql: "DELETE FROM console_sessions WHERE username = ?", arguments: [username])
        try db.execute(sql: "DELETE FROM administrators WHERE username = ?", arguments: [username])
        return db.changesCount > 0
    }

    func insertConsoleSession(_ session: StoredConsoleSession) throws {
        try db.execute(sql: "INSERT INTO console_sessions (token_hash, username, expires_at) VALUES (?, ?, ?)",
                       arguments: [session.tokenHash, session.username, session.expiresAt])
    }

    func consoleSession(tokenHash: String) throws -> StoredConsoleSession? {
        try Row.fetchOne(db.cachedStatement(sql: "SELECT token_hash, username, expires_at FROM console_sessions WHERE token_hash = ?"),
                         arguments: [tokenHash]).map { StoredConsoleSession(tokenHash: $0[0], username: $0[1], expiresAt: $0[2]) }
    }

    func deleteConsoleSession(tokenHash: String) throws {
        try db.execute(sql: "DELETE FROM console_sessions WHERE token_hash = ?", arguments: [tokenHash])
    }

    func deleteExpiredConsoleSessions(before time: Int64) throws {
        try db.execute(sql: "DELETE FROM console_sessions WHERE expires_at < ?", arguments: [time])
    }
}
