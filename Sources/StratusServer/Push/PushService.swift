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
    let couriers = CourierRegistry()

    /// Who a push connection is for, from the container's API token and the user's web auth token.
    package func listener(containerID: String, environment: ContainerEnvironment, apiToken: String?,
                          webAuthToken: String?) async throws -> NotificationHub.Listener {
        _ = try await auth.checkAPIToken(apiToken, containerID: containerID)
        guard let webAuthToken else { throw AuthService.authenticationRequired }
        let user = try await auth.user(webAuthToken: webAuthToken, containerID: containerID, environment: environment)
        return NotificationHub.Listener(containerID: containerID, environment: environment, user: user)
    }

    /// Serves one WebSocket connection until it closes: every notification for the listener,
    /// starting with a "fetch to catch up" one.
    package func serve(_ listener: NotificationHub.Listener, send: @Sendable (String) async throws -> Void,
                       untilClosed closed: @escaping @Sendable () async -> Void) async throws {
        let mailbox = await hub.connect(listener)
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
        await hub.disconnect(listener, mailbox)
    }

    /// `tokens/create`: a courier for the signed-in user, and its long-poll URL.
    package func createToken(_ request: TokenCreateRequest, _ access: DatabaseAccess) async throws -> TokenCreateResponse {
        let user = try access.requireUser()
        let listener = NotificationHub.Listener(containerID: access.containerID, environment: access.environment, user: user)
        let token = SecretGenerator.receipt()
        await couriers.add(token: token, mailbox: await hub.connect(listener), listener: listener, hub: hub)
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

/// The long-poll couriers: a mailbox per token, forgotten after ten idle minutes.
actor CourierRegistry {
    private var couriers: [String: (mailbox: Mailbox, listener: NotificationHub.Listener, lastSeen: ContinuousClock.Instant)] = [:]
    private let idleLimit: Duration = .seconds(600)

    func add(token: String, mailbox: Mailbox, listener: NotificationHub.Listener, hub: NotificationHub) async {
        await expire(hub: hub)
        couriers[token] = (mailbox, listener, .now)
    }

    func mailbox(token: String, hub: NotificationHub) async -> Mailbox? {
        await expire(hub: hub)
        couriers[token]?.lastSeen = .now
        return couriers[token]?.mailbox
    }

    private func expire(hub: NotificationHub) async {
        let now = ContinuousClock.now
        for (token, courier) in couriers where now - courier.lastSeen > idleLimit {
            couriers[token] = nil
            await hub.disconnect(courier.listener, courier.mailbox)
        }
    }
}
