import StratusCore

/// The mail that tells a user their account changed how it signs in (a password set or changed,
/// an Apple ID linked or unlinked), so that a change they did not make does not go unseen. It
/// goes to the account's verified address only, through the outbox, in the transaction of the
/// change; without a verified address or an SMTP server, nothing is sent.
struct SecurityNotices: Sendable {
    let outbox: MailOutbox?

    /// Writes the notice of `change` ("Your password was changed") to `user`'s outbox in `transaction`.
    func notify(_ user: StoredUser, _ change: String, in transaction: any StorageTransaction) async throws {
        guard let outbox, let email = user.email, user.emailVerified else { return }
        try await MailOutbox.enqueue(StoredMail(recipient: email, subject: change,
                                                body: "\(change) for the account \(user.username).\n\n"
                                                    + "If this was you, there is nothing to do. If it was not, reset your password now and sign out your other sessions.\n",
                                                createdAt: outbox.clock.milliseconds), in: transaction)
    }

    /// Wakes the courier after the transaction committed.
    func sent() {
        outbox?.nudge()
    }
}
