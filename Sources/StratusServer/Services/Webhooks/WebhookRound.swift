import Foundation
import StratusCore

/// One round of a courier's deliveries to an endpoint (``WebhookCourier/deliver(_:)``): it holds
/// the endpoint's lease, sends the events after its cursor in order, and stores its progress with
/// the attempts made since the last store, in one transaction — after a failure, after
/// ``savedEvery`` deliveries, and at the round's end. A crash in between sends the delivered
/// events again (at least once), with the same ids.
struct WebhookRound {
    enum Stop: Error {
        /// Another courier holds the endpoint, it is not enabled any more, or an administrator
        /// changed it (which ends the round: the change is read by the next).
        case notHeld
    }

    /// The most deliveries between two stores of the progress.
    static let savedEvery = 64
    /// How much of an answer an attempt keeps.
    static let keptAnswerCharacters = 512

    private let courier: WebhookCourier
    private let endpoint: StoredWebhookEndpoint
    private let signers: [WebhookSignature]
    private var progress: WebhookProgress
    /// The progress last stored.
    private var saved: WebhookProgress
    private var attempts: [WebhookAttempt] = []
    private var leaseUntil: Int64

    /// Reads the endpoint and, unless this courier's lease on it has more than half its time
    /// left, claims it; throws ``Stop/notHeld`` when another courier holds it or it is not due.
    init(courier: WebhookCourier, endpointID: String) async throws {
        let now = courier.clock.milliseconds
        let lease = courier.configuration.lease.milliseconds
        let owner = courier.owner
        guard var endpoint = try await courier.storage.read({ try await $0.webhookEndpoint(id: endpointID) }),
              endpoint.state == .enabled, endpoint.nextAttemptAt <= now else { throw Stop.notHeld }
        if endpoint.leaseOwner != owner || endpoint.leaseUntil - now < lease / 2 {
            guard let claimed = try await courier.storage.write({ transaction -> StoredWebhookEndpoint? in
                guard try await transaction.claimWebhookEndpoint(id: endpointID, owner: owner, now: now, leaseUntil: now + lease) else { return nil }
                return try await transaction.webhookEndpoint(id: endpointID)
            }), claimed.state == .enabled else { throw Stop.notHeld }
            endpoint = claimed
        }
        let scope = KeyScope.container(endpoint.containerID)
        var secrets = [endpoint.secret]
        if let previous = endpoint.previousSecret, let until = endpoint.previousSecretUntil, until > now { secrets.append(previous) }
        var signers: [WebhookSignature] = []
        for sealed in secrets {
            let secret = String(decoding: try await courier.keys.open(sealed, for: scope), as: UTF8.self)
            guard let signer = WebhookSignature(secret: secret) else { throw CloudKitError(.internalError, "a webhook secret is unreadable") }
            signers.append(signer)
        }
        self.courier = courier
        self.endpoint = endpoint
        self.signers = signers
        leaseUntil = endpoint.leaseUntil
        progress = WebhookProgress(endpointID: endpoint.id, cursor: endpoint.cursor, epoch: endpoint.epoch, state: endpoint.state,
                                   attempts: endpoint.attempts, failingSince: endpoint.failingSince, nextAttemptAt: 0)
        saved = progress
    }

    /// Delivers until the log is through or a delivery fails, then stores the progress.
    mutating func run() async throws {
        let storage = courier.storage
        if progress.epoch != storage.epoch {
            let body = try WebhookPayload.restoredBody(containerID: endpoint.containerID, environment: endpoint.environment,
                                                      epoch: storage.epoch, at: courier.clock.milliseconds)
            progress.epoch = storage.epoch
            guard try await send(WebhookPayload.restoredEventID(epoch: storage.epoch, endpointID: endpoint.id), body, through: progress.cursor,
                                 loggedAt: nil) else { return try await save() }
        }
        let (containerID, environment) = (endpoint.containerID, endpoint.environment)
        while true {
            let cursor = progress.cursor
            let (events, end) = try await storage.read { transaction in
                let events = try await transaction.webhookEvents(containerID: containerID, environment: environment, after: cursor,
                                                                 limit: WebhookCourier.page)
                // A short page is the log's end: what else it holds is other containers'.
                let end = events.count < WebhookCourier.page ? try await transaction.recordLogPosition(before: nil) : nil
                return (events, end)
            }
            for event in events {
                guard endpoint.filter.admits(event) else {
                    progress.cursor = event.position
                    continue
                }
                let body = try await self.body(of: event)
                guard try await send(WebhookPayload.eventID(epoch: storage.epoch, position: event.position), body, through: event.position,
                                     loggedAt: event.stamp.timestamp) else { return try await save() }
            }
            if let end {
                progress.cursor = max(progress.cursor, end)
                ServerMetrics.webhookOldestPending(seconds: 0, endpointID: endpoint.id)
                return try await save()
            }
        }
    }

    /// The event's body; a public record's save carries the version's fields.
    private func body(of event: WebhookLogEvent) async throws -> [UInt8] {
        var fields: [UInt8]?
        if event.database == .public, [.create, .update, .restore].contains(event.change) {
            let version = try await courier.storage.read { transaction -> StoredRecord? in
                if let row = try await transaction.record(zoneRowID: event.zoneRowID, recordName: event.recordName), row.sequence == event.sequence {
                    return row.deleted ? nil : row
                }
                return try await transaction.recordVersion(zoneRowID: event.zoneRowID, recordName: event.recordName,
                                                           changeTag: StoredRecord.derivedChangeTag(of: event.sequence))?.record
            }
            fields = try version.map(WebhookPayload.fields(of:))
        }
        return try WebhookPayload.body(of: event, containerID: endpoint.containerID, environment: endpoint.environment, fields: fields)
    }

    /// Sends one event and notes the outcome; whether it was delivered (then the cursor is at
    /// `position`). A failure is stored at once.
    private mutating func send(_ id: String, _ body: [UInt8], through position: Int64, loggedAt: Int64?) async throws -> Bool {
        let now = courier.clock.milliseconds
        try await renewLease(now: now)
        let timestamp = now / 1000
        let signature = signers.map { $0.signature(id: id, timestamp: timestamp, body: body) }.joined(separator: " ")
        let answer = await courier.post(body, headers: [("webhook-id", id), ("webhook-timestamp", String(timestamp)), ("webhook-signature", signature)],
                                        to: endpoint)
        ServerMetrics.webhookAttempt(delivered: answer.succeeded)
        attempts.append(WebhookAttempt(endpointID: endpoint.id, eventID: id, attemptedAt: now, status: answer.status,
                                       latencyMilliseconds: answer.latency.milliseconds, answer: String(answer.text.prefix(Self.keptAnswerCharacters))))
        if answer.succeeded {
            progress.cursor = position
            progress.attempts = 0
            progress.failingSince = nil
            progress.nextAttemptAt = 0
            if attempts.count >= Self.savedEvery { try await save() }
            return true
        }
        progress.attempts += 1
        let since = progress.failingSince ?? now
        progress.failingSince = since
        if answer.status == 410 {
            progress.state = .disabled
            courier.logger.warning("webhook endpoint \(endpoint.id) answered 410 Gone: disabled")
        } else if now - since >= courier.configuration.giveUpAfter.milliseconds {
            progress.state = .failing
            courier.logger.error("webhook endpoint \(endpoint.id) failed for \(courier.configuration.giveUpAfter): marked failing; its events wait for webhook replay")
        } else {
            let asked = answer.status == 429 || answer.status == 503 ? answer.retryAfter : nil
            progress.nextAttemptAt = now + courier.retryWait(after: progress.attempts, asked: asked).milliseconds
        }
        if let loggedAt { ServerMetrics.webhookOldestPending(seconds: Double(now - loggedAt) / 1000, endpointID: endpoint.id) }
        return false
    }

    /// Stores the progress and the attempts made since the last store, while the lease is held;
    /// stops the round when not.
    private mutating func save() async throws {
        guard progress != saved || !attempts.isEmpty else { return }
        let (progress, attempts, owner, now) = (self.progress, self.attempts, courier.owner, courier.clock.milliseconds)
        let held = try await courier.storage.write { transaction in
            guard try await transaction.recordWebhookProgress(progress, owner: owner) else { return false }
            try await transaction.appendWebhookAttempts(attempts, endpointID: progress.endpointID, keeping: WebhookCourier.keptAttempts,
                                                        since: now - WebhookCourier.attemptsKeptFor)
            return true
        }
        guard held else { throw Stop.notHeld }
        saved = progress
        self.attempts = []
    }

    /// Renews the lease once half of it has passed, storing the progress with it.
    private mutating func renewLease(now: Int64) async throws {
        let lease = courier.configuration.lease.milliseconds
        guard leaseUntil - now < lease / 2 else { return }
        try await save()
        let (id, owner, until) = (endpoint.id, courier.owner, now + lease)
        guard try await courier.storage.write({ try await $0.claimWebhookEndpoint(id: id, owner: owner, now: now, leaseUntil: until) }) else {
            throw Stop.notHeld
        }
        leaseUntil = until
    }
}
