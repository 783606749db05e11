import StratusCore

/// A six-digit code mailed to a user to prove something (``UserCodePurpose``), issued and checked
/// the same way for every purpose: one per user and purpose, kept as its SHA-256, good until it
/// expires and for ``maxAttempts`` tries, used up when it is right.
enum MailedCode {
    /// Wrong tries a code allows.
    static let maxAttempts = 5

    /// What checking a code found.
    enum Outcome {
        case right
        case wrong
        /// None, expired, or its tries spent.
        case noValidCode
    }

    /// Stores a new code for `holder` (a user's record name; for ``UserCodePurpose/signUp``, the
    /// ``signUpHolder(email:containerID:)`` of the address) and `purpose`, good for `lifetime` from
    /// `now`, and writes its mail to the outbox, sealed with `sealer` (the user's key, or the
    /// container's), in `transaction`; returns nothing of the code (it is only in the mail).
    static func issue(to holder: String, at email: String, for purpose: UserCodePurpose, lifetime: Duration, now: Int64,
                      mail: (String) -> (subject: String, body: String), sealedWith sealer: Sealer,
                      in transaction: any StorageTransaction) async throws {
        let code = String(format: "%06d", Int.random(in: 0..<1_000_000))
        let expiresAt = now + lifetime.milliseconds
        try await transaction.saveUserCode(StoredEmailCode(userRecordName: holder, codeHash: SecretGenerator.digest(code),
                                                           expiresAt: expiresAt, attempts: 0), for: purpose)
        let (subject, body) = mail(code)
        try await MailOutbox.enqueue(StoredMail(recipient: email, subject: subject, body: body, codeExpiresAt: expiresAt, createdAt: now),
                                     sealedWith: sealer, in: transaction)
    }

    /// Who holds the sign-up code of an address no account has: the SHA-256 of the container and
    /// the address (never a user's record name, which starts with `_`).
    static func signUpHolder(email: String, containerID: String) -> String {
        "signup:" + SecretGenerator.digest(containerID + "|" + email.lowercased())
    }

    /// Checks `code` against the holder's code for `purpose` in `transaction` at `now`: a wrong one
    /// spends a try, a right one is forgotten.
    static func check(_ code: String, user: String, for purpose: UserCodePurpose, now: Int64,
                      in transaction: any StorageTransaction) async throws -> Outcome {
        guard var stored = try await transaction.userCode(user: user, for: purpose), stored.expiresAt > now,
              stored.attempts < maxAttempts else { return .noValidCode }
        guard PasswordHasher.constantTimeEquals(Array(stored.codeHash.utf8), Array(SecretGenerator.digest(code).utf8)) else {
            stored.attempts += 1
            try await transaction.saveUserCode(stored, for: purpose)
            return .wrong
        }
        try await transaction.deleteUserCode(user: user, for: purpose)
        return .right
    }
}
