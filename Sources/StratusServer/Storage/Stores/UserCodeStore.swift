/// The codes mailed to users to prove something, one per user and purpose (``UserCodePurpose``):
/// only a code's SHA-256 is kept, with its expiry and the tries spent (``MailedCode``).
package protocol UserCodeStore {
    /// Saves a user's code for `purpose`, over the one before.
    func saveUserCode(_ code: StoredEmailCode, for purpose: UserCodePurpose) async throws
    func userCode(user: String, for purpose: UserCodePurpose) async throws -> StoredEmailCode?
    func deleteUserCode(user: String, for purpose: UserCodePurpose) async throws
}

/// What a mailed code proves.
package enum UserCodePurpose: Sendable {
    /// That the user receives mail at their address (``EmailVerification``).
    case emailVerification
    /// Who the user is, again: fresh proof (``AccountCentre``), or a sign-in (``EmailCodeSignIn``).
    case proof
    /// That someone receives mail at an address no account has, to make an account for it
    /// (``EmailCodeSignIn``, with `--email-code-signup`); held by
    /// ``MailedCode/signUpHolder(email:containerID:)``.
    case signUp
}
