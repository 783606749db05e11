import Crypto
import Foundation
import NIOCore
import StratusCore

/// Delivers notifications to devices: over a WebSocket that stays open (each notification is a
/// text frame with the CloudKit payload), or CloudKit JS's way, by long-polling a `webcourierURL`
/// that `tokens/create` hands out (each GET answers with the next notification, or empty after a
/// while).
///
/// A courier's token is sealed (a ``SealedToken``) with its listener and session, so a poll that
/// reaches another instance on the same store opens the courier there: its first answer is then
/// the "fetch to catch up" notification, and no change is missed, since devices fetch by token.
package struct PushService: Sendable {
    let auth: AuthService
    let storage: any StratusStorage
    let hub: NotificationHub
    let courierWait: Duration
    let couriers: CourierRegistry
    /// Seals and opens courier tokens (derived from the server's secret).
    let courierKey: SymmetricKey

    /// A device's push connection: who it is for, and the session it was opened with.
    package struct Connection: Sendable {
        package var listener: NotificationHub.Listener
        package var session: StoredSession
    }

    /// Who a push connection is for, from the container's API token and the user's web auth token.
    package func connection(containerID: String, environment: ContainerEnvironment, apiToken: String?,
                            webAuthToken: String?) async throws -> Connection {
        guard let session = try await auth.authenticate(apiToken: apiToken, webAuthToken: webAuthToken, containerID: containerID,
                                                         environment: environment) else {
            throw AuthService.authenticationRequired
        }
        return Connection(listener: NotificationHub.Listener(containerID: containerID, environment: environment, user: session.userRecordName),
                          session: session)
    }

    /// Serves one WebSocket connection until it closes: every notification for the listener,
    /// starting with a "fetch to catch up" one, goes out through `delivery`. The caller's task reads
    /// the device's side in `untilClosed`; when the session ends (sign-out, or expiry found every
    /// ``ServerConfiguration/expiredSessionSweepInterval``, closes the mailbox), the delivery's
    /// `end` closes the connection, which ends that reading.
    package func serve(_ connection: Connection, through delivery: Mailbox.Delivery, untilClosed closed: () async -> Void) async throws {
        let mailbox = try await hub.connect(connection.listener, session: connection.session)
        mailbox.deliver(delivery)
        await closed()
        await hub.disconnect(connection.listener, mailbox)
    }

    /// `tokens/create`: a courier for the signed-in user, and its long-poll URL.
    package func createToken(_ request: TokenCreateRequest, _ access: DatabaseAccess) async throws -> TokenCreateResponse {
        let user = try access.requireUser()
        guard let session = access.session else { throw AuthService.authenticationRequired }
        let listener = NotificationHub.Listener(containerID: access.containerID, environment: access.environment, user: user)
        let ticket = CourierTicket(listener: listener, sessionHash: session.tokenHash, nonce: SecretGenerator.receipt())
        let token = SealedToken.seal(ticket, with: courierKey)
        _ = try await couriers.add(token: token, listener: listener, session: session, hub: hub)
        return TokenCreateResponse(apnsEnvironment: request.apnsEnvironment ?? access.environment.rawValue, apnsToken: token,
                                   webcourierURL: access.origin + PushRoutes.courierPath + token)
    }

    /// One long-poll: the next notification's JSON, or nil when none came within the wait, or when
    /// a newer poll of the same courier came (it answers this one at once and waits instead).
    package func poll(courierToken: String) async throws -> ByteBuffer? {
        let mailbox = try await courier(token: courierToken)
        if let ready = mailbox.poll() { return ready }
        let waiter = mailbox.makeWaiter()
        return await withTaskGroup(of: ByteBuffer?.self) { group in
            group.addTask { await mailbox.next(as: waiter) }
            group.addTask {
                try? await Task.sleep(for: courierWait)
                return nil
            }
            var result = await group.next() ?? nil
            group.cancelAll()
            mailbox.wake(waiter)
            // A notification that arrived as the wait ended is not lost.
            for await other in group where result == nil { result = other }
            return result
        }
    }

    /// The courier's mailbox on this instance, opened again from its token when the courier was
    /// made on another instance (or before a restart) and its session still holds.
    private func courier(token: String) async throws -> Mailbox {
        if let mailbox = await couriers.mailbox(token: token, hub: hub) { return mailbox }
        guard let ticket = SealedToken.open(CourierTicket.self, from: token, with: courierKey),
              let session = try await storage.read({ try await $0.session(tokenHash: ticket.sessionHash) }),
              session.userRecordName == ticket.listener.user, session.containerID == ticket.listener.containerID,
              session.environment == ticket.listener.environment, session.expiresAt > couriers.clock.milliseconds else {
            throw CloudKitError.notFound("unknown or expired webcourierURL; create a new one with tokens/create")
        }
        return try await couriers.add(token: token, listener: ticket.listener, session: session, hub: hub)
    }
}

/// What a courier token carries, sealed: whom the courier is for and the session it was made
/// with.
struct CourierTicket: Codable {
    var listener: NotificationHub.Listener
    var sessionHash: String
    /// Random, so that every `tokens/create` makes a courier of its own.
    var nonce: String
}

/// The long-poll couriers: a mailbox per token, forgotten after ten idle minutes, when its
/// session ends or expires, or when its user opens more than `maxPerUser` (the oldest goes).
actor CourierRegistry {
    private struct Courier {
        var mailbox: Mailbox
        var listener: NotificationHub.Listener
        var expiresAt: Int64
        var lastSeen: ContinuousClock.Instant
    }

    private var couriers: [String: Courier] = [:]
    private let idleLimit: Duration = .seconds(600)
    let maxPerUser: Int
    /// What the sessions behind couriers expire by.
    nonisolated let clock: ServerClock

    init(maxPerUser: Int, clock: ServerClock) {
        self.maxPerUser = maxPerUser
        self.clock = clock
    }

    /// Opens a courier for `token` (or finds the one a concurrent poll just opened).
    func add(token: String, listener: NotificationHub.Listener, session: StoredSession, hub: NotificationHub) async throws -> Mailbox {
        await expire(hub: hub)
        let own = couriers.filter { $0.value.listener == listener }.sorted { $0.value.lastSeen < $1.value.lastSeen }
        for (oldToken, oldest) in own.prefix(max(0, own.count - maxPerUser + 1)) {
            couriers[oldToken] = nil
            await hub.disconnect(oldest.listener, oldest.mailbox)
        }
        let mailbox = try await hub.connect(listener, session: session)
        if let opened = couriers[token] {
            await hub.disconnect(listener, mailbox)
            return opened.mailbox
        }
        couriers[token] = Courier(mailbox: mailbox, listener: listener, expiresAt: session.expiresAt, lastSeen: .now)
        return mailbox
    }

    func mailbox(token: String, hub: NotificationHub) async -> Mailbox? {
        await expire(hub: hub)
        couriers[token]?.lastSeen = .now
        return couriers[token]?.mailbox
    }

    private func expire(hub: NotificationHub) async {
        let now = ContinuousClock.now
        let time = clock.milliseconds
        for (token, courier) in couriers where now - courier.lastSeen > idleLimit || courier.expiresAt <= time || courier.mailbox.isClosed {
            couriers[token] = nil
            await hub.disconnect(courier.listener, courier.mailbox)
        }
    }
}
