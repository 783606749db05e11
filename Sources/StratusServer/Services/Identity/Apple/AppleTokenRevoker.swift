import Foundation
import Logging
import StratusCore

/// Revokes Sign in with Apple refresh tokens at Apple (App Store rule 5.1.1(v)), through a
/// durable outbox: deleting an account or unlinking its Apple ID writes the token's revocation
/// (``enqueue(_:of:in:)``) in its own transaction, and the revoker sends it after the commit,
/// so deletion never waits on Apple and a crash or restart loses none.
///
/// The revoker claims due revocations with a lease (one sender across instances), opens each
/// token (sealed for its container, ``KeyVault``) and posts it to Apple's `/auth/revoke` with a
/// fresh client secret. A revocation is done when Apple answers 200 (it does for a token already
/// revoked) or refuses the token itself; while Apple cannot be reached, answers 5xx or refuses
/// the server's credentials (the operator's key is wrong), it is tried again after
/// ``retryInterval``, doubling up to an hour, until Apple answers. It runs every
/// ``pollInterval``, at start, and when nudged after a deletion.
package struct AppleTokenRevoker: Sendable {
    let storage: any StratusStorage
    /// Apple's endpoints; nil when the operator gave no client secret key (nothing is revoked,
    /// and nothing is kept to revoke).
    let tokens: AppleTokenEndpoint?
    let keys: KeyVault
    let retryInterval: Duration
    let clock: ServerClock
    let logger: Logger

    /// The most revocations claimed at once.
    static let batch = 16
    /// The longest wait between two tries of a revocation.
    static let maxRetryInterval: Duration = .seconds(3600)
    /// How often the revoker looks for due revocations (retries, other instances' deletions).
    static let pollInterval: Duration = .seconds(5)

    /// Whether the server can revoke tokens (it was given the client secret's key).
    package var isEnabled: Bool { tokens != nil }

    /// Queues the revocation of `identity`'s refresh token, if it holds one, in `transaction`;
    /// after the commit, ``nudge()``.
    static func enqueue(_ identity: StoredAppleIdentity?, of containerID: String, at time: Int64,
                        in transaction: any StorageTransaction) async throws {
        guard let token = identity?.refreshToken else { return }
        try await transaction.enqueueAppleRevocation(StoredAppleRevocation(containerID: containerID, token: token, createdAt: time))
    }

    /// Sends the revocations due now, without the caller waiting for Apple.
    func nudge() {
        guard isEnabled else { return }
        Task { await revokeDue() }
    }

    /// Sends every revocation due now; what fails is rescheduled.
    package func revokeDue() async {
        guard let tokens else { return }
        do {
            while true {
                let now = clock.milliseconds
                let lease = now + 2 * ProviderHTTP.timeout.nanoseconds / 1_000_000 + 60_000
                let claimed = try await storage.write { try await $0.claimAppleRevocations(now: now, leaseUntil: lease, limit: Self.batch) }
                for revocation in claimed { await revoke(revocation, with: tokens) }
                if claimed.count < Self.batch { return }
            }
        } catch {
            logger.warning("the Apple revocation outbox could not be read: \(error)")
        }
    }

    private func revoke(_ revocation: StoredAppleRevocation, with tokens: AppleTokenEndpoint) async {
        let problem: String
        do {
            let token = String(decoding: try await keys.open(revocation.token.sealedToken, for: .container(revocation.containerID)), as: UTF8.self)
            switch try await tokens.revoke(token, clientID: revocation.token.clientID) {
            case .done:
                try await storage.write { try await $0.deleteAppleRevocation(id: revocation.id) }
                logger.info("a Sign in with Apple refresh token was revoked")
                return
            case .refusedCredentials(let error):
                problem = "Apple refused the server's client secret (\(error)): check --apple-team-id, --apple-key-id and --apple-private-key-file"
            }
        } catch let error as KeyVaultError {
            logger.error("a Sign in with Apple refresh token cannot be opened to revoke it (\(error)); it is dropped")
            try? await storage.write { try await $0.deleteAppleRevocation(id: revocation.id) }
            return
        } catch {
            problem = "\(error)"
        }
        let attempts = revocation.attempts + 1
        let wait = RetrySchedule.wait(after: attempts, first: retryInterval, longest: Self.maxRetryInterval)
        do {
            try await storage.write {
                try await $0.rescheduleAppleRevocation(id: revocation.id, attempts: attempts, nextAttemptAt: clock.milliseconds + wait.milliseconds)
            }
            logger.warning("a Sign in with Apple token could not be revoked (try \(attempts)); retrying in \(wait): \(problem)")
        } catch {
            logger.warning("the Apple revocation outbox could not be updated: \(error)")
        }
    }
}
