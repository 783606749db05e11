import Foundation
import StratusCore

/// A container as stored: its identifier and the API token apps send as `ckAPIToken`.
package struct StoredContainer: Codable, Sendable, Equatable {
    package var id: String
    package var apiToken: String
    package var createdAt: Int64
    /// The origins of the web apps that may sign their users in through the server's sign-in page
    /// (`https://app.example.com`), normalized; never `*`.
    package var webOrigins: [String]
    /// How many days the container keeps record history (0: none); nil follows the server's
    /// `--history-days`.
    package var historyDays: Int?

    package init(id: String, apiToken: String, createdAt: Int64, webOrigins: [String] = [], historyDays: Int? = nil) {
        self.id = id
        self.apiToken = apiToken
        self.createdAt = createdAt
        self.webOrigins = webOrigins
        self.historyDays = historyDays
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        apiToken = try container.decode(String.self, forKey: .apiToken)
        createdAt = try container.decode(Int64.self, forKey: .createdAt)
        // Archives written before web origins existed have none.
        webOrigins = try container.decodeIfPresent([String].self, forKey: .webOrigins) ?? []
        historyDays = try container.decodeIfPresent(Int.self, forKey: .historyDays)
    }
}

/// A server-to-server key of a container: the public half of an ECDSA P-256 key pair whose
/// private half signs requests (CloudKit's server-to-server keys).
package struct StoredServerKey: Codable, Sendable, Equatable {
    /// The `X-Apple-CloudKit-Request-KeyID` requests name it by: 64 hex characters.
    package var keyID: String
    package var containerID: String
    /// The public key, PEM (`-----BEGIN PUBLIC KEY-----`).
    package var publicKeyPEM: String
    package var createdAt: Int64
    /// When it was revoked; a revoked key signs nothing.
    package var revokedAt: Int64?
}

/// A container's credentials for Apple's push service: a token-signing key (`.p8`) with its key
/// ID, the developer team's ID, and the app's bundle ID (each push's `apns-topic`).
package struct APNsCredentials: Codable, Sendable, Equatable {
    package var keyID: String
    package var teamID: String
    package var topic: String
    /// The `.p8` file's PEM (`-----BEGIN PRIVATE KEY-----`, a P-256 key).
    package var privateKeyPEM: String
}

/// An app's APNs device token, registered by a signed-in user with `tokens/register`.
package struct StoredAPNsToken: Codable, Sendable, Equatable, Hashable {
    package var containerID: String
    package var environment: ContainerEnvironment
    package var user: String
    /// The device token in lowercase hex, as APNs' request path takes it.
    package var token: String
    /// APNs' sandbox (`development`) or production host.
    package var apnsEnvironment: ContainerEnvironment
    package var registeredAt: Int64
    /// The hash of the session that registered it: the token goes when that session ends (nil
    /// for tokens registered before this was kept, which go with the user's other sessions).
    package var sessionHash: String?
}

/// A user account of one container.
package struct StoredUser: Sendable, Equatable {
    package var userRecordName: String
    package var containerID: String
    package var username: String
    /// A self-describing slow hash (see ``PasswordHasher``), never the password.
    package var passwordHash: String
    package var createdAt: Int64
    package var email: String? = nil
    /// Whether `users/discover` may find this user.
    package var discoverable = false
    /// Whether the user proved they receive mail at `email`; only then can anyone reach them by it.
    package var emailVerified = false
    /// When an administrator disabled the account (ms); a disabled user cannot sign in.
    package var disabledAt: Int64? = nil
    /// The Apple ID the user signs in with, if any (``AppleSignIn``).
    package var apple: StoredAppleIdentity? = nil

    /// Whether the user can sign in with a password (an account made by Sign in with Apple, or
    /// loaded from an archive without secrets, has none).
    package var hasPassword: Bool { !passwordHash.isEmpty }

    package init(userRecordName: String, containerID: String, username: String, passwordHash: String, createdAt: Int64, email: String? = nil,
                 discoverable: Bool = false, emailVerified: Bool = false, disabledAt: Int64? = nil, apple: StoredAppleIdentity? = nil) {
        self.userRecordName = userRecordName
        self.containerID = containerID
        self.username = username
        self.passwordHash = passwordHash
        self.createdAt = createdAt
        self.email = email
        self.discoverable = discoverable
        self.emailVerified = emailVerified
        self.disabledAt = disabledAt
        self.apple = apple
    }
}

/// An Apple ID linked to a user: Apple's stable user identifier (`sub`) in the app's team, and
/// the email address as Apple gave it (a private relay address included).
package struct StoredAppleIdentity: Codable, Sendable, Equatable {
    package var subject: String
    package var email: String?
    package var emailVerified: Bool
    /// The refresh token Apple gave for the user's authorization code, sealed for the container
    /// (``KeyVault``), and the client ID that obtained it: revoked when the account is deleted or
    /// the Apple ID unlinked (``AppleTokenRevoker``). Never in an archive.
    package var refreshToken: AppleRefreshToken?
    /// Whether Apple said the user turned mail forwarding to their relay address off
    /// (`email-disabled`, ``AppleNotifications``): no mail is sent to ``email`` meanwhile.
    package var relayMailDisabled: Bool

    package init(subject: String, email: String?, emailVerified: Bool, refreshToken: AppleRefreshToken? = nil, relayMailDisabled: Bool = false) {
        self.subject = subject
        self.email = email
        self.emailVerified = emailVerified
        self.refreshToken = refreshToken
        self.relayMailDisabled = relayMailDisabled
    }

    private enum CodingKeys: String, CodingKey {
        case subject, email, emailVerified, relayMailDisabled
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(subject: try container.decode(String.self, forKey: .subject), email: try container.decodeIfPresent(String.self, forKey: .email),
                  emailVerified: try container.decode(Bool.self, forKey: .emailVerified),
                  relayMailDisabled: try container.decodeIfPresent(Bool.self, forKey: .relayMailDisabled) ?? false)
    }
}

/// A refresh token of Sign in with Apple as kept: sealed for the container, with the client ID
/// (bundle ID or Services ID) it was issued to, which its revocation must name.
package struct AppleRefreshToken: Sendable, Equatable {
    package var sealedToken: String
    package var clientID: String

    package init(sealedToken: String, clientID: String) {
        self.sealedToken = sealedToken
        self.clientID = clientID
    }
}

/// A refresh token of Sign in with Apple waiting to be revoked at Apple (``AppleTokenRevoker``).
package struct StoredAppleRevocation: Sendable, Equatable {
    package var id: Int64 = 0
    package var containerID: String
    package var token: AppleRefreshToken
    package var createdAt: Int64
    package var attempts = 0

    package init(id: Int64 = 0, containerID: String, token: AppleRefreshToken, createdAt: Int64, attempts: Int = 0) {
        self.id = id
        self.containerID = containerID
        self.token = token
        self.createdAt = createdAt
        self.attempts = attempts
    }
}

/// A code sent to a user's email address to verify it; only its SHA-256 is kept.
package struct StoredEmailCode: Sendable, Equatable {
    package var userRecordName: String
    package var codeHash: String
    package var expiresAt: Int64
    /// Wrong codes tried against it.
    package var attempts: Int
}

/// A password reset code mailed to a user (``PasswordReset``): only its SHA-256 is kept; it works
/// once, until it expires.
package struct StoredPasswordResetCode: Sendable, Equatable {
    package var codeHash: String
    package var userRecordName: String
    package var expiresAt: Int64
}

/// One entry of the administrators' audit log (``AuditLog``).
package struct StoredAuditEntry: Codable, Sendable, Equatable {
    package var id: Int64 = 0
    /// When (ms).
    package var at: Int64
    /// Who: an administrator's username, a login name at the command line, or `(server)`.
    package var actor: String
    /// From where: `console from 192.0.2.7`, `command line on host`.
    package var origin: String
    /// What, as `area.verb`: `user.disable`, `schema.deploy`, `key.revoke`…
    package var action: String
    /// The container it was done in; empty for the server as a whole.
    package var containerID: String
    /// What it was done to: a username, a key ID, an origin (never a secret).
    package var detail: String

    package init(id: Int64 = 0, at: Int64, actor: String, origin: String, action: String, containerID: String, detail: String) {
        self.id = id
        self.at = at
        self.actor = actor
        self.origin = origin
        self.action = action
        self.containerID = containerID
        self.detail = detail
    }
}

/// A mail waiting in the outbox (``MailOutboxStore``). A decoy is written where a mail would be
/// when there is no one to send it to (`password/forgot` for an address no account has), so that
/// both answers cost the same write; the courier deletes it unsent. A mail holding a code is
/// deleted when the code expires, sent or not.
package struct StoredMail: Sendable, Equatable {
    package var id: Int64 = 0
    package var recipient: String
    package var subject: String
    package var body: String
    package var isDecoy = false
    /// When the code the mail holds expires (ms), if it holds one.
    package var codeExpiresAt: Int64?
    package var createdAt: Int64
    /// The ``KeyScope`` name whose key sealed `subject` and `body` (a mail holding a code), if sealed.
    package var sealedFor: String? = nil
    /// Failed tries so far.
    package var attempts = 0
}

/// A signed-in session. Only the SHA-256 of the web auth token is kept.
package struct StoredSession: Codable, Sendable, Equatable {
    package var tokenHash: String
    package var userRecordName: String
    package var containerID: String
    package var environment: ContainerEnvironment
    package var expiresAt: Int64
    /// When it was opened (ms; 0 for a session older than the column).
    package var createdAt: Int64 = 0
    /// When it was last used, to within ``AccountCentre/lastUseResolution`` (ms).
    package var lastUsedAt: Int64 = 0
    /// When its user last proved who they are in it: signed in, or re-authenticated (ms). Only
    /// this session may use that proof (``AccountCentre/requireFreshProof(_:)``).
    package var provenAt: Int64 = 0
    /// What the device said it is (its `User-Agent`, at most 200 characters), and the client
    /// address it signed in from.
    package var device = ""
    package var clientAddress = ""

    /// The identifier the account centre shows for it: the first 16 hexadecimal digits of the
    /// token's hash, which name it without telling anything of the token.
    package var id: String { String(tokenHash.prefix(16)) }

    package init(tokenHash: String, userRecordName: String, containerID: String, environment: ContainerEnvironment, expiresAt: Int64,
                 createdAt: Int64 = 0, lastUsedAt: Int64 = 0, provenAt: Int64 = 0, device: String = "", clientAddress: String = "") {
        self.tokenHash = tokenHash
        self.userRecordName = userRecordName
        self.containerID = containerID
        self.environment = environment
        self.expiresAt = expiresAt
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
        self.provenAt = provenAt
        self.device = device
        self.clientAddress = clientAddress
    }

    /// Reads archives written before sessions had more than their expiry.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(tokenHash: try container.decode(String.self, forKey: .tokenHash),
                  userRecordName: try container.decode(String.self, forKey: .userRecordName),
                  containerID: try container.decode(String.self, forKey: .containerID),
                  environment: try container.decode(ContainerEnvironment.self, forKey: .environment),
                  expiresAt: try container.decode(Int64.self, forKey: .expiresAt),
                  createdAt: try container.decodeIfPresent(Int64.self, forKey: .createdAt) ?? 0,
                  lastUsedAt: try container.decodeIfPresent(Int64.self, forKey: .lastUsedAt) ?? 0,
                  provenAt: try container.decodeIfPresent(Int64.self, forKey: .provenAt) ?? 0,
                  device: try container.decodeIfPresent(String.self, forKey: .device) ?? "",
                  clientAddress: try container.decodeIfPresent(String.self, forKey: .clientAddress) ?? "")
    }
}

/// Names one database: a container's environment, a scope and, for private databases, its owner.
package struct DatabaseKey: Codable, Sendable, Hashable {
    package var containerID: String
    package var environment: ContainerEnvironment
    package var scope: DatabaseScope
    /// The owning user's record name for private databases; empty for the public database.
    package var ownerRecordName: String
}

/// A record zone row. Deleted zones stay as tombstones so database change feeds can report them.
package struct StoredZone: Sendable, Equatable {
    package var rowID: Int64
    package var databaseID: Int64
    package var zoneName: String
    /// The change sequence of the zone's latest change (its own or one of its records').
    package var changeSequence: Int64
    /// Tokens older than this sequence have missed purged tombstones and are expired.
    package var purgedSequence: Int64
    package var deleted: Bool

    package var isDefaultZone: Bool { zoneName == ZoneID.defaultZoneName }
}

/// A record row, or its tombstone (`deleted`, no fields) once deleted.
package struct StoredRecord: Sendable, Equatable {
    package var zoneRowID: Int64
    package var recordName: String
    package var recordType: String
    package var changeTag: String
    /// The record's fields in CloudKit's wire JSON (`{"name": {"value": …, "type": …}}`).
    package var fieldsJSON: [UInt8]
    package var created: RecordStamp
    package var modified: RecordStamp
    package var parent: String?
    package var share: String?
    package var sequence: Int64
    package var deleted: Bool
    /// The `createKey` of the create that made the record (a Stratus extension), kept in its
    /// tombstone so that the create sent again is not applied twice.
    package var createKey: String?

    /// A row from its columns.
    package init(zoneRowID: Int64, recordName: String, recordType: String, changeTag: String, fieldsJSON: [UInt8], created: RecordStamp,
                 modified: RecordStamp, parent: String?, share: String?, sequence: Int64, deleted: Bool, createKey: String? = nil) {
        self.zoneRowID = zoneRowID
        self.recordName = recordName
        self.recordType = recordType
        self.changeTag = changeTag
        self.fieldsJSON = fieldsJSON
        self.created = created
        self.modified = modified
        self.parent = parent
        self.share = share
        self.sequence = sequence
        self.deleted = deleted
        self.createKey = createKey
    }
}

/// Where a change of a zone is, without its fields: its sequence, and what the public database's
/// security roles need to know whether a caller may read it (``RecordStore/changePositions(zoneRowID:after:skippingDeletionsThrough:limit:recordTypes:)``).
package struct ChangePosition: Sendable, Equatable {
    package var sequence: Int64
    package var recordType: String
    /// The user who created the record (a tombstone keeps them).
    package var creator: String?

    package init(sequence: Int64, recordType: String, creator: String?) {
        self.sequence = sequence
        self.recordType = recordType
        self.creator = creator
    }
}

/// An edge from a source record to the record one of its references points at, kept for the
/// references whose action matters when the target is deleted.
package struct StoredReference: Sendable, Hashable {
    package var sourceName: String
    package var targetName: String
    package var action: Reference.Action
}

/// A file uploaded through an upload URL and waiting to be put in a record field. The receipt
/// the uploader got back names it; only the receipt's SHA-256 is stored.
package struct StoredAssetUpload: Sendable, Equatable {
    package var receiptHash: String
    /// The database and zone the upload URL was issued for.
    package var databaseID: Int64
    package var zoneName: String
    package var recordName: String
    package var fieldName: String
    package var uploadedBy: String
    /// The file's name in the ``BlobStore``: the base64 SHA-256 of its bytes (its `fileChecksum`),
    /// and for a file sealed under its owner's key, the key's tag (``SealedAssetFile``).
    package var checksum: String
    /// The file's size (before any sealing).
    package var size: Int64
    package var uploadedAt: Int64
}

/// A subscription as stored: who owns it, where it looks, and its dictionary as the client sent it.
package struct StoredSubscription: Codable, Sendable, Equatable {
    package var databaseID: Int64
    /// The user it notifies.
    package var owner: String
    package var subscription: CloudSubscription
}

/// A share of a zone (zone-wide) or of a root record and its descendants, with its participants.
package struct StoredShare: Codable, Sendable, Equatable {
    package var zoneRowID: Int64
    /// The `cloudkit.share` record's name (`cloudkit.zoneshare` for a zone-wide share).
    package var recordName: String
    /// The shared root record; nil for a zone-wide share.
    package var rootRecordName: String?
    package var shortGUID: String
    package var publicPermission: SharePermission
    /// Everyone but the owner.
    package var participants: [StoredParticipant]

    package var isZoneWide: Bool { rootRecordName == nil }
}

/// A user's place in a share.
package struct StoredParticipant: Codable, Sendable, Equatable {
    package var userRecordName: String
    package var permission: SharePermission
    package var type: ParticipantType
    package var status: AcceptanceStatus
    /// The zone's change sequence when the participant accepted: they see the versions of its
    /// records that were current since then (``HistoryService``). Nil before they accept, and
    /// for acceptances older than history.
    package var acceptedSequence: Int64? = nil
}

/// A zone as it appears in (or left) a user's shared database.
package struct SharedZoneEntry: Sendable, Equatable {
    package var zoneRowID: Int64
    package var active: Bool
    package var sequence: Int64
}

/// An administrator of the server (who signs in to the console), not a user of any container.
package struct StoredAdministrator: Sendable, Equatable {
    package var username: String
    /// A self-describing slow hash (see ``PasswordHasher``), never the password.
    package var passwordHash: String
    package var createdAt: Int64
}

/// A console session; only the SHA-256 of its cookie's token is kept.
package struct StoredConsoleSession: Sendable, Equatable {
    package var tokenHash: String
    package var username: String
    package var expiresAt: Int64
}

/// A passkey a user signs in with (``PasskeySignIn``): its credential ID and COSE public key as
/// the authenticator gave them, the user handle it was made with, and its signature counter. An
/// archive holds it as is (its binary values in base64): a public key is no secret.
package struct StoredPasskey: Codable, Sendable, Equatable {
    package var containerID: String
    /// The credential ID, base64url.
    package var credentialID: String
    package var userRecordName: String
    /// The user handle (64 random bytes) the passkey holds for its user.
    package var userHandle: Data
    /// The COSE_Key, as sent.
    package var publicKey: Data
    /// The last signature counter seen; 0 for a passkey that never counts (synced passkeys).
    package var signCount: Int64
    /// Whether the passkey may be synced between devices, and whether it was at its last use.
    package var backupEligible: Bool
    package var backedUp: Bool
    /// How the authenticator is reached (`internal`, `hybrid`, `usb`…), as the client said.
    package var transports: [String]
    package var name: String
    package var createdAt: Int64
    package var lastUsedAt: Int64?

    package init(containerID: String, credentialID: String, userRecordName: String, userHandle: Data, publicKey: Data, signCount: Int64,
                 backupEligible: Bool, backedUp: Bool, transports: [String], name: String, createdAt: Int64, lastUsedAt: Int64? = nil) {
        self.containerID = containerID
        self.credentialID = credentialID
        self.userRecordName = userRecordName
        self.userHandle = userHandle
        self.publicKey = publicKey
        self.signCount = signCount
        self.backupEligible = backupEligible
        self.backedUp = backedUp
        self.transports = transports
        self.name = name
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
    }
}

/// An OpenID Connect or GitHub identity linked to a user (``OpenIDSignIn``): the provider's
/// issuer and its stable identifier of the user (`sub`, GitHub's numeric `id`), which is how the
/// user is found, never by email. The email is kept as the provider gave it, and counts as
/// verified only when the provider said so. An archive holds it as is.
package struct StoredOpenIDIdentity: Codable, Sendable, Equatable {
    package var containerID: String
    /// The provider's name in the server's configuration (`google`, `github`).
    package var provider: String
    package var issuer: String
    package var subject: String
    package var userRecordName: String
    package var email: String?
    package var emailVerified: Bool
    package var linkedAt: Int64
    package var lastUsedAt: Int64?

    package init(containerID: String, provider: String, issuer: String, subject: String, userRecordName: String, email: String?,
                 emailVerified: Bool, linkedAt: Int64, lastUsedAt: Int64? = nil) {
        self.containerID = containerID
        self.provider = provider
        self.issuer = issuer
        self.subject = subject
        self.userRecordName = userRecordName
        self.email = email
        self.emailVerified = emailVerified
        self.linkedAt = linkedAt
        self.lastUsedAt = lastUsedAt
    }
}

/// A web sign-in under way at a provider (``OpenIDSignIn``), from `start` to `callback`: found
/// by the SHA-256 of its `state`, used once, for ten minutes. It holds the PKCE verifier sealed
/// for the container (``KeyVault``), the nonce the ID token must carry, the SHA-256 of the
/// browser cookie that started it (a callback in another browser is refused), and where the
/// session goes.
package struct StoredOpenIDFlow: Sendable, Equatable {
    package var stateHash: String
    package var containerID: String
    package var environment: String
    package var provider: String
    package var sealedVerifier: String
    package var nonce: String
    package var browserHash: String
    /// The `redirect_uri` sent to the provider, which the code exchange repeats.
    package var redirectURI: String
    /// `signin`, `link` or `reauthenticate`.
    package var purpose: String
    /// Where the session or the user goes: `popup:ORIGIN`, `redirect:URL` or `account:URL`.
    package var handoff: String
    /// The session that links or proves (`link`, `reauthenticate`): its token hash.
    package var sessionHash: String?
    package var expiresAt: Int64

    package init(stateHash: String, containerID: String, environment: String, provider: String, sealedVerifier: String, nonce: String,
                 browserHash: String, redirectURI: String, purpose: String, handoff: String, sessionHash: String?, expiresAt: Int64) {
        self.stateHash = stateHash
        self.containerID = containerID
        self.environment = environment
        self.provider = provider
        self.sealedVerifier = sealedVerifier
        self.nonce = nonce
        self.browserHash = browserHash
        self.redirectURI = redirectURI
        self.purpose = purpose
        self.handoff = handoff
        self.sessionHash = sessionHash
        self.expiresAt = expiresAt
    }
}
