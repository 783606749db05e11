import Foundation
import Logging
import ServiceLifecycle
import StratusCore

/// Mail that no request waits for: a request writes each mail as a row of the outbox in its own
/// transaction (``enqueue(_:in:)``), and the courier (``run()``, a service of the server) sends
/// it after the commit.
///
/// The courier claims due mails with a lease (one sender across instances), sends them through
/// the SMTP server one at a time, deletes each once the server took it, and retries a failure
/// after ``retryInterval``, doubling up to an hour, for 24 hours; then it drops the mail and
/// counts it (`stratus_mail_dropped_total`). A mail holding a code goes when the code expires,
/// sent or not. A crash after the SMTP server accepted a mail but before its row was deleted
/// sends it twice. Decoys (``StoredMail/isDecoy``) are deleted unsent. A mail holding a code is
/// stored sealed for its user (``KeyVault``) and opened as it goes; once the user's key is
/// destroyed (the account deleted), it is dropped unsent.
package struct MailOutbox: Service, Sendable {
    let storage: any StratusStorage
    let mailer: SMTPMailer
    let retryInterval: Duration
    let logger: Logger
    let clock: ServerClock
    /// Seals the mails that hold a code, and opens them to send.
    package let keys: KeyVault
    private let wake: AsyncStream<Void>
    private let nudges: AsyncStream<Void>.Continuation

    /// The most mails claimed at once.
    static let batch = 16
    /// How long a mail is retried before it is dropped.
    static let giveUpAfter: Int64 = 24 * 3600 * 1000
    /// The longest wait between two tries of a mail.
    static let maxRetryInterval: Duration = .seconds(3600)
    /// How often the courier looks for due mails without being nudged (retries, other instances' mails).
    static let pollInterval: Duration = .seconds(5)

    init(storage: any StratusStorage, mailer: SMTPMailer, retryInterval: Duration, keys: KeyVault, clock: ServerClock, logger: Logger) {
        self.storage = storage
        self.keys = keys
        self.clock = clock
        self.mailer = mailer
        self.retryInterval = retryInterval
        self.logger = logger
        (wake, nudges) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// Writes a mail to the outbox in `transaction`, its subject and body sealed with `sealer`
    /// (a mail holding a code, sealed for its user; a decoy, for its container); after the
    /// commit, ``nudge()`` the courier.
    /// Header values with control characters are refused here, before anything is stored. Mail to
    /// a Sign in with Apple relay address whose forwarding the user turned off
    /// (``AppleNotifications``) is not written.
    static func enqueue(_ mail: StoredMail, sealedWith sealer: Sealer? = nil, in transaction: any StorageTransaction) async throws {
        guard [mail.recipient, mail.subject].allSatisfy({ !$0.unicodeScalars.contains(where: CharacterSet.controlCharacters.contains) }) else {
            throw CloudKitError.badRequest("a mail header value holds a control character")
        }
        if try await transaction.isRelayMailDisabled(address: mail.recipient) { return }
        var mail = mail
        if let sealer {
            mail.subject = try sealer.seal(Array(mail.subject.utf8))
            mail.body = try sealer.seal(Array(mail.body.utf8))
            mail.sealedFor = sealer.scope.name
        }
        try await transaction.enqueueMail(mail)
    }

    /// Tells the courier a mail is waiting.
    func nudge() {
        nudges.yield()
    }

    package func run() async throws {
        await cancelWhenGracefulShutdown {
            await withTaskGroup(of: Void.self) { group in
                // The poll: retries fall due, and other instances' mails, without a nudge here.
                group.addTask { [nudges] in
                    while !Task.isCancelled {
                        nudges.yield()
                        try? await Task.sleep(for: Self.pollInterval)
                    }
                }
                for await _ in wake { await deliverDue() }
                group.cancelAll()
            }
        }
    }

    /// Sends every mail due now; what fails is rescheduled.
    func deliverDue() async {
        do {
            let now = clock.milliseconds
            let expired = try await storage.write { try await $0.deleteMailWithExpiredCodes(before: now) }
            if expired > 0 { logger.info("dropped \(expired) unsent mails whose codes expired") }
            while true {
                let now = clock.milliseconds
                let lease = now + 2 * mailer.timeout.milliseconds + 60_000
                let claimed = try await storage.write { try await $0.claimMail(now: now, leaseUntil: lease, limit: Self.batch) }
                for mail in claimed { await deliver(mail) }
                if claimed.count < Self.batch { return }
            }
        } catch {
            logger.warning("the mail outbox could not be read: \(error)")
        }
    }

    /// The mail's subject and body, opened if sealed; nil once its user's key is destroyed.
    private func opened(_ mail: StoredMail) async throws -> (subject: String, body: String)? {
        guard let scope = mail.sealedFor.map(KeyScope.init(name:)) else { return (mail.subject, mail.body) }
        do {
            return (String(decoding: try await keys.open(mail.subject, for: scope), as: UTF8.self),
                    String(decoding: try await keys.open(mail.body, for: scope), as: UTF8.self))
        } catch KeyVaultError.destroyed {
            return nil
        }
    }

    private func deliver(_ mail: StoredMail) async {
        do {
            guard let (subject, body) = try await opened(mail) else {
                try await storage.write { try await $0.deleteMail(id: mail.id) }
                logger.info("a mail for a deleted account was dropped unsent")
                return
            }
            if !mail.isDecoy { try await mailer.send(to: mail.recipient, subject: subject, body: body) }
            try await storage.write { try await $0.deleteMail(id: mail.id) }
            if !mail.isDecoy { ServerMetrics.mailSent() }
        } catch {
            let now = clock.milliseconds
            let attempts = mail.attempts + 1
            do {
                if now - mail.createdAt >= Self.giveUpAfter {
                    try await storage.write { try await $0.deleteMail(id: mail.id) }
                    ServerMetrics.mailDropped()
                    logger.error("a mail was dropped after \(attempts) tries in 24 hours: \(error)")
                } else {
                    let wait = RetrySchedule.wait(after: attempts, first: retryInterval, longest: Self.maxRetryInterval)
                    try await storage.write { try await $0.rescheduleMail(id: mail.id, attempts: attempts, nextAttemptAt: now + wait.milliseconds) }
                    logger.warning("a mail could not be sent (try \(attempts)); retrying in \(wait): \(error)")
                }
            } catch {
                logger.warning("the mail outbox could not be updated: \(error)")
            }
        }
    }
}
