import Synchronization

/// Tells the webhook courier that something may be waiting: a commit here or on another
/// instance, or an endpoint changed. Rings coalesce; the courier also looks on its own every
/// ``WebhookConfiguration/pollInterval``. Commits ring only while the store has an endpoint to
/// deliver to (as the courier last read it), so a server without webhooks reads nothing more
/// per commit.
package final class WebhookBell: Sendable {
    let rings: AsyncStream<Void>
    private let ringer: AsyncStream<Void>.Continuation
    private let listening = Mutex(false)

    init() {
        (rings, ringer) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// Rings whatever the courier last read (a poll, an endpoint changed).
    func ring() {
        ringer.yield()
    }

    /// Rings for a commit, if an endpoint may hear it.
    func ringForCommit() {
        if listening.withLock({ $0 }) { ringer.yield() }
    }

    /// Whether the courier found an enabled endpoint at its last reading.
    func setListening(_ value: Bool) {
        listening.withLock { $0 = value }
    }
}
