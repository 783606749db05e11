import Foundation
import StratusCore

/// Delivers notifications to devices: over a WebSocket that stays open (each notification is a
/// text frame with the CloudKit payload), or CloudKit JS's way, by long-polling a `webcourierURL`
/// that `tokens/create` hands out (each GET answers with the next notification, or empty after a
/// while).
package struct PushService: Sendable {
    let auth: AuthService
    let hub: NotificationHub
    let courierWait: Duration
    let couriers: CourierRegistry

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

    /// Serves one WebSocket connection until it closes or its session ends (sign-out, or expiry
    /// found every ``ServerConfiguration/expiredSessionSweepInterval``, closes the mailbox):
    /// every notification for the listener, starting with a "fetch to catch up" one.
    package func serve(_ connection: Connection, send: @Sendable (String) async throws -> Void,
                       untilClosed closed: @escaping @Sendable () async -> Void) async throws {
        let mailbox = try await hub.connect(connection.listener, session: connection.session)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                await closed()
                mailbox.close()
            }
            while let json = await mailbox.next() {
                try await send(json)
            }
            group.cancelAll()
        }
        await hub.disconnect(connection.listener, mailbox)
    }

    /// `tokens/create`: a courier for the signed-in user, and its long-poll URL.
    package func createToken(_ request: TokenCreateRequest, _ access: DatabaseAccess) async throws -> TokenCreateResponse {
        let user = try access.requireUser()
        guard let session = access.session else { throw AuthService.authenticationRequired }
        let listener = NotificationHub.Listener(containerID: access.containerID, environment: access.environment, user: user)
        let token = SecretGenerator.receipt()
        try await couriers.add(token: token, listener: listener, session: session, hub: hub)
        return TokenCreateResponse(apnsEnvironment: request.apnsEnvironment ?? access.environment.rawValue, apnsToken: token,
                                   webcourierURL: access.origin + PushRoutes.courierPath + token)
    }

    /// One long-poll: the next notification's JSON, or nil when none came within the wait.
    package func poll(courierToken: String) async throws -> String? {
        guard let mailbox = await couriers.mailbox(token: courierToken, hub: hub) else {
            throw CloudKitError.notFound("unknown or expired webcourierURL; create a new one with tokens/create")
        }
        if let ready = mailbox.poll() { return ready }
        return await withTaskGroup(of: String?.self) { group in
            group.addTask { await mailbox.next() }
            group.addTask {
                try? await Task.sleep(for: courierWait)
                return nil
            }
            var result = await group.next() ?? nil
            group.cancelAll()
            mailbox.wake()
            // A notification that arrived as the wait ended is not lost.
            for await other in group where result == nil { result = other }
            return result
        }
    }
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

    init(maxPerUser: Int) {
        self.maxPerUser = maxPerUser
    }

    func add(token: String, listener: NotificationHub.Listener, session: StoredSession, hub: NotificationHub) async throws {
        await expire(hub: hub)
        let own = couriers.filter { $0.value.listener == listener }.sorted { $0.value.lastSeen < $1.value.lastSeen }
        for (oldToken, oldest) in own.prefix(max(0, own.count - maxPerUser + 1)) {
            couriers[oldToken] = nil
            await hub.disconnect(oldest.listener, oldest.mailbox)
        }
        let mailbox = try await hub.connect(listener, session: session)
        couriers[token] = Courier(mailbox: mailbox, listener: listener, expiresAt: session.expiresAt, lastSeen: .now)
    }

    func mailbox(token: String, hub: NotificationHub) async -> Mailbox? {
        await expire(hub: hub)
        couriers[token]?.lastSeen = .now
        return couriers[token]?.mailbox
    }

    private func expire(hub: NotificationHub) async {
        let now = ContinuousClock.now
        let time = AuthService.now()
        for (token, courier) in couriers where now - courier.lastSeen > idleLimit || courier.expiresAt <= time || courier.mailbox.isClosed {
            couriers[token] = nil
            await hub.disconnect(courier.listener, courier.mailbox)
        }
    }
}
