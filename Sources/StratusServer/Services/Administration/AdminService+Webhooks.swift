import Foundation
import StratusCore

/// Where `webhook replay` starts.
package enum WebhookReplayStart: Sendable, Equatable {
    /// At an event (its `webhook-id`), which is delivered again.
    case event(String)
    /// At the first event logged at or after a time (ms).
    case time(Int64)
}

/// What `webhook replay` did: where the endpoint's cursor now is, and whether events the replay
/// asked for are gone from the log (older than its retention and the webhook backlog).
package struct WebhookReplay: Sendable, Equatable {
    package var endpoint: StoredWebhookEndpoint
    /// The first position the log still holds, when the replay asked for earlier ones.
    package var gapBefore: Int64?
}

/// Webhook endpoints (``WebhookCourier``, docs/webhooks.md), as `stratus webhook` and the
/// console manage them. Every change is audited, and every instance uses it at once: couriers
/// read endpoints from the store each round, and writes learn through ``HistoryRetention``
/// whether the container's changes must be logged.
extension AdminService {
    /// The most endpoints a container has.
    static let maxWebhookEndpoints = 32
    /// The most names an endpoint's filter lists of each kind.
    static let maxWebhookFilterNames = 64
    /// How long a rotated-out secret still signs.
    static let previousSecretLifetime: Int64 = 24 * 3600 * 1000

    /// Adds an endpoint that hears the container's changes from now on; returns it and its
    /// secret (`whsec_…`), which is shown once: the store keeps it sealed.
    package func addWebhook(containerID: String, environment: ContainerEnvironment, url text: String,
                            filter: WebhookFilter) async throws -> (endpoint: StoredWebhookEndpoint, secret: String) {
        let url = try webhookPolicy.validated(text)
        guard filter.recordTypes.count <= Self.maxWebhookFilterNames, filter.zones.count <= Self.maxWebhookFilterNames,
              (filter.recordTypes + filter.zones).allSatisfy({ !$0.isEmpty && $0.utf8.count <= 255 }) else {
            throw CloudKitError.badRequest("a webhook filter lists at most \(Self.maxWebhookFilterNames) record types and zones, each 1 to 255 bytes")
        }
        guard try await containers.container(id: containerID) != nil else { throw CloudKitError.notFound("no container '\(containerID)'") }
        let secret = WebhookSignature.newSecret()
        let sealed = try await keys.seal(Array(secret.utf8), for: .container(containerID))
        let now = clock.milliseconds
        let (storage, epoch) = (self.storage, storage.epoch)
        let endpoint = try await storage.write { transaction in
            guard try await transaction.webhookEndpoints(containerID: containerID).count < Self.maxWebhookEndpoints else {
                throw CloudKitError(.limitExceeded, "container '\(containerID)' has \(Self.maxWebhookEndpoints) webhook endpoints, the most it may have")
            }
            let endpoint = StoredWebhookEndpoint(id: "ep_" + SecretGenerator.shortGUID(), containerID: containerID, environment: environment,
                                                 url: url.text, filter: filter, secret: sealed,
                                                 cursor: try await transaction.recordLogPosition(before: nil), epoch: epoch, createdAt: now)
            try await transaction.addWebhookEndpoint(endpoint)
            try await transaction.appendAudit(AuditLog.entry("webhook.add", container: containerID,
                                                             "\(endpoint.id) \(url.text) (\(environment.rawValue))", at: now))
            return endpoint
        }
        await webhookChanged(containerID)
        return (endpoint, secret)
    }

    /// The container's endpoints.
    package func webhooks(containerID: String) async throws -> [StoredWebhookEndpoint] {
        try await storage.read { try await $0.webhookEndpoints(containerID: containerID) }
    }

    /// Removes an endpoint; its events are no longer kept for it.
    package func removeWebhook(id: String, containerID: String) async throws {
        _ = try await changeWebhook(id: id, containerID: containerID, action: "webhook.remove") { transaction, _ in
            _ = try await transaction.removeWebhookEndpoint(id: id)
        }
    }

    /// Enables an endpoint (trying its next event at once: a failing endpoint goes on where it
    /// stopped) or disables it (its events are no longer kept for it).
    package func setWebhookEnabled(_ enabled: Bool, id: String, containerID: String) async throws -> StoredWebhookEndpoint {
        try await changedWebhook(id: id, containerID: containerID, action: enabled ? "webhook.enable" : "webhook.disable") { _, endpoint in
            endpoint.state = enabled ? .enabled : .disabled
            endpoint.attempts = 0
            endpoint.failingSince = nil
            endpoint.nextAttemptAt = 0
        }
    }

    /// Gives an endpoint a new secret, returned once; the old one signs too for 24 hours.
    package func rotateWebhookSecret(id: String, containerID: String) async throws -> String {
        let secret = WebhookSignature.newSecret()
        let sealed = try await keys.seal(Array(secret.utf8), for: .container(containerID))
        let until = clock.milliseconds + Self.previousSecretLifetime
        _ = try await changeWebhook(id: id, containerID: containerID, action: "webhook.rotate-secret") { _, endpoint in
            endpoint.previousSecret = endpoint.secret
            endpoint.previousSecretUntil = until
            endpoint.secret = sealed
        }
        return secret
    }

    /// Delivers an endpoint's events again from `start` on, and enables it. Events the log no
    /// longer holds cannot be; the answer says where what it holds begins.
    package func replayWebhook(id: String, containerID: String, from start: WebhookReplayStart) async throws -> WebhookReplay {
        let epoch = storage.epoch
        let endpoint = try await changedWebhook(id: id, containerID: containerID, action: "webhook.replay") { transaction, endpoint in
            let cursor: Int64
            switch start {
            case .event(let eventID):
                let parts = eventID.split(separator: "_")
                guard parts.count == 3, parts[0] == "evt", let position = Int64(parts[2]), position > 0 else {
                    throw CloudKitError.badRequest("'\(eventID)' is not an event id (evt_EPOCH_POSITION)")
                }
                guard Int64(parts[1]) == epoch else {
                    throw CloudKitError.badRequest("event '\(eventID)' was logged before the store was restored; replay from a time instead")
                }
                cursor = position - 1
            case .time(let time):
                cursor = try await transaction.recordLogPosition(before: time)
            }
            endpoint.cursor = cursor
            endpoint.state = .enabled
            endpoint.attempts = 0
            endpoint.failingSince = nil
            endpoint.nextAttemptAt = 0
        }
        let first = try await storage.read { try await $0.firstRecordLogPosition() }
        return WebhookReplay(endpoint: endpoint, gapBefore: first.flatMap { $0 > endpoint.cursor + 1 ? $0 : nil })
    }

    /// An endpoint's last delivery attempts, newest first.
    package func webhookAttempts(id: String, containerID: String) async throws -> [WebhookAttempt] {
        try await storage.read { transaction in
            guard let endpoint = try await transaction.webhookEndpoint(id: id), endpoint.containerID == containerID else {
                throw CloudKitError.notFound("container '\(containerID)' has no webhook endpoint '\(id)'")
            }
            return try await transaction.webhookAttempts(endpointID: id, limit: WebhookCourier.keptAttempts)
        }
    }

    /// ``changeWebhook(id:containerID:action:_:)`` of a change that keeps the endpoint.
    private func changedWebhook(id: String, containerID: String, action: String,
                                _ change: @escaping @Sendable (any StorageTransaction, inout StoredWebhookEndpoint) async throws -> Void)
        async throws -> StoredWebhookEndpoint {
        guard let endpoint = try await changeWebhook(id: id, containerID: containerID, action: action, change) else {
            throw CloudKitError.notFound("container '\(containerID)' has no webhook endpoint '\(id)'")
        }
        return endpoint
    }

    /// Changes an endpoint of the container in a transaction that audits it; returns it as
    /// changed (nil once removed). A courier delivering to it stops its round (its lease is
    /// released) and the next round reads the change.
    private func changeWebhook(id: String, containerID: String, action: String,
                               _ change: @escaping @Sendable (any StorageTransaction, inout StoredWebhookEndpoint) async throws -> Void)
        async throws -> StoredWebhookEndpoint? {
        let audit = AuditLog.entry(action, container: containerID, id, at: clock.milliseconds)
        let changed = try await storage.write { transaction -> StoredWebhookEndpoint? in
            guard var endpoint = try await transaction.webhookEndpoint(id: id), endpoint.containerID == containerID else {
                throw CloudKitError.notFound("container '\(containerID)' has no webhook endpoint '\(id)'")
            }
            try await transaction.appendAudit(audit)
            let before = endpoint
            try await change(transaction, &endpoint)
            guard try await transaction.webhookEndpoint(id: id) != nil else { return nil }
            if endpoint != before { try await transaction.updateWebhookEndpoint(endpoint) }
            return endpoint
        }
        await webhookChanged(containerID)
        return changed
    }

    /// Tells every instance: writes ask again whether to log the container's changes, and the
    /// courier looks at once.
    private func webhookChanged(_ containerID: String) async {
        await hub.historyRetentionChanged(containerID: containerID)
        webhookBell.ring()
    }
}
