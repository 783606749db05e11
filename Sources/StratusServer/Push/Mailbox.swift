import StratusCore
import Synchronization

/// The notifications (their JSON, encoded once for every device) waiting for one connected device. A slow device does not make them pile up:
/// a notification replaces a waiting one about the same thing, and past `capacity` the waiting
/// ones are replaced by a single "you may have missed some: fetch" notification.
///
/// A long-poll courier takes notifications with ``next()`` and ``poll()``. A WebSocket hands the
/// mailbox a ``Delivery`` instead (``deliver(_:)``): a task that sends runs only while
/// notifications are waiting, so an idle connection holds no task of its own.
package final class Mailbox: Sendable {
    /// How a WebSocket's notifications leave: `send` each in order; `end` once the mailbox
    /// closes (its session ended), to close the connection.
    package struct Delivery: Sendable {
        package var send: @Sendable (String) async throws -> Void
        package var end: @Sendable () async -> Void

        package init(send: @escaping @Sendable (String) async throws -> Void, end: @escaping @Sendable () async -> Void) {
            self.send = send
            self.end = end
        }
    }

    private struct State {
        var queue: [(key: String, notification: String)] = []
        var waiter: CheckedContinuation<String?, Never>?
        var closed = false
        var delivery: Delivery?
        /// Whether a task is sending the queue through `delivery`.
        var delivering = false
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
        let (waiter, delivery) = state.withLock { state -> (CheckedContinuation<String?, Never>?, Delivery?) in
            guard !state.closed else { return (nil, nil) }
            if let waiter = state.waiter {
                state.waiter = nil
                return (waiter, nil)
            }
            if let index = state.queue.firstIndex(where: { $0.key == key }) {
                state.queue[index].notification = notification
            } else if state.queue.count >= capacity {
                state.queue = [("overflow", overflow)]
            } else {
                state.queue.append((key, notification))
            }
            return (nil, Self.startDelivering(&state))
        }
        waiter?.resume(returning: notification)
        if let delivery { deliverQueued(delivery) }
    }

    /// Sends every notification, those waiting now and those to come, through `delivery`; when
    /// the mailbox closes, calls its `end`. A send that fails closes the mailbox.
    package func deliver(_ delivery: Delivery) {
        let (start, closed) = state.withLock { state -> (Delivery?, Bool) in
            state.delivery = delivery
            return (Self.startDelivering(&state), state.closed)
        }
        if closed {
            Task { await delivery.end() }
        } else if let start {
            deliverQueued(start)
        }
    }

    /// The delivery to start a sending task with, if there is one, something waits, and no task
    /// sends yet (the caller holds the lock and starts it).
    private static func startDelivering(_ state: inout State) -> Delivery? {
        guard let delivery = state.delivery, !state.delivering, !state.queue.isEmpty else { return nil }
        state.delivering = true
        return delivery
    }

    /// A task that sends what waits, in order, and ends when nothing does.
    private func deliverQueued(_ delivery: Delivery) {
        Task {
            while let next = state.withLock({ state -> String? in
                guard !state.closed, !state.queue.isEmpty else {
                    state.delivering = false
                    return nil
                }
                return state.queue.removeFirst().notification
            }) {
                do {
                    try await delivery.send(next)
                } catch {
                    state.withLock { $0.delivering = false }
                    close()
                    return
                }
            }
        }
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

    /// Ends the mailbox: a waiting `next()` returns nil, and a delivery's `end` is called.
    func close() {
        let (waiter, delivery) = state.withLock { state -> (CheckedContinuation<String?, Never>?, Delivery?) in
            guard !state.closed else { return (nil, nil) }
            state.closed = true
            defer { state.waiter = nil }
            return (state.waiter, state.delivery)
        }
        waiter?.resume(returning: nil)
        if let delivery { Task { await delivery.end() } }
    }
}
