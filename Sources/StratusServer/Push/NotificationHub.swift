import Foundation
import Logging
import StratusCore

/// Turns committed changes into CloudKit notifications for the subscriptions they match, and
/// hands them to the connected devices of each subscription's owner and, through APNs, to the
/// apps whose device tokens the owner registered.
///
/// Fed once after every commit with what it changed (``ChangeSet``). Subscriptions are cached per
/// database (``SubscriptionCache``) and reloaded after they change; the devices connected here
/// are ``PushConnections``; the payloads are built in `NotificationHub+Payloads`. Notifications
/// are hints: devices always fetch by change token, so a lost one loses no change.
///
/// With other instances on the same store, the hub tells them (through the store's
/// ``InstanceBus``) of each commit, subscription change and ended session, and hears theirs: each
/// instance delivers to its own connections, and only the committing one pushes through APNs.
package actor NotificationHub {
    /// Who a device connection belongs to.
    package struct Listener: Hashable, Sendable, Codable {
        package var containerID: String
        package var environment: ContainerEnvironment
        package var user: String

        package init(containerID: String, environment: ContainerEnvironment, user: String) {
            self.containerID = containerID
            self.environment = environment
            self.user = user
        }
    }

    private let storage: any StratusStorage
    /// Every commit, for the console's activity page.
    private let activity: ActivityFeed
    private var connections: PushConnections
    private let logger: Logger
    private let apns: APNsProvider
    private let bus: (any InstanceBus)?
    private var subscriptions = SubscriptionCache()
    /// Whether a user may read every record of a public record type, as their query subscriptions'
    /// notifications need, by user and type; forgotten when grants or roles change.
    private var publicReaders: [PublicReader: Bool] = [:]
    /// The answers (console activity streams) that end with their session, as push connections do.
    package nonisolated let sessionStreams = SessionStreams()
    /// Each container's history setting, as this instance last read it.
    private let historyRetention: HistoryRetention
    /// Told of every commit, here and on other instances: the webhook courier delivers it.
    private let webhookBell: WebhookBell

    init(storage: any StratusStorage, mailboxCapacity: Int, maxConnectionsPerUser: Int, maxConnections: Int, apns: APNsProvider,
         activity: ActivityFeed, historyRetention: HistoryRetention, webhookBell: WebhookBell, logger: Logger) {
        self.webhookBell = webhookBell
        self.storage = storage
        self.historyRetention = historyRetention
        self.bus = storage.bus
        self.activity = activity
        self.apns = apns
        connections = PushConnections(mailboxCapacity: mailboxCapacity, maxConnectionsPerUser: maxConnectionsPerUser, maxConnections: maxConnections)
        self.logger = logger
    }

    /// How many push connections (WebSockets and couriers) the listener holds now.
    package func connectionCount(_ listener: Listener) -> Int {
        connections.count(of: listener)
    }

    /// A device connected with a session: its mailbox (see ``PushConnections/open(_:session:catchUp:)``).
    package func connect(_ listener: Listener, session: StoredSession) throws(CloudKitError) -> Mailbox {
        let containerID = listener.containerID
        return try connections.open(listener, session: session, catchUp: { Self.encoded(Self.catchUp(containerID: containerID)) })
    }

    package func disconnect(_ listener: Listener, _ mailbox: Mailbox) {
        connections.close(listener, mailbox)
    }

    /// Closes every push connection opened with these sessions (signed out, or revoked), on
    /// every instance, and drops the cached APNs device lists (the store forgot the tokens the
    /// sessions registered).
    package func endSessions(_ sessionHashes: Set<String>) async {
        guard !sessionHashes.isEmpty else { return }
        connections.closeAll { sessionHashes.contains($0.sessionHash) }
        sessionStreams.end(sessionHashes)
        await apns.forgetDevices()
        await bus?.broadcast(.sessionsEnded(sessionHashes.sorted()))
    }

    /// Closes the push connections whose session expired before `time` (ms).
    package func endSessions(expiredBefore time: Int64) {
        connections.closeAll { $0.sessionExpiresAt <= time }
    }

    /// Closes the push connections whose session no longer exists: revoked by another process
    /// (the `stratus user` commands write to the data directory while the server runs).
    package func endRevokedSessions() async {
        let open = connections.sessionHashes
        guard !open.isEmpty else { return }
        do {
            let live = try await storage.read { transaction in try await open.asyncFilter { try await transaction.session(tokenHash: $0) != nil } }
            await endSessions(open.subtracting(live))
        } catch {
            logger.warning("could not check the sessions of push connections: \(error)")
        }
    }

    /// Forgets a database's cached subscriptions after they changed, on every instance.
    package func subscriptionsChanged(databaseID: Int64) async {
        subscriptions.forget(databaseID)
        await bus?.broadcast(.subscriptionsChanged(databaseID: databaseID))
    }

    /// Forgets who may read what in public databases after grants or roles changed, on every
    /// instance: public query subscriptions are checked against the new ones at their next delivery.
    package func permissionsChanged() async {
        forgetPublicReaders()
        await bus?.broadcast(.permissionsChanged)
    }

    /// Reads a container's history setting again, on every instance, after it changed.
    package func historyRetentionChanged(containerID: String) async {
        historyRetention.forget(containerID)
        await bus?.broadcast(.historyRetentionChanged(containerID: containerID))
    }

    /// Forgets who may read what in public databases, here only: after a change of grants or roles
    /// made elsewhere (another instance, or a `stratus user role` command in another process).
    package func forgetPublicReaders() {
        publicReaders = [:]
    }

    /// Matches what a transaction committed (its ``ChangeSet``) against each database's
    /// subscriptions and delivers the notifications: here, through APNs, and through every other
    /// instance to theirs. Who else hears of a private zone's records (the participants of its
    /// shares) is read now, after the commit, outside its transaction.
    package func publish(_ commits: [CommittedChanges]) async {
        if !commits.isEmpty { webhookBell.ringForCommit() }
        for var changes in commits {
            if changes.lossAlarm != nil { ServerMetrics.lossAlarmRaised() }
            if changes.database.scope == .private && changes.zoneIsShared && !changes.records.isEmpty {
                changes.participants = await participants(hearing: changes)
            }
            await deliver(changes, throughAPNs: true)
            await bus?.broadcast(.committed(changes))
        }
    }

    /// What another instance tells this one.
    package func receive(_ message: InstanceMessage) async {
        switch message {
        case .committed(let changes):
            webhookBell.ringForCommit()
            await deliver(changes, throughAPNs: false)
        case .subscriptionsChanged(let databaseID):
            subscriptions.forget(databaseID)
        case .sessionsEnded(let hashes):
            let ended = Set(hashes)
            connections.closeAll { ended.contains($0.sessionHash) }
            sessionStreams.end(ended)
            await apns.forgetDevices()
        case .permissionsChanged:
            forgetPublicReaders()
        case .historyRetentionChanged(let containerID):
            historyRetention.forget(containerID)
            webhookBell.ring()
        }
    }

    private func deliver(_ changes: CommittedChanges, throughAPNs: Bool) async {
        activity.record(changes)
        await publishToOwner(changes, throughAPNs: throughAPNs)
        if changes.database.scope == .private { await publishToParticipants(changes, throughAPNs: throughAPNs) }
    }

    /// Participants with the zone in their shared database hear of it through their shared
    /// database's subscriptions.
    private func publishToParticipants(_ changes: CommittedChanges, throughAPNs: Bool) async {
        let key = changes.database
        for participant in changes.participants {
            var view = changes
            view.database = DatabaseKey(containerID: key.containerID, environment: key.environment, scope: .shared,
                                        ownerRecordName: participant.user)
            view.databaseID = participant.sharedDatabaseID
            view.zoneOwner = key.ownerRecordName
            await publishToOwner(view, throughAPNs: throughAPNs)
        }
    }

    /// The users with the zone in their shared database who may read a record the commit changed
    /// (a participant hears only of what their shares cover), and those databases' rows.
    private func participants(hearing changes: CommittedChanges) async -> [CommittedChanges.Participant] {
        do {
            return try await storage.read { transaction in
                let key = changes.database, zoneRowID = changes.zoneRowID, changed = changes.records.map(\.recordName)
                return try await transaction.sharedZoneMembers(zoneRowID: zoneRowID).asyncCompactMap { member in
                    let access = ShareAccess(user: member, shares: try await transaction.acceptedShares(zoneRowID: zoneRowID, user: member))
                    guard try await changed.asyncContains(where: { try await access.permission(forRecord: $0, zoneRowID: zoneRowID, in: transaction).canRead }),
                          let databaseID = try await transaction.databaseID(
                              DatabaseKey(containerID: key.containerID, environment: key.environment, scope: .shared, ownerRecordName: member),
                              create: false) else { return nil }
                    return CommittedChanges.Participant(user: member, sharedDatabaseID: databaseID)
                }
            }
        } catch {
            logger.error("could not read who shares a committed zone: \(error)")
            return []
        }
    }

    private func publishToOwner(_ changes: CommittedChanges, throughAPNs: Bool) async {
        do {
            let subscribed = try await subscriptionsOf(changes.databaseID)
            guard !subscribed.isEmpty else { return }
            var firedOnce: [StoredSubscription] = []
            // Asked once per commit, and only when a notification is due.
            var pushesThroughAPNs: Bool?
            for stored in subscribed {
                let notifications = Self.notifications(for: stored.subscription, changes)
                guard !notifications.isEmpty else { continue }
                let listener = Listener(containerID: changes.database.containerID, environment: changes.database.environment, user: stored.owner)
                if changes.database.scope == .public, let recordType = stored.subscription.query?.recordType,
                   try await !readsEveryRecord(of: recordType, listener) {
                    continue
                }
                if changes.database.scope == .public, stored.subscription.subscriptionType == .zone,
                   try await !readsOneRecord(of: changes, listener) {
                    continue
                }
                var delivered = false
                if let devices = connections.mailboxes(of: listener), !devices.isEmpty {
                    for notification in notifications {
                        let json = Self.encoded(notification.payload)
                        for mailbox in devices { mailbox.post(json, key: notification.key) }
                    }
                    delivered = true
                }
                if pushesThroughAPNs == nil { pushesThroughAPNs = throughAPNs ? await apns.isEnabled(containerID: listener.containerID) : false }
                if pushesThroughAPNs == true, await apns.deliver(notifications, to: listener) {
                    delivered = true
                }
                if delivered && stored.subscription.firesOnce == true { firedOnce.append(stored) }
            }
            if !firedOnce.isEmpty { try await removeFired(firedOnce, databaseID: changes.databaseID) }
        } catch {
            logger.error("notifications for a commit failed: \(error)")
        }
    }

    /// A user and a record type of a public database.
    private struct PublicReader: Hashable {
        var listener: Listener
        var recordType: String
    }

    /// Whether the user may read every record of the public record type: a query subscription's
    /// notifications carry the record's name and fields, so they go only to a subscriber who still
    /// may (checked when it was saved, and here at delivery, since a grant may have been revoked).
    private func readsEveryRecord(of recordType: String, _ listener: Listener) async throws -> Bool {
        let key = PublicReader(listener: listener, recordType: recordType)
        if let known = publicReaders[key] { return known }
        let reads = try await storage.read { transaction in
            var roles = PublicPermissions(containerID: listener.containerID, environment: listener.environment, user: listener.user, in: transaction)
            return try await roles.permissions(on: recordType, createdBy: nil).contains(.read)
        }
        publicReaders[key] = reads
        return reads
    }

    /// Whether the user may read one of the public records the commit changed: a zone
    /// subscription's notification tells only that the zone changed, and only a subscriber whose
    /// feed holds one of the changes hears it.
    private func readsOneRecord(of changes: CommittedChanges, _ listener: Listener) async throws -> Bool {
        for recordType in Set(changes.records.map(\.recordType)) {
            if try await readsEveryRecord(of: recordType, listener) { return true }
        }
        let own = changes.records.filter { $0.creator == listener.user }
        guard !own.isEmpty else { return false }
        return try await storage.read { transaction in
            var roles = PublicPermissions(containerID: listener.containerID, environment: listener.environment, user: listener.user, in: transaction)
            for change in own {
                if try await roles.permissions(on: change.recordType, createdBy: change.creator).contains(.read) { return true }
            }
            return false
        }
    }

    private func subscriptionsOf(_ databaseID: Int64) async throws -> [StoredSubscription] {
        if let cached = subscriptions.subscriptions(of: databaseID) { return cached }
        let loaded = try await storage.read { try await $0.subscriptions(databaseID: databaseID, owner: nil) }
        subscriptions.keep(loaded, of: databaseID)
        return loaded
    }

    private func removeFired(_ fired: [StoredSubscription], databaseID: Int64) async throws {
        subscriptions.forget(databaseID)
        try await storage.write { transaction in
            for stored in fired {
                _ = try await transaction.deleteSubscription(databaseID: databaseID, owner: stored.owner, subscriptionID: stored.subscription.subscriptionID)
            }
        }
        await bus?.broadcast(.subscriptionsChanged(databaseID: databaseID))
    }
}
