/// The sessions users sign in to, and the console sessions of administrators.
package protocol SessionStore {
    func session(tokenHash: String) async throws -> StoredSession?
    /// A user's sessions, newest first (at most 200).
    func sessions(user: String) async throws -> [StoredSession]
    func insertSession(_ session: StoredSession) async throws
    /// Records that the session's user proved who they are in it at `time` (ms).
    func setSessionProven(tokenHash: String, at time: Int64) async throws
    /// Records that the session was used at `time` (ms), unless a later use is recorded.
    func setSessionUsed(tokenHash: String, at time: Int64) async throws
    /// Revokes a session, and forgets the APNs device tokens it registered.
    func deleteSession(tokenHash: String) async throws
    /// Revokes the user's sessions but `kept`, and forgets the APNs device tokens registered by
    /// any but `kept`; returns the token hashes revoked.
    func deleteSessions(user: String, except kept: String?) async throws -> [String]
    /// Forgets the sessions expired before `time` (ms) and the APNs device tokens they registered.
    func deleteExpiredSessions(before time: Int64) async throws
    func insertConsoleSession(_ session: StoredConsoleSession) async throws
    func consoleSession(tokenHash: String) async throws -> StoredConsoleSession?
    func deleteConsoleSession(tokenHash: String) async throws
    func deleteExpiredConsoleSessions(before time: Int64) async throws
}
