import StratusCore

/// The codes of "forgot password", kept as their SHA-256.
package protocol PasswordResetStore {
    /// Keeps a password reset code, replacing the user's earlier ones.
    func savePasswordResetCode(_ code: StoredPasswordResetCode) async throws
    /// The reset code with this SHA-256, expired or not.
    func passwordResetCode(codeHash: String) async throws -> StoredPasswordResetCode?
    /// Forgets the user's reset codes (one was used, or the account goes).
    func deletePasswordResetCodes(user: String) async throws
}
