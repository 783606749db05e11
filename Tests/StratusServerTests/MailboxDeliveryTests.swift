import NIOCore
import NIOEmbedded
import NIOWebSocket
import Synchronization
import Testing
import StratusCore
@testable import StratusServer

/// How a WebSocket's mailbox hands notifications to its connection: one at a time, the next once
/// the last has left, the waiting ones coalesced and bounded meanwhile; a connection that cannot
/// take a frame closes its mailbox.
@Suite struct MailboxDeliveryTests {
    /// A delivery that records what it is handed and completes only when the test says so.
    final class HeldDelivery: Sendable {
        private let state = Mutex<(sent: [String], completions: [@Sendable (Bool) -> Void], ended: Bool)>(([], [], false))

        var sent: [String] { state.withLock { $0.sent } }
        var inFlight: Int { state.withLock { $0.completions.count } }
        var ended: Bool { state.withLock { $0.ended } }

        var delivery: Mailbox.Delivery {
            Mailbox.Delivery(send: { json, completion in
                self.state.withLock { state in
                    state.sent.append(String(buffer: json))
                    state.completions.append(completion)
                }
            }, end: { self.state.withLock { $0.ended = true } })
        }

        /// Completes the oldest send.
        func complete(_ sent: Bool) {
            let completion = state.withLock { $0.completions.removeFirst() }
            completion(sent)
        }
    }

    static func mailbox(capacity: Int = 3) -> Mailbox {
        Mailbox(capacity: capacity, overflow: { ByteBuffer(string: "overflow") },
                session: StoredSession(tokenHash: "h", userRecordName: "_u", containerID: "c", environment: .development, expiresAt: .max))
    }

    @Test func oneNotificationIsOnItsWayAtATimeAndWaitingOnesCoalesce() {
        let mailbox = Self.mailbox()
        let device = HeldDelivery()
        mailbox.post(ByteBuffer(string: "first"), key: "zone")
        mailbox.deliver(device.delivery)
        #expect(device.sent == ["first"])
        // While "first" is on its way, two notifications about the zone and one about a query wait;
        // the later zone one replaces the earlier.
        mailbox.post(ByteBuffer(string: "zone 2"), key: "zone")
        mailbox.post(ByteBuffer(string: "query"), key: "query")
        mailbox.post(ByteBuffer(string: "zone 3"), key: "zone")
        #expect(device.sent == ["first"])
        #expect(device.inFlight == 1)
        device.complete(true)
        #expect(device.sent == ["first", "zone 3"])
        device.complete(true)
        #expect(device.sent == ["first", "zone 3", "query"])
        device.complete(true)
        #expect(device.inFlight == 0)
        // Nothing waits: the next notification goes out at once.
        mailbox.post(ByteBuffer(string: "later"), key: "zone")
        #expect(device.sent.last == "later")
    }

    @Test func aDeviceThatDoesNotTakeItsNotificationsHoldsAtMostCapacity() {
        let mailbox = Self.mailbox(capacity: 3)
        let device = HeldDelivery()
        mailbox.deliver(device.delivery)
        for index in 0..<100 { mailbox.post(ByteBuffer(string: "n\(index)"), key: "k\(index)") }
        #expect(device.sent == ["n0"])
        device.complete(true)
        // Past capacity the waiting ones became one "fetch to catch up", and what came after it.
        var delivered = 1
        while device.inFlight > 0 {
            device.complete(true)
            delivered += 1
        }
        #expect(device.sent.contains("overflow"))
        #expect(delivered <= 1 + 3, "\(device.sent)")
        #expect(device.sent.last == "n99")
    }

    @Test func aSendThatFailsClosesTheMailboxAndEndsTheConnection() async throws {
        let mailbox = Self.mailbox()
        let device = HeldDelivery()
        mailbox.deliver(device.delivery)
        mailbox.post(ByteBuffer(string: "one"), key: "a")
        mailbox.post(ByteBuffer(string: "two"), key: "b")
        device.complete(false)
        #expect(mailbox.isClosed)
        #expect(device.sent == ["one"])
        for _ in 0..<100 where !device.ended { try await Task.sleep(for: .milliseconds(10)) }
        #expect(device.ended)
    }

    /// The outbox writes text frames around the JSON as it is, completes once a frame is on its
    /// way (when the channel's buffer is full, once it left it), and reports a closed channel.
    @Test func theOutboxWritesTextFramesAndReportsAChannelThatCannotTakeThem() throws {
        let loop = EmbeddedEventLoop()
        let channel = EmbeddedChannel(handler: WebSocketFrameEncoder(), loop: loop)
        let outbox = WebSocketOutbox(eventLoop: loop)
        let results = Mutex<[Bool]>([])
        outbox.write(ByteBuffer(string: #"{"ck":1}"#), on: channel) { sent in results.withLock { $0.append(sent) } }
        loop.run()
        var written = ByteBuffer()
        while var part = try channel.readOutbound(as: ByteBuffer.self) { written.writeBuffer(&part) }
        #expect(Array(written.readableBytesView) == [0x81, 8] + Array(#"{"ck":1}"#.utf8))
        #expect(results.withLock { $0 } == [true])

        channel.isWritable = false
        outbox.write(ByteBuffer(string: "two"), on: channel) { sent in results.withLock { $0.append(sent) } }
        loop.run()
        #expect(results.withLock { $0 } == [true, true])

        channel.isWritable = true
        _ = try channel.finish()
        outbox.write(ByteBuffer(string: "three"), on: channel) { sent in results.withLock { $0.append(sent) } }
        loop.run()
        #expect(results.withLock { $0 } == [true, true, false])
    }
}
