import NIOCore
import StratusCore
import Synchronization

/// The notifications (their JSON, encoded once for every device) waiting for one connected device. A slow device does not make them pile up:
/// a notification replaces a waiting one about the same thing, and past `capacity` the waiting
/// ones are replaced by a single "you may have missed some: fetch" notification.
///
/// A long-poll courier takes notifications with ``next(as:)`` and ``poll()``; at most one poll waits
/// at a time. A WebSocket hands the mailbox a ``Delivery`` instead (``deliver(_:)``): one
/// notification at a time is handed to it, the next once the last has left, so a device that
/// reads slowly holds at most one write and its mailbox; an idle connection holds no task.
package final class Mailbox: Sendable {
    /// How a WebSocket's notifications leave: `send` writes one and calls its completion once it
    /// has left (true) or could not (false, which closes the mailbox); `end` is called once the
    /// mailbox closes (its session ended), to close the connection.
    package struct Delivery: Sendable {
        package var send: @Sendable (_ notification: ByteBuffer, _ completion: @escaping @Sendable (Bool) -> Void) -> Void
        package var end: @Sendable () async -> Void

        package init(send: @escaping @Sendable (ByteBuffer, @escaping @Sendable (Bool) -> Void) -> Void, end: @escaping @Sendable () async -> Void) {
            self.send = send
            self.end = end
        }
    }

    private struct State {
        var queue: [(key: String, notification: ByteBuffer)] = []
        /// The waiting long-poll: its number (``makeWaiter()``) and continuation.
        var waiter: (id: UInt64, continuation: CheckedContinuation<ByteBuffer?, Never>)?
        /// The last number ``makeWaiter()`` handed out.
        var lastWaiter: UInt64 = 0
        /// Long-polls at or below this number get nil at once: woken before they began to wait.
        var wokenUpTo: UInt64 = 0
        var closed = false
        var delivery: Delivery?
        /// Whether a notification is on its way through `delivery` (the next waits for it).
        var delivering = false
    }

    private let state = Mutex(State())
    let capacity: Int
    /// Makes the notification that stands for many (pruned): a database notification with `p`
    /// set. Made when needed, not kept: an idle connection holds only this.
    private let overflow: @Sendable () -> ByteBuffer
    /// The hash of the session the device signed in with, and when that session expires: its
    /// end closes the mailbox.
    let sessionHash: String
    let sessionExpiresAt: Int64

    init(capacity: Int, overflow: @escaping @Sendable () -> ByteBuffer, session: StoredSession) {
        self.capacity = capacity
        self.overflow = overflow
        sessionHash = session.tokenHash
        sessionExpiresAt = session.expiresAt
    }

    /// Queues a notification, or hands it to the device if it is waiting.
    func post(_ notification: ByteBuffer, key: String) {
        let (waiter, delivery) = state.withLock { state -> (CheckedContinuation<ByteBuffer?, Never>?, (Delivery, ByteBuffer)?) in
            guard !state.closed else { return (nil, nil) }
            if let waiter = state.waiter {
                state.waiter = nil
                return (waiter.continuation, nil)
            }
            if let index = state.queue.firstIndex(where: { $0.key == key }) {
                state.queue[index].notification = notification
            } else if state.queue.count >= capacity {
                state.queue = [("overflow", overflow())]
            } else {
                state.queue.append((key, notification))
            }
            return (nil, Self.startDelivering(&state))
        }
        waiter?.resume(returning: notification)
        if let (delivery, first) = delivery { send(first, through: delivery) }
    }

    /// Sends every notification, those waiting now and those to come, through `delivery`; when
    /// the mailbox closes, calls its `end`. A send that fails closes the mailbox.
    package func deliver(_ delivery: Delivery) {
        let (start, closed) = state.withLock { state -> ((Delivery, ByteBuffer)?, Bool) in
            state.delivery = delivery
            return (Self.startDelivering(&state), state.closed)
        }
        if closed {
            Task { await delivery.end() }
        } else if let (delivery, first) = start {
            send(first, through: delivery)
        }
    }

    /// The delivery and the notification to start with, if there is a delivery, something
    /// waits, and nothing is on its way yet (the caller holds the lock and sends it).
    private static func startDelivering(_ state: inout State) -> (Delivery, ByteBuffer)? {
        guard let delivery = state.delivery, !state.delivering, !state.queue.isEmpty else { return nil }
        state.delivering = true
        return (delivery, state.queue.removeFirst().notification)
    }

    /// Sends `notification`, then, once it has left, what waits by then, until nothing does.
    private func send(_ notification: ByteBuffer, through delivery: Delivery) {
        delivery.send(notification) { [self] sent in
            let next = state.withLock { state -> ByteBuffer? in
                guard sent, !state.closed, !state.queue.isEmpty else {
                    state.delivering = false
                    return nil
                }
                return state.queue.removeFirst().notification
            }
            if let next {
                send(next, through: delivery)
            } else if !sent {
                close()
            }
        }
    }

    /// A number for a long-poll, to wait with ``next(as:)`` and end with ``wake(_:)``.
    func makeWaiter() -> UInt64 {
        state.withLock { state in
            state.lastWaiter += 1
            return state.lastWaiter
        }
    }

    /// The next notification, waiting for one; nil once the mailbox is closed, once `waiter` was
    /// woken, or when a newer long-poll takes its place: one poll waits at a time, and each gets an
    /// answer.
    func next(as waiter: UInt64) async -> ByteBuffer? {
        await withCheckedContinuation { continuation in
            let (ready, displaced) = state.withLock { state -> (ByteBuffer??, CheckedContinuation<ByteBuffer?, Never>?) in
                if !state.queue.isEmpty { return (.some(state.queue.removeFirst().notification), nil) }
                if state.closed || waiter <= state.wokenUpTo || (state.waiter?.id ?? 0) > waiter { return (.some(nil), nil) }
                let displaced = state.waiter?.continuation
                state.waiter = (waiter, continuation)
                return (nil, displaced)
            }
            displaced?.resume(returning: nil)
            if let ready { continuation.resume(returning: ready) }
        }
    }

    /// The next notification if one is waiting now, else nil.
    func poll() -> ByteBuffer? {
        state.withLock { $0.queue.isEmpty ? nil : $0.queue.removeFirst().notification }
    }

    /// Makes `waiter`'s ``next(as:)`` return nil without closing the mailbox (its long-poll timed
    /// out), whether it waits already or is about to.
    func wake(_ waiter: UInt64) {
        let continuation = state.withLock { state -> CheckedContinuation<ByteBuffer?, Never>? in
            state.wokenUpTo = max(state.wokenUpTo, waiter)
            guard let waiting = state.waiter, waiting.id <= waiter else { return nil }
            state.waiter = nil
            return waiting.continuation
        }
        continuation?.resume(returning: nil)
    }

    /// Whether the mailbox was closed (its connection ended, or its session).
    var isClosed: Bool { state.withLock { $0.closed } }

    /// Ends the mailbox: a waiting `next()` returns nil, and a delivery's `end` is called.
    func close() {
        let (waiter, delivery) = state.withLock { state -> (CheckedContinuation<ByteBuffer?, Never>?, Delivery?) in
            guard !state.closed else { return (nil, nil) }
            state.closed = true
            defer { state.waiter = nil }
            return (state.waiter?.continuation, state.delivery)
        }
        waiter?.resume(returning: nil)
        if let delivery { Task { await delivery.end() } }
    }
}
