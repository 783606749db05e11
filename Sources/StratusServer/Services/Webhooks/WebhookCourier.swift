import Foundation
import Logging
import NIOSSL
import ServiceLifecycle
import StratusCore
import Synchronization

/// Delivers the record log's events to webhook endpoints: at least once, in commit order per
/// endpoint, signed as Standard Webhooks asks (docs/webhooks.md).
///
/// Each endpoint has a cursor into the log. A round (``deliver(_:)``) leases the endpoint — one
/// instance delivers an endpoint's events at a time; another takes over once the lease lapses —
/// and sends the events after the cursor one by one, moving the cursor past each once the
/// receiver answered 2xx (an event the endpoint's filter passes over moves it too). A failure
/// holds the later events back (order over liveness) and schedules the next try with
/// exponential backoff and jitter, at least the `Retry-After` of a 429 or 503; after
/// ``WebhookConfiguration/giveUpAfter`` the endpoint is marked failing and waits for
/// `webhook replay`. A 410 disables it. A crash between a receiver's 2xx and the cursor's write
/// sends that event again, with the same `webhook-id`.
package final class WebhookCourier: Service, Sendable {
    let storage: any StratusStorage
    let keys: KeyVault
    let clock: ServerClock
    let configuration: WebhookConfiguration
    let policy: WebhookAddressPolicy
    let bell: WebhookBell
    let logger: Logger
    private let tls: TLSConfiguration
    /// This courier's name in the leases it holds: one name for a store no other instance can
    /// share (SQLite), so that a server started again after a crash goes on at once; else one
    /// of its own, and a dead instance's leases lapse (``WebhookConfiguration/lease``).
    let owner: String
    /// The endpoints this courier is delivering to, each with whether it was asked again meanwhile.
    private let busy = Mutex<[String: Bool]>([:])
    /// Each endpoint's connection, kept alive between rounds, with its URL and when its host was resolved.
    private let connections = Mutex<[String: (url: String, connection: WebhookConnection, madeAt: ContinuousClock.Instant)]>([:])

    /// How long a connection's address is used before the host is resolved again.
    static let resolveEvery: Duration = .seconds(60)

    /// The most events read from the log at once.
    static let page = 100
    /// How many attempts `webhook deliveries` keeps per endpoint, and for how long.
    static let keptAttempts = 100
    static let attemptsKeptFor: Int64 = 7 * 24 * 3600 * 1000

    init(storage: any StratusStorage, keys: KeyVault, clock: ServerClock, configuration: WebhookConfiguration, bell: WebhookBell,
         logger: Logger) throws {
        self.storage = storage
        self.keys = keys
        self.clock = clock
        self.configuration = configuration
        self.bell = bell
        self.logger = logger
        owner = storage.bus == nil ? "courier" : "courier-" + SecretGenerator.shortGUID()
        policy = WebhookAddressPolicy(allowsPrivate: configuration.allowsPrivateAddresses, resolver: configuration.resolver ?? SystemWebhookResolver())
        var tls = TLSConfiguration.makeClientConfiguration()
        if let caFile = configuration.caFile { tls.additionalTrustRoots = [.file(caFile)] }
        self.tls = tls
    }

    package func run() async throws {
        let (bell, interval) = (self.bell, configuration.pollInterval)
        await cancelWhenGracefulShutdown { [self] in
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    while !Task.isCancelled {
                        bell.ring()
                        try? await Task.sleep(for: interval)
                    }
                }
                for await _ in bell.rings {
                    await deliverDue(in: &group)
                }
                group.cancelAll()
            }
            await closeConnections(except: [])
            // Another instance takes over at once rather than when the leases lapse.
            let owner = self.owner
            do {
                try await storage.write { try await $0.releaseWebhookLeases(owner: owner) }
            } catch {
                logger.warning("webhook leases could not be released: \(error)")
            }
        }
    }

    /// Starts a round for each enabled endpoint due now that this courier is not already
    /// delivering to (one already busy goes round again when it finishes).
    private func deliverDue(in group: inout TaskGroup<Void>) async {
        let endpoints: [StoredWebhookEndpoint]
        do {
            endpoints = try await storage.read { try await $0.webhookEndpoints(containerID: nil) }
        } catch {
            logger.warning("webhook endpoints could not be read: \(error)")
            return
        }
        let now = clock.milliseconds
        let enabled = Set(endpoints.filter { $0.state == .enabled }.map(\.id))
        bell.setListening(!enabled.isEmpty)
        await closeConnections(except: enabled)
        for endpoint in endpoints where endpoint.state == .enabled && endpoint.nextAttemptAt <= now {
            let starts = busy.withLock { busy in
                if busy[endpoint.id] != nil { busy[endpoint.id] = true; return false }
                busy[endpoint.id] = false
                return true
            }
            guard starts else { continue }
            group.addTask { [self] in
                while true {
                    await deliver(endpoint.id)
                    let again = busy.withLock { busy in
                        if busy[endpoint.id] == true { busy[endpoint.id] = false; return true }
                        busy[endpoint.id] = nil
                        return false
                    }
                    if !again { return }
                }
            }
        }
    }

    /// One round of deliveries to an endpoint, if this courier can lease it: every event after
    /// its cursor, until the log is through or a delivery fails.
    func deliver(_ endpointID: String) async {
        do {
            var round = try await WebhookRound(courier: self, endpointID: endpointID)
            try await round.run()
        } catch WebhookRound.Stop.notHeld {
            return
        } catch {
            logger.warning("webhook endpoint \(endpointID): \(error)")
        }
    }

    /// Posts a delivery to the endpoint over its kept connection (made first when there is none,
    /// or its host was resolved more than ``resolveEvery`` ago). A connection that failed is closed.
    func post(_ body: [UInt8], headers: [(String, String)], to endpoint: StoredWebhookEndpoint) async -> WebhookAnswer {
        let kept = connections.withLock { $0[endpoint.id] }
        var connection = kept.flatMap { $0.url == endpoint.url && ContinuousClock.now - $0.madeAt < Self.resolveEvery ? $0.connection : nil }
        if connection == nil {
            if let kept { await kept.connection.close() }
            do {
                guard let url = WebhookURL(endpoint.url) else { throw WebhookDeliveryError.unreachable("'\(endpoint.url)' is not a URL") }
                let made = try await WebhookConnection(to: url, policy: policy, tls: tls, timeout: configuration.timeout)
                connections.withLock { $0[endpoint.id] = (endpoint.url, made, .now) }
                connection = made
            } catch {
                connections.withLock { $0[endpoint.id] = nil }
                return WebhookAnswer(status: 0, text: "\(error)", latency: .zero)
            }
        }
        let answer = await connection!.post(body, headers: headers)
        if answer.status == 0 {
            connections.withLock { $0[endpoint.id] = nil }
            await connection!.close()
        }
        return answer
    }

    /// Closes the connections of endpoints no longer enabled (or removed).
    private func closeConnections(except enabled: Set<String>) async {
        let stale = connections.withLock { connections in
            let stale = connections.filter { !enabled.contains($0.key) }
            for id in stale.keys { connections[id] = nil }
            return stale.values.map(\.connection)
        }
        for connection in stale { await connection.close() }
    }

    /// Moves endpoints behind the backlog (``WebhookConfiguration/backlog``) past the events
    /// logged before it, which the log then no longer keeps for them; returns how many moved.
    func passBacklog() async throws -> Int {
        let bound = clock.milliseconds - configuration.backlog.milliseconds
        return try await storage.write { transaction in
            try await transaction.passWebhookBacklog(before: try await transaction.recordLogPosition(before: bound))
        }
    }

    /// The wait before the next try after the `attempts`th failure: exponential, with ±20%
    /// jitter, at least what the receiver asked for.
    func retryWait(after attempts: Int, asked: Duration?) -> Duration {
        let base = RetrySchedule.wait(after: attempts, first: configuration.firstRetryWait, longest: configuration.longestRetryWait)
        let jittered = base * Double.random(in: 0.8...1.2)
        return max(jittered, asked ?? .zero)
    }

}
