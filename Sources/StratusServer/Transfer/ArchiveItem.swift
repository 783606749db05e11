import Foundation
import StratusCore

/// One line of a container archive's `container.jsonl`: one stored row of the container, with
/// its kind in `"kind"`.
///
/// Rows name each other as the store that wrote them did: a zone names its database by the
/// database's `id`, a record its zone by the zone's `id`. A load maps those ids to the rows it
/// makes, and shifts every change sequence by the same amount (see ``ArchiveLoad``). Lines come
/// in an order a load can take them in: whatever a row names comes before it.
package enum ArchiveItem: Sendable, Equatable {
    case container(StoredContainer)
    /// An environment's schema, written as CloudKit's schema language (``SchemaText``).
    case schema(ContainerEnvironment, Schema)
    case user(ArchivedUser)
    case userRole(ArchivedUserRole)
    /// A passkey a user signs in with (its public key: not a secret).
    case passkey(StoredPasskey)
    /// An OpenID Connect or GitHub identity a user signs in with (no secret: the provider's
    /// issuer and its identifier of the user).
    case openIDIdentity(StoredOpenIDIdentity)
    case serverKey(StoredServerKey)
    /// A signed-in session (only its token's hash); written only with secrets.
    case session(StoredSession)
    /// The container's APNs signing key; written only with secrets.
    case apnsCredentials(APNsCredentials)
    /// A device's APNs token; written only with secrets.
    case apnsToken(StoredAPNsToken)
    case database(ArchivedDatabase)
    case zone(ArchivedZone)
    /// An asset file a record of the container refers to; its bytes are in the archive's
    /// `assets/` directory under their checksum.
    case asset(ArchivedAsset)
    case record(ArchivedRecord)
    /// An entry of the record log (history), with the version it replaced; written only with
    /// history, in the order the zone's entries were written.
    case logEntry(ArchivedLogEntry)
    case share(StoredShare)
    case sharedZone(ArchivedSharedZone)
    case subscription(StoredSubscription)
    /// An entry of the administrators' audit log about the container, oldest first.
    case auditEntry(StoredAuditEntry)
    /// A webhook endpoint with its sealed secrets; written only with secrets, last (a load starts
    /// it at the end of the log it loaded).
    case webhookEndpoint(ArchivedWebhookEndpoint)

    /// The `"kind"` of each line, in the order lines of each kind come.
    package static let kinds = ["container", "schema", "user", "userRole", "passkey", "openIDIdentity", "serverKey", "session", "apnsCredentials", "apnsToken",
                                "database", "zone", "asset", "record", "logEntry", "share", "sharedZone", "subscription", "auditEntry", "webhookEndpoint"]

    package var kind: String {
        switch self {
        case .container: "container"
        case .schema: "schema"
        case .user: "user"
        case .userRole: "userRole"
        case .passkey: "passkey"
        case .openIDIdentity: "openIDIdentity"
        case .serverKey: "serverKey"
        case .session: "session"
        case .apnsCredentials: "apnsCredentials"
        case .apnsToken: "apnsToken"
        case .database: "database"
        case .zone: "zone"
        case .asset: "asset"
        case .record: "record"
        case .logEntry: "logEntry"
        case .share: "share"
        case .sharedZone: "sharedZone"
        case .subscription: "subscription"
        case .auditEntry: "auditEntry"
        case .webhookEndpoint: "webhookEndpoint"
        }
    }
}

/// A user account; `passwordHash` is left out unless the archive was written with secrets (a
/// user loaded without one cannot sign in until an administrator resets the password).
package struct ArchivedUser: Codable, Sendable, Equatable {
    package var userRecordName: String
    package var username: String
    package var passwordHash: String?
    package var createdAt: Int64
    package var email: String?
    package var discoverable: Bool
    package var emailVerified: Bool
    package var disabledAt: Int64?
    /// The Apple ID the user signs in with (absent in archives made before Sign in with Apple).
    package var apple: StoredAppleIdentity?
}

/// A custom security role given to a user in one environment.
package struct ArchivedUserRole: Codable, Sendable, Equatable {
    package var environment: ContainerEnvironment
    package var user: String
    package var role: String
}

/// A database: the public one of an environment, or a user's private one.
package struct ArchivedDatabase: Codable, Sendable, Equatable {
    package var id: Int64
    package var environment: ContainerEnvironment
    package var scope: DatabaseScope
    package var owner: String
    package var purgedSequence: Int64
}

/// A zone, or a zone's tombstone.
package struct ArchivedZone: Codable, Sendable, Equatable {
    package var id: Int64
    package var database: Int64
    package var name: String
    package var changeSequence: Int64
    package var purgedSequence: Int64
    package var deleted: Bool
    package var deletedAt: Int64?
}

/// An asset file's row; its bytes travel as a file.
package struct ArchivedAsset: Codable, Sendable, Equatable {
    /// Base64 SHA-256 of the bytes (the asset's `fileChecksum`).
    package var checksum: String
    package var size: Int64
    package var createdAt: Int64
}

/// A record or a record's tombstone (or a version a log entry keeps), with the reference edges and asset files it holds.
package struct ArchivedRecord: Codable, Sendable, Equatable {
    package var zone: Int64
    package var recordName: String
    package var recordType: String
    package var changeTag: String
    /// The fields in CloudKit's wire JSON, written into the line as they are stored (as the
    /// line's `"fields"` object), not re-encoded; ``ArchiveLine`` reads and writes them.
    package var fields: [UInt8] = []
    package var created: RecordStamp
    package var modified: RecordStamp
    package var parent: String?
    package var share: String?
    package var sequence: Int64
    package var deleted: Bool
    package var createKey: String?
    package var references: [ArchivedReference]
    /// The checksums of the asset files its fields hold.
    package var assets: [String]

    private enum CodingKeys: String, CodingKey {
        case zone, recordName, recordType, changeTag, created, modified, parent, share, sequence, deleted, createKey, references, assets
    }
}

/// A change of a record in the record log (``RecordLogEntry``): what changed, when and by whom,
/// and the version it replaced.
package struct ArchivedLogEntry: Codable, Sendable, Equatable {
    package var zone: Int64
    package var recordName: String
    /// The record's type after the change.
    package var recordType: String
    package var sequence: Int64
    /// ``RecordLogEntry/Change``'s raw value: 0 create, 1 update, 2 delete; a zone's own events (record name
    /// empty) 3 created, 4 deleted.
    package var change: Int64
    package var stamp: RecordStamp
    package var cause: String?
    /// The version the change replaced, with the files it refers to (its fields, as stored, are
    /// the line's `"fields"`); nil for a create of a name never used, or an evicted version.
    package var version: ArchivedRecord?
}

/// A reference edge kept for its action when the target is deleted.
package struct ArchivedReference: Codable, Sendable, Equatable {
    package var target: String
    package var action: Reference.Action
}

/// A zone's place in (or departure from) a user's shared database.
package struct ArchivedSharedZone: Codable, Sendable, Equatable {
    package var user: String
    package var zone: Int64
    package var active: Bool
    package var sequence: Int64
}

/// A webhook endpoint: where it delivers and what, its secrets (sealed for the container, as the
/// store keeps them) and its state. Not its place in the log, which is the store's own: a load
/// starts it after what it loaded.
package struct ArchivedWebhookEndpoint: Codable, Sendable, Equatable {
    package var id: String
    package var environment: ContainerEnvironment
    package var url: String
    package var scopes: [DatabaseScope]
    package var recordTypes: [String]
    package var zones: [String]
    package var secret: String
    package var previousSecret: String?
    package var previousSecretUntil: Int64?
    package var state: Int64
    package var createdAt: Int64

    init(_ endpoint: StoredWebhookEndpoint) {
        id = endpoint.id
        environment = endpoint.environment
        url = endpoint.url
        scopes = endpoint.filter.scopes
        recordTypes = endpoint.filter.recordTypes
        zones = endpoint.filter.zones
        secret = endpoint.secret
        previousSecret = endpoint.previousSecret
        previousSecretUntil = endpoint.previousSecretUntil
        state = endpoint.state.rawValue
        createdAt = endpoint.createdAt
    }

    /// The endpoint in a store whose log ends at `position`, in epoch `epoch`.
    func stored(containerID: String, cursor position: Int64, epoch: Int64) -> StoredWebhookEndpoint {
        StoredWebhookEndpoint(id: id, containerID: containerID, environment: environment, url: url,
                              filter: WebhookFilter(scopes: scopes, recordTypes: recordTypes, zones: zones), secret: secret,
                              previousSecret: previousSecret, previousSecretUntil: previousSecretUntil,
                              state: StoredWebhookEndpoint.State(rawValue: state) ?? .disabled, cursor: position, epoch: epoch, createdAt: createdAt)
    }
}
