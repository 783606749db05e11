import StratusCore

/// Where Stratus keeps its data. A backend runs each unit of work as one transaction: every write
/// of a request commits together or not at all.
///
/// The SQLite backend (``SQLiteStorage``) is the default; other backends implement the same two
/// entry points and ``StorageTransaction``, and must pass the same tests.
///
/// The seam is asynchronous so that a backend on a network database suspends while a statement
/// travels; the SQLite backend's work never suspends (it runs on the connection's own thread,
/// see ``ConnectionThread``).
package protocol StratusStorage: Sendable {
    /// Runs `body` in a read-only transaction that sees one consistent snapshot.
    func read<T: Sendable>(_ body: @escaping @Sendable (any StorageTransaction) async throws -> T) async throws -> T
    /// Runs `body` in a write transaction; it commits when `body` returns and rolls back when it throws.
    func write<T: Sendable>(_ body: @escaping @Sendable (any StorageTransaction) async throws -> T) async throws -> T
    /// Whether the storage answers and its schema is at the newest migration.
    func isReady() async -> Bool
    /// The store's epoch: 0 until a restore gives the store a new one. Change tokens carry it,
    /// and a token of another epoch has expired (its device was ahead of, or beside, the
    /// restored history).
    var epoch: Int64 { get }
    /// Copies a consistent snapshot of the whole database to a new file at `path` while writes
    /// go on (the backup's database part).
    func backup(to path: String) async throws
    /// The server's secret (32 random bytes, made on first use) from which the keys that sign
    /// asset URLs and seal continuation markers derive; every instance of a store has the same.
    func serverSecret() async throws -> [UInt8]
    /// The channel to the other instances sharing this store, if it can have any.
    var bus: (any InstanceBus)? { get }
    /// The counters shared with the other instances of this store, if it can have any.
    var fleetCounters: (any FleetCounters)? { get }
    /// Runs `body` unless another instance is running the job of that name (then returns false
    /// at once): maintenance runs once across the fleet.
    func exclusively(_ job: String, _ body: @Sendable () async throws -> Void) async throws -> Bool
}

/// The operations services perform inside one storage transaction.
package protocol StorageTransaction {
    // MARK: Containers, users, sessions
    func container(id: String) async throws -> StoredContainer?
    func insertContainer(_ container: StoredContainer) async throws
    func user(containerID: String, username: String) async throws -> StoredUser?
    /// The user who verified this email address in the container (unverified claims never match).
    func user(containerID: String, email: String) async throws -> StoredUser?
    /// Inserts a user; throws `EXISTS` when the username is taken in that container.
    func insertUser(_ user: StoredUser) async throws
    /// Creates or replaces the email verification code of a user.
    func saveEmailCode(_ code: StoredEmailCode) async throws
    func emailCode(user: String) async throws -> StoredEmailCode?
    /// Marks the user's email address verified and forgets their code; `EXISTS` when another
    /// account of the container verified the same address first.
    func markEmailVerified(user: String) async throws
    func session(tokenHash: String) async throws -> StoredSession?
    func insertSession(_ session: StoredSession) async throws
    /// Revokes a session, and forgets the APNs device tokens it registered.
    func deleteSession(tokenHash: String) async throws
    /// Forgets the sessions expired before `time` (ms) and the APNs device tokens they registered.
    func deleteExpiredSessions(before time: Int64) async throws

    // MARK: Administration
    func containers() async throws -> [StoredContainer]
    func setAPIToken(containerID: String, apiToken: String) async throws
    /// A container's users by username, those whose username or email contains `text` when given.
    func users(containerID: String, matching text: String?, limit: Int) async throws -> [StoredUser]
    /// Disables the account at `time` (ms), or enables it again with nil.
    func setUserDisabled(user: String, at time: Int64?) async throws
    func setPasswordHash(user: String, passwordHash: String) async throws
    /// Revokes the user's sessions but `kept`, and forgets the APNs device tokens registered by
    /// any but `kept`; returns the token hashes revoked.
    func deleteSessions(user: String, except kept: String?) async throws -> [String]
    /// The row ids of an environment's databases (public, and each user's private and shared).
    func databaseIDs(containerID: String, environment: ContainerEnvironment) async throws -> [Int64]
    /// The zones with a share the user is a participant of (invited or accepted).
    func zonesSharedWith(user: String) async throws -> [Int64]
    /// Deletes the user's row and what only it needs: email codes, security roles, APNs tokens.
    func deleteUser(recordName user: String) async throws

    // MARK: Administrators and the console
    /// Inserts an administrator; `EXISTS` when the name is taken.
    func insertAdministrator(_ administrator: StoredAdministrator) async throws
    func administrator(username: String) async throws -> StoredAdministrator?
    /// Every administrator, by name.
    func administrators() async throws -> [StoredAdministrator]
    /// Deletes an administrator and their console sessions; false if there was none.
    func deleteAdministrator(username: String) async throws -> Bool
    func insertConsoleSession(_ session: StoredConsoleSession) async throws
    func consoleSession(tokenHash: String) async throws -> StoredConsoleSession?
    func deleteConsoleSession(tokenHash: String) async throws
    func deleteExpiredConsoleSessions(before time: Int64) async throws

    // MARK: Backup and restore
    /// The epoch this transaction's store was opened with (see ``StratusStorage/epoch``).
    var storeEpoch: Int64 { get }
    /// Gives the store a new epoch (a restore does, in a store no server has open).
    func setStoreEpoch(_ epoch: Int64) async throws
    /// Holds asset collection off until `expiresAt` (ms): a backup is copying files.
    func holdAssetCollection(holder: String, until expiresAt: Int64) async throws
    func releaseAssetCollection(holder: String) async throws
    func isAssetCollectionHeld(at time: Int64) async throws -> Bool
    /// The checksum of every stored asset file.
    func assetBlobChecksums() async throws -> [String]

    // MARK: Container archives
    /// How many items ``archiveItems(containerID:includingSecrets:_:)`` passes for the container.
    func archiveItemCount(containerID: String, includingSecrets: Bool) async throws -> Int
    /// Passes every row of the container to `emit` as ``ArchiveItem``s, kinds in the order of
    /// ``ArchiveItem/kinds``. Password hashes, sessions and APNs credentials and device tokens
    /// only with `includingSecrets`; email codes and uploads not yet in a record never. (``loadArchiveItem(_:_:)``
    /// stores them back.)
    func archiveItems(containerID: String, includingSecrets: Bool, _ emit: (ArchiveItem) throws -> Void) async throws
    /// Inserts an archived database row, with its archived id when `load` keeps row ids (throwing
    /// ``ArchiveLoad/RowIDTaken`` when the store uses it), and returns its id in this store.
    func insertArchivedDatabase(_ database: ArchivedDatabase, containerID: String, _ load: ArchiveLoad) async throws -> Int64
    /// Inserts an archived zone row as ``insertArchivedDatabase(_:containerID:_:)`` does a database's.
    func insertArchivedZone(_ zone: ArchivedZone, _ load: ArchiveLoad) async throws -> Int64
    /// Records an asset file's row (once per checksum).
    func insertAssetBlob(_ asset: ArchivedAsset) async throws
    /// Raises the change sequence to `value` when it is below.
    func advanceChangeSequence(to value: Int64) async throws

    // MARK: Change sequence
    /// The last change sequence committed (or allocated by this transaction).
    func currentChangeSequence() async throws -> Int64
    /// Allocates the next number of the one monotonic change sequence.
    func nextChangeSequence() async throws -> Int64

    // MARK: Databases and zones
    /// The database's row id; with `create`, made on first use.
    func databaseID(_ key: DatabaseKey, create: Bool) async throws -> Int64?
    /// The key of a database row.
    func databaseKey(id: Int64) async throws -> DatabaseKey?
    /// Database-change tokens older than this have missed purged zone tombstones.
    func databasePurgedSequence(databaseID: Int64) async throws -> Int64
    func liveZone(databaseID: Int64, zoneName: String) async throws -> StoredZone?
    func zone(rowID: Int64) async throws -> StoredZone?
    func liveZones(databaseID: Int64) async throws -> [StoredZone]
    func insertZone(databaseID: Int64, zoneName: String, sequence: Int64) async throws -> StoredZone
    /// Turns the zone into a tombstone at `sequence` and removes its records.
    func deleteZone(rowID: Int64, sequence: Int64) async throws
    func setZoneChangeSequence(rowID: Int64, sequence: Int64) async throws
    /// Zones (live or deleted) whose change sequence is after `sequence`, oldest first; zones
    /// deleted at or before `horizon` are left out.
    func zonesChanged(databaseID: Int64, after sequence: Int64, skippingDeletionsThrough horizon: Int64, limit: Int) async throws -> [StoredZone]

    // MARK: Records
    /// The record or its tombstone.
    func record(zoneRowID: Int64, recordName: String) async throws -> StoredRecord?
    /// The records (or tombstones) of the zone with these names; missing names are left out.
    func records(zoneRowID: Int64, recordNames: [String]) async throws -> [StoredRecord]
    /// Whether ``saveRecord(_:references:replacingReferences:)`` may be held back and sent with
    /// the saves around it (PostgreSQL, where every statement is a network round trip). A writer
    /// then reads every name of a batch up front, creates included, so that it can save them all
    /// rather than ``insertRecord(_:references:)`` each (whose answer cannot wait).
    var holdsRecordWrites: Bool { get }
    /// Inserts or overwrites the record (or tombstone) and its outgoing reference edges; with
    /// `replacingReferences`, the edges it had before are removed first (a new record has none).
    func saveRecord(_ record: StoredRecord, references: [StoredReference], replacingReferences: Bool) async throws
    /// Inserts a record whose name has no row in the zone yet, with its reference edges. Returns
    /// false, writing nothing, when a row (record or tombstone) of that name exists.
    func insertRecord(_ record: StoredRecord, references: [StoredReference]) async throws -> Bool
    /// Edges pointing at `targetName` from live records of the zone.
    func references(zoneRowID: Int64, targetName: String) async throws -> [StoredReference]
    /// Records and tombstones changed after `sequence`, oldest first, leaving out tombstones at
    /// or before `horizon`: at most `limit`, and no more once their fields add up to over
    /// `maxBytes` with at least two read.
    func recordChanges(zoneRowID: Int64, after sequence: Int64, skippingDeletionsThrough horizon: Int64, limit: Int,
                       maxBytes: Int, recordTypes: [String]?) async throws -> [StoredRecord]

    // MARK: Queries
    /// Replaces a record's index rows (none are written for fields that are not indexed).
    func replaceIndexEntries(zoneRowID: Int64, recordType: String, recordName: String, entries: [IndexEntry]) async throws
    /// Runs a query over index rows; at most `limit` rows, in the sort order.
    func query(_ query: RecordQuery) async throws -> QueryPage
    /// Every live record of a type in the container environment's zones, for rebuilding indexes.
    func liveRecords(containerID: String, environment: ContainerEnvironment, recordType: String) async throws -> [StoredRecord]

    // MARK: Schema
    /// One record type of an environment's schema, or nil if the type is unknown there.
    func recordTypeSchema(containerID: String, environment: ContainerEnvironment, recordType: String) async throws -> RecordTypeSchema?
    /// An environment's whole schema.
    func schema(containerID: String, environment: ContainerEnvironment) async throws -> Schema
    /// Applies additive changes to an environment's schema.
    func applySchemaChanges(_ changes: [SchemaChange], containerID: String, environment: ContainerEnvironment) async throws
    /// Replaces an environment's schema.
    func replaceSchema(_ schema: Schema, containerID: String, environment: ContainerEnvironment) async throws
    /// The grants of one record type by role; empty when it declares none (CloudKit's defaults hold).
    func recordTypeGrants(containerID: String, environment: ContainerEnvironment, recordType: String) async throws -> [String: RecordPermissions]
    /// The custom roles given to a user in an environment.
    func userRoles(containerID: String, environment: ContainerEnvironment, user: String) async throws -> Set<String>
    /// Gives a user a role, or takes it away; false when nothing changed.
    func setUserRole(_ role: String, granted: Bool, containerID: String, environment: ContainerEnvironment, user: String) async throws -> Bool

    // MARK: Assets
    /// Records an uploaded file: its blob (once per checksum) and the upload awaiting a record.
    func insertAssetUpload(_ upload: StoredAssetUpload) async throws
    func assetUpload(receiptHash: String) async throws -> StoredAssetUpload?
    /// The size of the file with this checksum and up to `limit` of the zone's records that refer
    /// to it, or nil if none does.
    func assetReferences(zoneRowID: Int64, checksum: String, limit: Int) async throws -> (size: Int64, recordNames: [String])?
    /// Whether the record refers to the file with this checksum.
    func recordReferencesAsset(zoneRowID: Int64, recordName: String, checksum: String) async throws -> Bool
    /// Replaces the set of files a record refers to.
    func replaceAssetReferences(zoneRowID: Int64, recordName: String, checksums: Set<String>) async throws
    /// Removes uploads made before `time` (ms); returns how many went.
    func deleteAssetUploads(before time: Int64) async throws -> Int
    /// Removes the blobs no record and no upload refers to; returns their checksums.
    func deleteUnreferencedAssetBlobs() async throws -> [String]
    /// Whether a blob row with this checksum exists.
    func assetBlobExists(checksum: String) async throws -> Bool

    // MARK: Subscriptions
    /// Subscriptions of a database, all of them or one user's.
    func subscriptions(databaseID: Int64, owner: String?) async throws -> [StoredSubscription]
    /// Creates or replaces a subscription.
    func saveSubscription(_ subscription: StoredSubscription) async throws
    /// Deletes a subscription; false if there was none.
    func deleteSubscription(databaseID: Int64, owner: String, subscriptionID: String) async throws -> Bool

    // MARK: Sharing
    func share(zoneRowID: Int64, recordName: String) async throws -> StoredShare?
    func share(shortGUID: String) async throws -> StoredShare?
    func shares(zoneRowID: Int64) async throws -> [StoredShare]
    /// Creates or replaces a share and its participants.
    func saveShare(_ share: StoredShare) async throws
    func deleteShare(zoneRowID: Int64, recordName: String) async throws
    /// The shares of a zone in which the user is an accepted participant.
    func acceptedShares(zoneRowID: Int64, user: String) async throws -> [StoredShare]
    /// Whether the user is an accepted participant of any share of the zone.
    func isAcceptedParticipant(zoneRowID: Int64, user: String) async throws -> Bool
    /// Records that a zone entered (`active`) or left a user's shared database at `sequence`.
    func setSharedZone(user: String, zoneRowID: Int64, active: Bool, sequence: Int64) async throws
    /// The zones that entered or left a user's shared database after `sequence`, oldest first;
    /// those that left at or before `horizon` are left out.
    func sharedZoneChanges(user: String, after sequence: Int64, skippingDeparturesThrough horizon: Int64, limit: Int) async throws -> [SharedZoneEntry]
    /// The zones now in a user's shared database.
    func activeSharedZones(user: String) async throws -> [SharedZoneEntry]
    /// Users with the zone in their shared database now.
    func sharedZoneMembers(zoneRowID: Int64) async throws -> [String]
    /// The user with this record name, if any.
    func user(recordName: String) async throws -> StoredUser?

    // MARK: Server-to-server keys
    func insertServerKey(_ key: StoredServerKey) async throws
    func serverKey(keyID: String) async throws -> StoredServerKey?
    /// A container's keys, revoked ones included, oldest first.
    func serverKeys(containerID: String) async throws -> [StoredServerKey]
    /// Marks a key revoked at `time`; false if there is no such key or it was revoked already.
    func revokeServerKey(keyID: String, at time: Int64) async throws -> Bool

    // MARK: APNs
    /// Sets (or, with nil, removes) a container's APNs credentials.
    func setAPNsCredentials(_ credentials: APNsCredentials?, containerID: String) async throws
    func apnsCredentials(containerID: String) async throws -> APNsCredentials?
    /// Registers a device token for its user, replacing its earlier registration (a device passed
    /// to another user is theirs now); past `maxPerUser`, the user's oldest tokens go.
    func registerAPNsToken(_ token: StoredAPNsToken, maxPerUser: Int) async throws
    /// A user's device tokens in an environment, oldest first; with `liveAt` (ms), only those
    /// whose registering session is still valid then.
    func apnsTokens(containerID: String, environment: ContainerEnvironment, user: String, liveAt: Int64?) async throws -> [StoredAPNsToken]
    /// Forgets a device token (APNs reported it unregistered); false if it was not registered.
    func removeAPNsToken(_ token: String, containerID: String) async throws -> Bool

    // MARK: Maintenance
    /// Removes record and zone tombstones last changed before `time` (ms), advancing the purged
    /// sequences so older tokens expire. Returns how many tombstones went.
    func purgeTombstones(before time: Int64) async throws -> Int

    /// Runs `body` so that if it throws, only its own writes are undone.
    func withSavepoint<T>(_ body: () async throws -> T) async throws -> T
}
