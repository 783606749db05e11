import StratusCore
import Synchronization

/// The notifications (their JSON, encoded once for every device) waiting for one connected device. A slow device does not make them pile up:
/// a notification replaces a waiting one about the same thing, and past `capacity` the waiting
/// ones are replaced by a single "you may have missed some: fetch" notification.
package final class Mailbox: Sendable {
    private struct State {
        var queue: [(key: String, notification: String)] = []
        var waiter: CheckedContinuation<String?, Never>?
        var closed = false
    }

    private let state = Mutex(State())
    let capacity: Int
    /// The notification that stands for many (pruned): a database notification with `p` set.
    private let overflow: String
    /// The hash of the session the device signed in with, and when that session expires: its
    /// end closes the mailbox.
    let sessionHash: String
    let sessionExpiresAt: Int64

    init(capacity: Int, overflow: String, session: StoredSession) {
        self.capacity = capacity
        self.overflow = overflow
        sessionHash = session.tokenHash
        sessionExpiresAt = session.expiresAt
    }

    /// Queues a notification, or hands it to the device if it is waiting.
    func post(_ notification: String, key: String) {
        let waiter = state.withLock { state -> CheckedContinuation<String?, Never>? in
            guard !state.closed else { return nil }
            if let waiter = state.waiter {
                state.waiter = nil
                return waiter
            }
            if let index = state.queue.firstIndex(where: { $0.key == key }) {
                state.queue[index].notification = notification
            } else if state.queue.count >= capacity {
                state.queue = [("overflow", overflow)]
            } else {
                state.queue.append((key, notification))
            }
            return nil
        }
        waiter?.resume(returning: notification)
    }

    /// The next notification, waiting for one; nil once the mailbox is closed.
    func next() async -> String? {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> String?? in
                if !state.queue.isEmpty { return .some(state.queue.removeFirst().notification) }
                if state.closed { return .some(nil) }
                state.waiter = continuation
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    /// The next notification if one is waiting now, else nil.
    func poll() -> String? {
        state.withLock { $0.queue.isEmpty ? nil : $0.queue.removeFirst().notification }
    }

    /// Makes a waiting `next()` return nil without closing the mailbox (a long-poll timed out).
    func wake() {
        let waiter = state.withLock { state -> CheckedContinuation<String?, Never>? in
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: nil)
    }

    /// Whether the mailbox was closed (its connection ended, or its session).
    var isClosed: Bool { state.withLock { $0.closed } }

    /// Ends the mailbox: a waiting `next()` returns nil.
    func close() {
        let waiter = state.withLock { state -> CheckedContinuation<String?, Never>? in
            state.closed = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: nil)
    }
}
