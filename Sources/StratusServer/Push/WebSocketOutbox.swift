import NIOCore
import NIOWebSocket
import Synchronization

/// The notification frames on their way to the WebSockets of one event loop, written by that
/// loop in turns of ``turn`` frames.
///
/// A change for a thousand connected devices is a thousand writes. Handed to the loop one task
/// per connection, they would all run before the loop next reads its sockets, so a request that
/// arrives meanwhile (the saving device's next one, or a notified device's fetch) would wait for
/// the whole fan-out; in turns, the loop reads between them. Each frame wraps the JSON the hub
/// encoded once for every device, without copying it.
final class WebSocketOutbox: Sendable {
    private struct Write {
        var channel: any Channel
        var frame: WebSocketFrame
        var completion: @Sendable (Bool) -> Void
    }

    private struct Pending {
        var writes = CircularBuffer<Write>()
        /// Whether a turn is scheduled on the loop (it schedules the next while writes wait).
        var scheduled = false
    }

    /// Frames written in one turn of the event loop.
    static let turn = 32

    let eventLoop: any EventLoop
    private let pending = Mutex(Pending())

    init(eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
    }

    /// Writes `json` as a text frame on `channel` (of this outbox's loop), then calls
    /// `completion`: true once the frame is on its way, false if the channel could not take it.
    /// A channel whose buffer is full (its reader is slow) completes once the frame left it, so
    /// a device holds at most one notification here; the rest wait in its ``Mailbox``.
    func write(_ json: ByteBuffer, on channel: any Channel, completion: @escaping @Sendable (Bool) -> Void) {
        let write = Write(channel: channel, frame: WebSocketFrame(fin: true, opcode: .text, data: json), completion: completion)
        let schedule = pending.withLock { pending in
            pending.writes.append(write)
            defer { pending.scheduled = true }
            return !pending.scheduled
        }
        if schedule { eventLoop.execute { self.writeTurn() } }
    }

    private func writeTurn() {
        let (turn, more) = pending.withLock { pending -> ([Write], Bool) in
            let count = min(Self.turn, pending.writes.count)
            let turn = (0..<count).map { _ in pending.writes.removeFirst() }
            pending.scheduled = !pending.writes.isEmpty
            return (turn, pending.scheduled)
        }
        for write in turn {
            if write.channel.isWritable && write.channel.isActive {
                write.channel.writeAndFlush(write.frame, promise: nil)
                write.completion(true)
            } else {
                let promise = eventLoop.makePromise(of: Void.self)
                promise.futureResult.whenComplete { result in write.completion((try? result.get()) != nil) }
                write.channel.writeAndFlush(write.frame, promise: promise)
            }
        }
        if more { eventLoop.execute { self.writeTurn() } }
    }
}

/// One ``WebSocketOutbox`` per event loop, made when a loop's first WebSocket opens.
final class WebSocketOutboxes: Sendable {
    private let outboxes = Mutex<[ObjectIdentifier: WebSocketOutbox]>([:])

    func outbox(for eventLoop: any EventLoop) -> WebSocketOutbox {
        outboxes.withLock { outboxes in
            let key = ObjectIdentifier(eventLoop)
            if let outbox = outboxes[key] { return outbox }
            let outbox = WebSocketOutbox(eventLoop: eventLoop)
            outboxes[key] = outbox
            return outbox
        }
    }
}
