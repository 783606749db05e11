import StratusCore

/// A webhook endpoint (`stratus webhook add`): where the committed changes of one container and
/// environment are delivered (``WebhookCourier``), which of them, and how far it has got.
package struct StoredWebhookEndpoint: Sendable, Equatable {
    /// Whether the courier delivers to the endpoint.
    package enum State: Int64, Sendable {
        /// Delivered to.
        case enabled = 0
        /// Stopped by an administrator, or by the receiver's `410 Gone`; its events are not kept for it.
        case disabled = 1
        /// Failed for longer than ``WebhookCourier/giveUpAfter``: its events wait for `webhook replay`.
        case failing = 2

        /// The word the CLI and the console show.
        package var name: String {
            switch self {
            case .enabled: "enabled"
            case .disabled: "disabled"
            case .failing: "failing"
            }
        }
    }

    /// `ep_` and 20 random characters.
    package var id: String
    package var containerID: String
    package var environment: ContainerEnvironment
    package var url: String
    /// Which events the endpoint hears; empty lists hear everything.
    package var filter: WebhookFilter
    /// The signing secret, sealed for the container (``KeyVault``).
    package var secret: String
    /// The secret before the last rotation, sealed, which signs too until ``previousSecretUntil`` (ms).
    package var previousSecret: String?
    package var previousSecretUntil: Int64?
    package var state: State
    /// The position in the record log (its entries' row ids) up to which events were delivered
    /// or passed over.
    package var cursor: Int64
    /// The store epoch the cursor belongs to: after a restore (a new epoch) the endpoint hears
    /// `database.restored` first.
    package var epoch: Int64
    /// Failed tries of the event at the cursor, when its first one failed (ms), and when the next
    /// try is due (ms).
    package var attempts: Int
    package var failingSince: Int64?
    package var nextAttemptAt: Int64
    package var createdAt: Int64
    /// The courier holding the endpoint, and until when (ms); read only (``WebhookStore/claimWebhookEndpoint(id:owner:now:leaseUntil:)`` sets them).
    package var leaseOwner: String?
    package var leaseUntil: Int64 = 0

    package init(id: String, containerID: String, environment: ContainerEnvironment, url: String, filter: WebhookFilter, secret: String,
                 previousSecret: String? = nil, previousSecretUntil: Int64? = nil, state: State = .enabled, cursor: Int64, epoch: Int64,
                 attempts: Int = 0, failingSince: Int64? = nil, nextAttemptAt: Int64 = 0, createdAt: Int64) {
        self.id = id
        self.containerID = containerID
        self.environment = environment
        self.url = url
        self.filter = filter
        self.secret = secret
        self.previousSecret = previousSecret
        self.previousSecretUntil = previousSecretUntil
        self.state = state
        self.cursor = cursor
        self.epoch = epoch
        self.attempts = attempts
        self.failingSince = failingSince
        self.nextAttemptAt = nextAttemptAt
        self.createdAt = createdAt
    }
}

/// Which events an endpoint hears: those of these databases, record types and zones (each list
/// empty: any). Zone events and the loss alarm have no record type and pass a type filter.
package struct WebhookFilter: Sendable, Equatable {
    package var scopes: [DatabaseScope]
    package var recordTypes: [String]
    package var zones: [String]

    package init(scopes: [DatabaseScope] = [], recordTypes: [String] = [], zones: [String] = []) {
        self.scopes = scopes
        self.recordTypes = recordTypes
        self.zones = zones
    }

    /// Whether the endpoint hears the event.
    func admits(_ event: WebhookLogEvent) -> Bool {
        (scopes.isEmpty || scopes.contains(event.database))
            && (zones.isEmpty || zones.contains(event.zoneName))
            && (recordTypes.isEmpty || !event.change.isRecordChange || recordTypes.contains(event.recordType))
    }
}

/// One entry of the record log as webhooks read it: the change, and where it happened.
package struct WebhookLogEvent: Sendable, Equatable {
    /// The entry's place in the log (its row id).
    package var position: Int64
    package var change: RecordLogEntry.Change
    package var zoneRowID: Int64
    package var zoneName: String
    /// The database the change was made through: the zone owner's own (public or private), or
    /// shared when a participant made it.
    package var database: DatabaseScope
    package var zoneOwner: String
    package var recordName: String
    package var recordType: String
    /// The change sequence of the version the change made.
    package var sequence: Int64
    package var stamp: RecordStamp
    package var cause: String?

    package init(position: Int64, change: RecordLogEntry.Change, zoneRowID: Int64, zoneName: String, database: DatabaseScope, zoneOwner: String,
                 recordName: String, recordType: String, sequence: Int64, stamp: RecordStamp, cause: String?) {
        self.position = position
        self.change = change
        self.zoneRowID = zoneRowID
        self.zoneName = zoneName
        self.database = database
        self.zoneOwner = zoneOwner
        self.recordName = recordName
        self.recordType = recordType
        self.sequence = sequence
        self.stamp = stamp
        self.cause = cause
    }
}

/// One try to deliver an event (`stratus webhook deliveries`).
package struct WebhookAttempt: Sendable, Equatable {
    package var endpointID: String
    package var eventID: String
    /// When it was made (ms).
    package var attemptedAt: Int64
    /// The answer's HTTP status; 0 when there was none (refused, timed out, unreachable).
    package var status: Int
    package var latencyMilliseconds: Int64
    /// The first bytes of the answer, or why there was none.
    package var answer: String

    package init(endpointID: String, eventID: String, attemptedAt: Int64, status: Int, latencyMilliseconds: Int64, answer: String) {
        self.endpointID = endpointID
        self.eventID = eventID
        self.attemptedAt = attemptedAt
        self.status = status
        self.latencyMilliseconds = latencyMilliseconds
        self.answer = answer
    }
}

/// Where a courier's delivery to an endpoint stands after a try (``WebhookStore/recordWebhookProgress(_:owner:)``).
package struct WebhookProgress: Sendable, Equatable {
    package var endpointID: String
    package var cursor: Int64
    package var epoch: Int64
    package var state: StoredWebhookEndpoint.State
    package var attempts: Int
    package var failingSince: Int64?
    package var nextAttemptAt: Int64

    package init(endpointID: String, cursor: Int64, epoch: Int64, state: StoredWebhookEndpoint.State, attempts: Int, failingSince: Int64?,
                 nextAttemptAt: Int64) {
        self.endpointID = endpointID
        self.cursor = cursor
        self.epoch = epoch
        self.state = state
        self.attempts = attempts
        self.failingSince = failingSince
        self.nextAttemptAt = nextAttemptAt
    }
}
