import Foundation
import StratusCore

/// Administrators of the server (not app users) and their console sessions: `stratus admin` and
/// the console's sign-in call these.
extension AdminService {
    /// How long a console session lasts.
    static let consoleSessionLifetime: Duration = .seconds(12 * 3600)

    /// Creates an administrator; `EXISTS` when the name is taken.
    package func createAdministrator(username: String, password: String) async throws {
        guard (1...64).contains(username.count), username.allSatisfy({ $0.isLetter || $0.isNumber || "._-@".contains($0) }) else {
            throw CloudKitError.badRequest("an administrator's name is 1 to 64 letters, digits, '.', '_', '-' or '@'")
        }
        let administrator = StoredAdministrator(username: username, passwordHash: try await auth.hashPassword(password),
                                                createdAt: clock.milliseconds)
        let audit = AuditLog.entry("administrator.create", container: nil, username, at: clock.milliseconds)
        try await storage.write { transaction in
            try await transaction.insertAdministrator(administrator)
            try await transaction.appendAudit(audit)
        }
    }

    package func listAdministrators() async throws -> [StoredAdministrator] {
        try await storage.read { try await $0.administrators() }
    }

    /// Removes an administrator and ends their console sessions.
    package func removeAdministrator(username: String) async throws {
        let audit = AuditLog.entry("administrator.remove", container: nil, username, at: clock.milliseconds)
        guard try await storage.write({ transaction in
            guard try await transaction.deleteAdministrator(username: username) else { return false }
            try await transaction.appendAudit(audit)
            return true
        }) else {
            throw CloudKitError.notFound("there is no administrator '\(username)'")
        }
    }

    /// Checks an administrator's name and password (throttled like app sign-ins: per address, and
    /// per account after repeated failures) and opens a console session; returns its token.
    package func signInToConsole(username: String, password: String, client: String) async throws -> String {
        try AuthService.validateUsername(username)
        let administrator = try await storage.read { try await $0.administrator(username: username) }
        guard try await auth.checkAdministratorPassword(password, of: administrator, username: username, client: client),
              let administrator else {
            throw CloudKitError(.authenticationFailed, "unknown administrator or wrong password")
        }
        let token = SecretGenerator.webAuthToken()
        let now = clock.milliseconds
        let session = StoredConsoleSession(tokenHash: SecretGenerator.digest(token), username: administrator.username,
                                           expiresAt: now + Self.consoleSessionLifetime.milliseconds)
        try await storage.write { transaction in
            try await transaction.deleteExpiredConsoleSessions(before: now)
            try await transaction.insertConsoleSession(session)
        }
        return token
    }

    /// The administrator a console session token belongs to, while it lasts.
    package func consoleAdministrator(token: String) async throws -> String? {
        let session = try await storage.read { try await $0.consoleSession(tokenHash: SecretGenerator.digest(token)) }
        guard let session, session.expiresAt > clock.milliseconds else { return nil }
        return session.username
    }

    /// Ends a console session, and at once its activity streams on every instance.
    package func signOutOfConsole(token: String) async throws {
        let hash = SecretGenerator.digest(token)
        try await storage.write { try await $0.deleteConsoleSession(tokenHash: hash) }
        await hub.endSessions([hash])
    }
}
