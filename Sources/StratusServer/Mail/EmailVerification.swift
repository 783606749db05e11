import Foundation
import StratusCore

/// Proving an email address before anyone can reach its user by it.
///
/// An address given at sign-up is only claimed: share invitations and `users/discover` never match
/// it (usernames always match). With an SMTP server configured, sign-up mails a six-digit code,
/// valid 15 minutes and for five tries; the user sends it to `email/verify` and the address then
/// matches. Without one, addresses stay unverified and only usernames reach people. Codes mailed
/// and codes tried are bounded per email address and per client address (``MailedCodeLimits``).
package struct EmailVerification: Sendable {
    let storage: any StratusStorage
    /// Where codes are mailed through; nil when the server has no SMTP server.
    let outbox: MailOutbox?
    let limiter: RateLimiter
    let clock: ServerClock
    var codeLimits: MailedCodeLimits { MailedCodeLimits(limiter: limiter) }

    static let codeLifetime: Duration = .seconds(15 * 60)
    /// Codes one user may have mailed: three, then one every ten minutes.
    static let codesPerUser = RateRule(burst: 3, perSecond: 1.0 / 600)

    /// After sign-up: mails the first code when the user gave an address and a mailer is
    /// configured. The account exists either way; a code that was not mailed can be asked for again.
    package func sendFirstCode(to user: StoredUser, client: String) async {
        guard user.email != nil, outbox != nil else { return }
        try? await sendCode(to: user, client: client)
    }

    /// `email/send`: mails the signed-in user a new code.
    package func sendCode(to userRecordName: String, client: String) async throws {
        guard let user = try await storage.read({ try await $0.user(recordName: userRecordName) }) else {
            throw AuthService.authenticationRequired
        }
        try await sendCode(to: user, client: client)
    }

    /// Mails a new code to the user's address.
    private func sendCode(to user: StoredUser, client: String) async throws {
        guard let email = user.email, !user.emailVerified else { throw CloudKitError.badRequest("there is no unverified email address to verify") }
        guard let outbox else { throw CloudKitError.badRequest("this server sends no mail: email addresses cannot be verified here") }
        try await limiter.acquireAcrossInstances("email-codes|\(user.userRecordName)", Self.codesPerUser, what: "verification codes for this account")
        try await codeLimits.chargeCode(to: email, containerID: user.containerID, client: client, verification: true)
        let sealer = try await outbox.keys.sealer(for: .user(user.userRecordName))
        try await storage.write { transaction in
            try await MailedCode.issue(to: user.userRecordName, at: email, for: .emailVerification, lifetime: Self.codeLifetime, now: clock.milliseconds, mail: { code in
                ("Your verification code: \(code)", "Enter this code to confirm your email address: \(code)\n\nIt is valid for 15 minutes.\n")
            }, sealedWith: sealer, in: transaction)
        }
        outbox.nudge()
    }

    /// Checks a code the user received; the address is verified when it matches.
    package func verify(code: String, user: String, client: String) async throws {
        try await codeLimits.chargeTry(client: client)
        let outcome: CloudKitError? = try await storage.write { transaction in
            switch try await MailedCode.check(code, user: user, for: .emailVerification, now: clock.milliseconds, in: transaction) {
            case .noValidCode: return CloudKitError.badRequest("no valid verification code: ask for a new one with email/send")
            case .wrong: return CloudKitError.badRequest("wrong verification code")
            case .right:
                try await transaction.markEmailVerified(user: user)
                return nil
            }
        }
        if let outcome { throw outcome }
        await codeLimits.refundTry(client: client)
    }
}
