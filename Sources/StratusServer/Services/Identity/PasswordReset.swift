import Foundation
import StratusCore

/// "Forgot password": a code mailed to the account's verified address sets a new password.
///
/// `password/forgot` answers the same whether or not an account has the address (nothing tells
/// who has an account), and is throttled per client address and per address asked for. The code
/// (``SecretGenerator/typedCode()``, kept as its SHA-256 like an email verification code) is valid
/// for 30 minutes and once; `password/reset` with it sets the password, ends every session of the
/// user (their push connections close) and forgets their APNs tokens. Guesses are throttled per
/// client address. Only verified addresses receive codes: an address someone merely claimed
/// cannot take the account over.
package struct PasswordReset: Sendable {
    let storage: any StratusStorage
    /// Where codes are mailed through; nil when the server has no SMTP server.
    let outbox: MailOutbox?
    let limiter: RateLimiter
    let auth: AuthService
    let hub: NotificationHub
    let clock: ServerClock

    static let codeLifetime: Duration = .seconds(30 * 60)
    /// Reset mails asked for from one client address: five, then one a minute.
    static let requestsPerAddress = RateRule(burst: 5, perSecond: 1.0 / 60)
    /// Reset mails to one email address: three, then one every ten minutes.
    static let mailsPerEmail = RateRule(burst: 3, perSecond: 1.0 / 600)
    /// Codes tried from one client address: ten, then one a minute.
    static let attemptsPerAddress = RateRule(burst: 10, perSecond: 1.0 / 60)

    /// `password/forgot`: mails a reset code if a user of the container verified `email`.
    package func requestReset(email: String, containerID: String, client: String) async throws {
        let email = email.lowercased()
        guard email.utf8.count <= 255, email.contains("@"), !email.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw CloudKitError.badRequest("give the email address of the account")
        }
        guard let outbox else { throw CloudKitError.badRequest("this server sends no mail: passwords cannot be reset by email here") }
        try await limiter.acquireAcrossInstances("reset|address|\(client)", Self.requestsPerAddress, what: "password resets from this address")
        try await limiter.acquireAcrossInstances("reset|email|\(containerID)|\(email)", Self.mailsPerEmail, what: "password resets for this email address")
        try await MailedCodeLimits(limiter: limiter).chargeCode(to: email, containerID: containerID, client: client, verification: false)
        let user = try await storage.read { try await $0.user(containerID: containerID, email: email) }
        // The same seal and write whether or not an account has the address (a decoy, sealed for
        // the container, where no mail goes), no key made (an account whose key was never made,
        // from before keys, has its mail sealed for the container too), and no SMTP in the
        // request: nothing in the answer or its timing tells who has an account.
        let container = KeyScope.container(containerID)
        let sealer = try await outbox.keys.sealer(for: user.map { .user($0.userRecordName) } ?? container, orElse: container)
        let code = SecretGenerator.typedCode()
        let now = clock.milliseconds
        let expiresAt = now + Self.codeLifetime.milliseconds
        try await storage.write { transaction in
            guard let user else {
                return try await MailOutbox.enqueue(StoredMail(recipient: email, subject: "", body: "", isDecoy: true, codeExpiresAt: expiresAt,
                                                               createdAt: now), sealedWith: sealer, in: transaction)
            }
            try await transaction.savePasswordResetCode(StoredPasswordResetCode(codeHash: SecretGenerator.digest(code), userRecordName: user.userRecordName,
                                                                               expiresAt: expiresAt))
            try await MailOutbox.enqueue(StoredMail(recipient: email, subject: "Reset your password",
                                                    body: "Someone, hopefully you, asked to reset the password of \(user.username).\n\n"
                                                        + "Your reset code: \(code)\n\nIt is valid for 30 minutes, once. If you did not ask, ignore this mail: your password stays.\n",
                                                    codeExpiresAt: expiresAt, createdAt: now), sealedWith: sealer, in: transaction)
        }
        outbox.nudge()
    }

    /// `password/reset`: sets the password of the code's user, ends their sessions and forgets
    /// their APNs tokens. A code that is wrong, used or expired is `BAD_REQUEST`.
    package func reset(code: String, password: String, containerID: String, client: String) async throws {
        try await limiter.acquireAcrossInstances("reset-try|\(client)", Self.attemptsPerAddress, what: "password reset codes tried from this address")
        let hash = SecretGenerator.digest(code.uppercased().trimmingCharacters(in: .whitespaces))
        let refused = CloudKitError.badRequest("the reset code is wrong, used or expired: ask for a new one with password/forgot")
        // Checked before the password is hashed: a wrong guess costs no hash.
        let user = try await storage.read { transaction -> StoredUser? in
            guard let stored = try await transaction.passwordResetCode(codeHash: hash), stored.expiresAt > clock.milliseconds else { return nil }
            return try await transaction.user(recordName: stored.userRecordName)
        }
        guard let user, user.containerID == containerID else { throw refused }
        let passwordHash = try await auth.hashPassword(password)
        let revoked: [String] = try await storage.write { transaction in
            // Used once: whoever gets here first with it sets the password.
            guard try await transaction.passwordResetCode(codeHash: hash) != nil else { throw refused }
            try await transaction.deletePasswordResetCodes(user: user.userRecordName)
            try await transaction.setPasswordHash(user: user.userRecordName, passwordHash: passwordHash)
            return try await transaction.deleteSessions(user: user.userRecordName, except: nil)
        }
        await hub.endSessions(Set(revoked))
    }
}
