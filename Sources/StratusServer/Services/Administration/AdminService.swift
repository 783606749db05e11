import Foundation
import StratusCore

/// Administration of containers and accounts: the one service behind the `stratus container` and
/// `stratus user` commands, the identity the `stratus records` commands act as, and the account
/// endpoints users call for themselves (change password, sign out everywhere, delete the account).
///
/// Revoking sessions closes their push connections in this process at once; a server running in
/// another process (the CLI writes to its data directory) closes them at its next session sweep.
package struct AdminService: Sendable {
    let storage: any StratusStorage
    let blobs: any BlobStore
    let incoming: IncomingFiles
    let auth: AuthService
    let hub: NotificationHub
    let containers: ContainerService
    let keys: KeyVault
    /// Revokes the Sign in with Apple token of an account deleted.
    let revoker: AppleTokenRevoker
    let clock: ServerClock
    /// What webhook URLs may be (``WebhookAddressPolicy``).
    let webhookPolicy: WebhookAddressPolicy
    /// Rung when an endpoint changes, so that this instance's courier looks at once.
    let webhookBell: WebhookBell

    /// The most users one listing returns.
    static let maxListedUsers = 1_000

    // MARK: Containers

    /// Creates a container with a fresh API token; `EXISTS` if there is one with that identifier.
    package func createContainer(id: String) async throws -> StoredContainer {
        try NameRules.validateContainerID(id)
        if try await containers.container(id: id) != nil { throw CloudKitError(.exists, "container '\(id)' exists") }
        let audit = AuditLog.entry("container.create", container: id, id, at: clock.milliseconds)
        let container = try await containers.ensureContainer(id: id)
        try await storage.write { try await $0.appendAudit(audit) }
        return container
    }

    package func listContainers() async throws -> [StoredContainer] {
        try await storage.read { try await $0.containers() }
    }

    /// Gives the container a new API token; the old one stops working at once.
    package func rotateAPIToken(containerID: String) async throws -> String {
        let token = SecretGenerator.apiToken()
        let audit = AuditLog.entry("container.rotate-api-token", container: containerID, containerID, at: clock.milliseconds)
        try await storage.write { transaction in
            guard try await transaction.container(id: containerID) != nil else { throw CloudKitError.notFound("no container '\(containerID)'") }
            try await transaction.setAPIToken(containerID: containerID, apiToken: token)
            try await transaction.appendAudit(audit)
        }
        return token
    }

    /// The origins of the web apps that may sign the container's users in through the sign-in page.
    package func webOrigins(containerID: String) async throws -> [String] {
        guard let container = try await containers.container(id: containerID) else { throw CloudKitError.notFound("no container '\(containerID)'") }
        return container.webOrigins
    }

    /// Lets the web app at `origin` sign its users in through the server's sign-in page
    /// (``WebOrigin``). Returns the container's web origins.
    package func addWebOrigin(_ origin: String, containerID: String) async throws -> [String] {
        let origin = try WebOrigin.validated(origin)
        return try await changeWebOrigins(containerID: containerID, AuditLog.entry("web-origin.add", container: containerID, origin, at: clock.milliseconds)) { origins in
            if !origins.contains(origin) { origins.append(origin) }
        }
    }

    /// Stops the web app at `origin` signing users in through the sign-in page; `NOT_FOUND` if it
    /// could not. Returns the container's web origins.
    package func removeWebOrigin(_ origin: String, containerID: String) async throws -> [String] {
        let origin = WebOrigin.normalized(origin) ?? origin
        return try await changeWebOrigins(containerID: containerID, AuditLog.entry("web-origin.remove", container: containerID, origin, at: clock.milliseconds)) { origins in
            guard origins.contains(origin) else { throw CloudKitError.notFound("'\(origin)' is not a web origin of container '\(containerID)'") }
            origins.removeAll { $0 == origin }
        }
    }

    private func changeWebOrigins(containerID: String, _ audit: StoredAuditEntry,
                                  _ change: @escaping @Sendable (inout [String]) throws -> Void) async throws -> [String] {
        try await storage.write { transaction in
            guard var container = try await transaction.container(id: containerID) else { throw CloudKitError.notFound("no container '\(containerID)'") }
            try change(&container.webOrigins)
            guard container.webOrigins.count <= WebOrigin.maxPerContainer else {
                throw CloudKitError.limitExceeded("a container has at most \(WebOrigin.maxPerContainer) web origins")
            }
            try await transaction.setWebOrigins(containerID: containerID, origins: container.webOrigins)
            try await transaction.appendAudit(audit)
            return container.webOrigins
        }
    }

    /// How many days the container keeps record history: its own number, or nil when it follows
    /// the server's `--history-days`.
    package func historyDays(containerID: String) async throws -> Int? {
        guard let container = try await containers.container(id: containerID) else { throw CloudKitError.notFound("no container '\(containerID)'") }
        return container.historyDays
    }

    /// Sets how many days the container keeps record history: 0 keeps none (and writes none), nil
    /// follows the server's `--history-days`. Every instance uses it at once (a server in another
    /// process within ``HistoryRetention/freshness``); versions older than a shortened retention
    /// go at the next maintenance round.
    package func setHistoryDays(_ days: Int?, containerID: String) async throws {
        if let days, !(0...Self.maxHistoryDays).contains(days) {
            throw CloudKitError.badRequest("history days must be 0 (no history) to \(Self.maxHistoryDays)")
        }
        let audit = AuditLog.entry("container.history-days", container: containerID, days.map(String.init) ?? "server default", at: clock.milliseconds)
        try await storage.write { transaction in
            guard try await transaction.container(id: containerID) != nil else { throw CloudKitError.notFound("no container '\(containerID)'") }
            try await transaction.setHistoryDays(containerID: containerID, days: days)
            try await transaction.appendAudit(audit)
        }
        await hub.historyRetentionChanged(containerID: containerID)
    }

    /// The longest a container keeps history: ten years.
    static let maxHistoryDays = 3650

    /// Writes the container into `directory` (which must not exist, or be empty) as a container
    /// archive (``ContainerArchive``): a consistent snapshot taken while the server runs. Password
    /// hashes, sessions and APNs credentials and device tokens only with `includingSecrets`; the
    /// record log (history's versions) only with `includingHistory`.
    package func exportContainer(id: String, to directory: URL, includingSecrets: Bool, includingHistory: Bool,
                                 progress: @escaping @Sendable (TransferProgress) -> Void) async throws -> ArchiveManifest {
        try await ContainerArchive.export(id, from: storage, blobs: blobs, to: directory, at: clock.milliseconds, includingSecrets: includingSecrets,
                                          includingHistory: includingHistory, progress: progress)
    }

    /// Loads a container archive; the store must not have its container. When the store was
    /// empty it takes the archive's epoch, and a server already open on it must be opened again.
    package func importContainer(from directory: URL, progress: @escaping @Sendable (TransferProgress) -> Void) async throws -> ArchiveManifest {
        let manifest = try await ContainerArchive.load(from: directory, into: storage, blobs: blobs, incoming: incoming, progress: progress)
        // The server's entry, not the container's: an archive loaded and exported again is the same archive.
        let audit = AuditLog.entry("container.import", container: nil, "\(manifest.containerID) from \(directory.path)", at: clock.milliseconds)
        try await storage.write { try await $0.appendAudit(audit) }
        return manifest
    }

    /// Gives the store a new epoch after it was restored by other means than `stratus restore`
    /// (`pg_restore`, say): change tokens issued before expire, and devices list their zones
    /// again instead of missing changes made after the dump. Servers open on the store must be
    /// started again.
    package func startNewEpoch() async throws {
        let epoch = Backup.newEpoch(other: storage.epoch)
        try await storage.write { try await Backup.begin(epoch: epoch, in: $0) }
    }

    /// Copies this whole store into `target`, which must be empty, and checks the copy
    /// (``StoreCopy``).
    package func copyStore(to target: AdminService, progress: @escaping @Sendable (TransferProgress) -> Void) async throws -> StoreCopy.Summary {
        try await StoreCopy.copy(from: self, to: target, progress: progress)
    }

    // MARK: Users

    /// The container's users in username order, those whose username or email address contains
    /// `text` when it is given; at most ``maxListedUsers``.
    package func listUsers(containerID: String, matching text: String? = nil) async throws -> [StoredUser] {
        try await storage.read { try await $0.users(containerID: containerID, matching: text, limit: Self.maxListedUsers) }
    }

    /// The container's user with that username; `NOT_FOUND` if there is none.
    package func user(username: String, containerID: String) async throws -> StoredUser {
        try await storage.read { try await Self.user(username, containerID: containerID, in: $0) }
    }

    /// Creates an account, as signing up does but without signing it in.
    package func createUser(containerID: String, username: String, password: String, email: String? = nil) async throws -> StoredUser {
        let user = try await auth.newUser(Credentials(username: username, password: password, email: email), containerID: containerID)
        let audit = AuditLog.entry("user.create", container: containerID, username, at: clock.milliseconds)
        try await storage.write { transaction in
            guard try await transaction.container(id: containerID) != nil else { throw CloudKitError.notFound("no container '\(containerID)'") }
            try await transaction.insertUser(user)
            try await transaction.appendAudit(audit)
        }
        return user
    }

    /// Disables an account (its sessions and push connections end, and it cannot sign in) or
    /// enables it again. Returns whether anything changed.
    @discardableResult
    package func setDisabled(_ disabled: Bool, username: String, containerID: String) async throws -> Bool {
        let audit = AuditLog.entry(disabled ? "user.disable" : "user.enable", container: containerID, username, at: clock.milliseconds)
        let (changed, revoked) = try await storage.write { transaction in
            let user = try await Self.user(username, containerID: containerID, in: transaction)
            guard (user.disabledAt != nil) != disabled else { return (false, [String]()) }
            try await transaction.setUserDisabled(user: user.userRecordName, at: disabled ? clock.milliseconds : nil)
            try await transaction.appendAudit(audit)
            return try await (true, disabled ? transaction.deleteSessions(user: user.userRecordName, except: nil) : [])
        }
        await end(revoked)
        return changed
    }

    /// Sets a new password for a user who lost theirs; every session of theirs ends.
    package func resetPassword(username: String, containerID: String, to password: String) async throws {
        let hash = try await auth.hashPassword(password)
        let audit = AuditLog.entry("user.reset-password", container: containerID, username, at: clock.milliseconds)
        let revoked = try await storage.write { transaction in
            let user = try await Self.user(username, containerID: containerID, in: transaction)
            try await transaction.setPasswordHash(user: user.userRecordName, passwordHash: hash)
            try await transaction.appendAudit(audit)
            return try await transaction.deleteSessions(user: user.userRecordName, except: nil)
        }
        await end(revoked)
    }

    /// Ends every session of the user, on every device, and their push connections. Returns how
    /// many sessions ended.
    @discardableResult
    package func signOutEverywhere(user: String) async throws -> Int {
        let revoked = try await storage.write { try await $0.deleteSessions(user: user, except: nil) }
        await end(revoked)
        return revoked.count
    }

    /// Deletes an account and everything private to it, in one transaction:
    /// - every zone of the user's private databases (both environments), their records and the
    ///   shares they hold: each zone leaves its participants' shared databases, as a deleted zone;
    /// - the user's place in other users' shares (the owners' share records change);
    /// - the user's subscriptions, sessions (and push connections), APNs tokens, email codes and
    ///   security roles, then the user;
    /// - the revocation of their Sign in with Apple refresh token, queued for Apple
    ///   (``AppleTokenRevoker``): the deletion does not wait for it;
    /// - after the commit, the user's data key (``KeyVault/destroyKey(of:)``): what was sealed for
    ///   them cannot be opened again, from the database or from any backup of it.
    ///
    /// Records the user created in the public database stay: they belong to the app's public
    /// data, and their `created.userRecordName` names a user who no longer exists.
    package func deleteAccount(user: String, containerID: String) async throws {
        let revoked = try await storage.write(publishingTo: hub) { transaction, changes in
            guard let stored = try await transaction.user(recordName: user), stored.containerID == containerID else {
                throw CloudKitError.notFound("no such user in container '\(containerID)'")
            }
            for environment in ContainerEnvironment.allCases {
                for scope in [DatabaseScope.public, .private, .shared] {
                    let key = DatabaseKey(containerID: containerID, environment: environment, scope: scope,
                                          ownerRecordName: scope == .public ? "" : user)
                    guard let databaseID = try await transaction.databaseID(key, create: false) else { continue }
                    for subscription in try await transaction.subscriptions(databaseID: databaseID, owner: user) {
                        _ = try await transaction.deleteSubscription(databaseID: databaseID, owner: user,
                                                               subscriptionID: subscription.subscription.subscriptionID)
                        changes.subscriptionsChanged(databaseID: databaseID)
                    }
                    guard scope == .private else { continue }
                    for zone in try await transaction.liveZones(databaseID: databaseID) {
                        _ = try await ZoneService.delete(zone, of: key, at: clock.milliseconds, loggingAs: nil, in: changes)
                    }
                    // Its zones deleted before, whose records' last versions the log kept.
                    try await transaction.purgeDatabaseHistory(databaseID: databaseID)
                }
            }
            for zoneRowID in try await transaction.zonesSharedWith(user: user) {
                guard let zone = try await transaction.zone(rowID: zoneRowID), !zone.deleted,
                      let owner = try await transaction.databaseKey(id: zone.databaseID) else { continue }
                let access = DatabaseAccess(containerID: containerID, environment: owner.environment, scope: .shared,
                                            userRecordName: user, deviceID: "", origin: "", session: nil)
                try await ShareOperations(changes: changes, grant: ZoneGrant(zone: zone, owner: owner.ownerRecordName, sharing: nil),
                                          access: access).removeParticipant(user)
            }
            let revoked = try await transaction.deleteSessions(user: user, except: nil)
            try await AppleTokenRevoker.enqueue(stored.apple, of: containerID, at: clock.milliseconds, in: transaction)
            try await transaction.deleteUser(recordName: user)
            return revoked
        }
        revoker.nudge()
        try await keys.destroyKey(of: .user(user))
        await end(revoked)
    }

    /// Deletes the account of the user with that username (see ``deleteAccount(user:containerID:)``).
    package func deleteUser(username: String, containerID: String) async throws {
        let audit = AuditLog.entry("user.delete", container: containerID, username, at: clock.milliseconds)
        try await deleteAccount(user: try await user(username: username, containerID: containerID).userRecordName, containerID: containerID)
        try await storage.write { try await $0.appendAudit(audit) }
    }

    // MARK: Audit log

    /// The newest entries of the administrators' audit log (of one container, or all), at most
    /// ``AuditLog/maxEntries``.
    package func auditEntries(containerID: String? = nil, limit: Int = AuditLog.maxEntries) async throws -> [StoredAuditEntry] {
        try await storage.read { try await $0.auditEntries(containerID: containerID, limit: min(limit, AuditLog.maxEntries)) }
    }

    // MARK: Records

    /// Who the `stratus records` commands act as: in the public database the server itself (the
    /// identity of server-to-server keys, which every security role admits), in a private
    /// database its owner.
    package func access(containerID: String, environment: ContainerEnvironment, scope: DatabaseScope, username: String?,
                        origin: String) async throws -> DatabaseAccess {
        guard try await containers.container(id: containerID) != nil else { throw CloudKitError.notFound("no container '\(containerID)'") }
        var user: String?
        if let username { user = try await self.user(username: username, containerID: containerID).userRecordName }
        return DatabaseAccess(containerID: containerID, environment: environment, scope: scope,
                              userRecordName: scope == .public ? ServerKeyService.identity : user,
                              deviceID: "stratus-cli", origin: origin, session: nil)
    }

    /// A page of a zone's records (not tombstones) in the order they last changed, for the
    /// console's data browser: any database, the public one included (where CloudKit offers no
    /// change feed). `after` is the `next` of the page before (0 for the first).
    package func browse(zone zoneName: String, _ access: DatabaseAccess, after: Int64, limit: Int) async throws -> (records: [StoredRecord], next: Int64?) {
        let key = DatabaseKey(containerID: access.containerID, environment: access.environment, scope: access.scope,
                              ownerRecordName: access.scope == .public ? "" : access.userRecordName ?? "")
        return try await storage.read { transaction in
            guard let databaseID = try await transaction.databaseID(key, create: false),
                  let zone = try await transaction.liveZone(databaseID: databaseID, zoneName: zoneName) else { return ([], nil) }
            let rows = try await transaction.recordChanges(zoneRowID: zone.rowID, after: after, skippingDeletionsThrough: .max, limit: limit + 1,
                                                     maxBytes: .max, recordTypes: nil)
            let page = Array(rows.prefix(limit))
            return (page, rows.count > limit ? page.last?.sequence : nil)
        }
    }

    /// Records in the audit log that the current administrator was shown a record's encrypted
    /// fields (the console's record page, the one place that shows them).
    package func auditShownEncryptedFields(_ fields: Set<String>, of recordName: String, zone: String, _ access: DatabaseAccess) async throws {
        let owner = access.scope == .public ? "" : " of \(access.userRecordName ?? "")"
        let audit = AuditLog.entry("record.show-encrypted", container: access.containerID,
                                   "\(access.scope.rawValue) \(zone)/\(recordName)\(owner): \(fields.sorted().joined(separator: ", "))",
                                   at: clock.milliseconds)
        try await storage.write { try await $0.appendAudit(audit) }
    }

    /// Records in the audit log that the current administrator restored `what` (a record to a
    /// version, an undelete, a zone to a moment) in the database `access` reaches.
    package func auditRestore(_ what: String, _ access: DatabaseAccess) async throws {
        let owner = access.scope == .public ? "" : " of \(access.userRecordName ?? "")"
        let audit = AuditLog.entry("history.restore", container: access.containerID, "\(access.scope.rawValue) \(what)\(owner)", at: clock.milliseconds)
        try await storage.write { try await $0.appendAudit(audit) }
    }

    // MARK: Helpers

    private func end(_ sessions: [String]) async {
        await hub.endSessions(Set(sessions))
    }

    private static func user(_ username: String, containerID: String, in transaction: any StorageTransaction) async throws -> StoredUser {
        guard let user = try await transaction.user(containerID: containerID, username: username) else {
            throw CloudKitError.notFound("no user '\(username)' in container '\(containerID)'")
        }
        return user
    }
}
