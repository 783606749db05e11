import Foundation
import Logging
import NIOCore
import NIOPosix
import PostgresNIO
import StratusServer
import Synchronization

/// ``InstanceBus`` over PostgreSQL's `LISTEN`/`NOTIFY` on the channel `stratus_bus`.
///
/// A notification carries the sending instance's ID (so an instance skips its own) and the
/// message as JSON. PostgreSQL refuses payloads of 8,000 bytes or more, so a larger message (a
/// commit of many records) is stored in `bus_messages` and the notification carries its row's
/// ID; receivers read it from there. Rows older than a minute go when the next is stored.
package final class PostgresBus: InstanceBus {
    static let channel = "stratus_bus"
    /// Payloads up to this many bytes travel in the notification itself.
    static let maxInlineBytes = 7_000

    private let client: PostgresClient
    /// Listening holds a connection for good: one of its own, not the pool's.
    private let address: PostgresAddress
    private let logger: Logger
    /// This instance's ID, random per process.
    let instance = UUID().uuidString

    private let clock: ServerClock
    /// The connection ``listen(_:)`` listens on, which cancelling closes.
    private let listening = Mutex<PostgresConnection?>(nil)

    init(client: PostgresClient, address: PostgresAddress, clock: ServerClock, logger: Logger) {
        self.client = client
        self.clock = clock
        self.address = address
        self.logger = logger
    }

    private struct Envelope: Codable {
        /// The sending instance.
        var from: String
        var message: InstanceMessage?
        /// The `bus_messages` row holding a message too large for a notification.
        var stored: Int64?
    }

    package func broadcast(_ message: InstanceMessage) async {
        assert(!PostgresStorage.holdsConnection, "a broadcast from inside a transaction: with the pool full, it would wait forever")
        do {
            var payload = String(decoding: try JSONEncoder().encode(Envelope(from: instance, message: message)), as: UTF8.self)
            try await client.withConnection { connection in
                if payload.utf8.count > Self.maxInlineBytes {
                    let now = clock.milliseconds
                    try await connection.query("DELETE FROM bus_messages WHERE created_at < \(now - 60_000)", logger: logger)
                    let id = try await connection.query("""
                        INSERT INTO bus_messages (body, created_at) VALUES (\(payload), \(now)) RETURNING id
                        """, logger: logger).decode(Int64.self).first { _ in true }
                    payload = String(decoding: try JSONEncoder().encode(Envelope(from: instance, stored: id)), as: UTF8.self)
                }
                try await connection.query("SELECT pg_notify(\(Self.channel), \(payload))", logger: logger)
            }
        } catch {
            logger.warning("could not tell the other instances of an event: \(String(reflecting: error))")
        }
    }

    package func listen(_ receive: @escaping @Sendable (InstanceMessage) async -> Void) async throws {
        // A notification sequence ends only with its connection: cancelling closes it.
        while !Task.isCancelled {
            do {
                try await withTaskCancellationHandler {
                    let connection = try await PostgresConnection.connect(
                        on: MultiThreadedEventLoopGroup.singleton.next(), configuration: try address.connection(), id: 0, logger: logger).get()
                    self.listening.withLock { $0 = connection }
                    do {
                        if !Task.isCancelled {
                            try await connection.listen(on: Self.channel) { notifications in
                                for try await notification in notifications {
                                    guard let message = try await self.message(in: notification.payload) else { continue }
                                    await receive(message)
                                }
                            }
                        }
                    } catch {
                        try? await connection.close()
                        throw error
                    }
                    try? await connection.close()
                } onCancel: {
                    let closing: EventLoopFuture<Void>? = self.listening.withLock { $0 }?.close()
                    _ = closing
                }
            } catch where !Task.isCancelled {
                // The connection was lost: listen again on a new one. Notifications sent
                // meanwhile are lost, as hints may be.
                logger.warning("listening to the other instances failed; again in 1 s: \(String(reflecting: error))")
                try? await Task.sleep(for: .seconds(1))
            }
        }
    }

    /// The message a notification carries, or nil when it is this instance's own.
    private func message(in payload: String) async throws -> InstanceMessage? {
        let envelope = try JSONDecoder().decode(Envelope.self, from: Data(payload.utf8))
        guard envelope.from != instance else { return nil }
        if let message = envelope.message { return message }
        guard let id = envelope.stored,
              let body = try await client.query("SELECT body FROM bus_messages WHERE id = \(id)", logger: logger)
                .decode(String.self).first(where: { _ in true }) else { return nil }
        return try JSONDecoder().decode(Envelope.self, from: Data(body.utf8)).message
    }
}
