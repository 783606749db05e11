import StratusCore

/// The users of each container: their accounts, sign-in methods and email verification.
package protocol AccountStore {
    func user(containerID: String, username: String) async throws -> StoredUser?
    /// The user who verified this email address in the container (unverified claims never match).
    func user(containerID: String, email: String) async throws -> StoredUser?
    /// The user who signs in with this Apple ID (``StoredAppleIdentity/subject``) in the container.
    func user(containerID: String, appleSubject: String) async throws -> StoredUser?
    /// Links the user to an Apple ID, or unlinks them with nil (the subject must not be another user's).
    func setAppleIdentity(user: String, _ identity: StoredAppleIdentity?) async throws
    /// The user with this record name, if any.
    func user(recordName: String) async throws -> StoredUser?
    /// A container's users by username, those whose username or email contains `text` when given.
    func users(containerID: String, matching text: String?, limit: Int) async throws -> [StoredUser]
    /// Inserts a user; throws `EXISTS` when the username is taken in that container.
    func insertUser(_ user: StoredUser) async throws
    /// Disables the account at `time` (ms), or enables it again with nil.
    func setUserDisabled(user: String, at time: Int64?) async throws
    func setPasswordHash(user: String, passwordHash: String) async throws
    /// Gives the user a new, unverified email address (nil: none) and forgets their verification code.
    func setEmail(user: String, email: String?) async throws
    /// Deletes the user's row and what only it needs: email codes, security roles, APNs tokens, passkeys.
    func deleteUser(recordName user: String) async throws
    /// Marks the user's email address verified and forgets their code; `EXISTS` when another
    /// account of the container verified the same address first.
    func markEmailVerified(user: String) async throws
}
