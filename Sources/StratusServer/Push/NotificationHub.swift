import Foundation
import Logging
import StratusCore

/// Turns committed changes into CloudKit notifications for the subscriptions they match, and
/// hands them to the connected devices of each subscription's owner and, through APNs, to the
/// apps whose device tokens the owner registered.
///
/// Fed after every commit. Subscriptions are cached per database and reloaded after they change.
/// Notifications are hints: devices always fetch by change token, so a lost one loses no change.
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
    private let mailboxCapacity: Int
    /// Every commit, for the console's activity page.
    private let activity: ActivityFeed
    /// Push connections (WebSockets and couriers) one user may hold at once, and all users together.
    private let maxConnectionsPerUser: Int
    private let maxConnections: Int
    /// Push connections held now.
    package private(set) var connectionCount = 0
    private let logger: Logger
    private let apns: APNsProvider
    private let bus: (any InstanceBus)?
    /// Each database's subscriptions and their size as sent, while they fit ``maxCachedSubscriptionBytes``
    /// in all.
    private var subscriptions: [Int64: (list: [StoredSubscription], bytes: Int)] = [:]
    private var cachedSubscriptionBytes = 0
    /// The subscriptions the hub keeps in memory, in bytes as sent: past it, it forgets the cache and
    /// starts again; a database's larger than it are read at each commit.
    static let maxCachedSubscriptionBytes = 64 * 1024 * 1024
    /// Whether a user may read every record of a public record type, as their query subscriptions'
    /// notifications need, by user and type; forgotten when grants or roles change.
    private var publicReaders: [PublicReader: Bool] = [:]
    private var mailboxes: [Listener: [ObjectIdentifier: Mailbox]] = [:]

    init(storage: any StratusStorage, mailboxCapacity: Int, maxConnectionsPerUser: Int, maxConnections: Int, apns: APNsProvider,
         activity: ActivityFeed, logger: Logger) {
        self.storage = storage
        self.bus = storage.bus
        self.activity = activity
        self.apns = apns
        self.mailboxCapacity = mailboxCapacity
        self.maxConnectionsPerUser = maxConnectionsPerUser
        self.maxConnections = maxConnections
        self.logger = logger
    }

    /// How many push connections (WebSockets and couriers) the listener holds now.
    package func connectionCount(_ listener: Listener) -> Int {
        mailboxes[listener]?.count ?? 0
    }

    /// A device connected with a session: its mailbox, which starts with a notification telling
    /// it to fetch (it may have missed some while it was away). Past `maxConnectionsPerUser`
    /// connections of the user, or `maxConnections` in all, the connection is refused with
    /// `THROTTLED` and a `retryAfter`.
    package func connect(_ listener: Listener, session: StoredSession) throws(CloudKitError) -> Mailbox {
        guard connectionCount < maxConnections else {
            throw CloudKitError(.throttled, "the server holds as many push connections as it may (\(maxConnections)); retry later",
                                retryAfter: Self.connectionRetryAfter)
        }
        guard (mailboxes[listener]?.count ?? 0) < maxConnectionsPerUser else {
            throw CloudKitError(.throttled, "a user may hold at most \(maxConnectionsPerUser) push connections; close some first",
                                retryAfter: Self.connectionRetryAfter)
        }
        let catchUp = Self.encoded(Self.catchUp(containerID: listener.containerID))
        let mailbox = Mailbox(capacity: mailboxCapacity, overflow: catchUp, session: session)
        mailboxes[listener, default: [:]][ObjectIdentifier(mailbox)] = mailbox
        connectionCount += 1
        ServerMetrics.pushConnections(connectionCount)
        mailbox.post(catchUp, key: "overflow")
        return mailbox
    }

    package func disconnect(_ listener: Listener, _ mailbox: Mailbox) {
        mailbox.close()
        guard mailboxes[listener]?.removeValue(forKey: ObjectIdentifier(mailbox)) != nil else { return }
        if mailboxes[listener]?.isEmpty == true { mailboxes[listener] = nil }
        connectionCount -= 1
        ServerMetrics.pushConnections(connectionCount)
    }

    /// The seconds a refused push connection is told to wait.
    static let connectionRetryAfter = 30

    /// Closes every push connection opened with these sessions (signed out, or revoked), on
    /// every instance, and drops the cached APNs device lists (the store forgot the tokens the
    /// sessions registered).
    package func endSessions(_ sessionHashes: Set<String>) async {
        guard !sessionHashes.isEmpty else { return }
        disconnectAll { sessionHashes.contains($0.sessionHash) }
        await apns.forgetDevices()
        await bus?.broadcast(.sessionsEnded(sessionHashes.sorted()))
    }

    /// Closes the push connections whose session expired before `time` (ms).
    package func endSessions(expiredBefore time: Int64) {
        disconnectAll { $0.sessionExpiresAt <= time }
    }

    /// Closes the push connections whose session no longer exists: revoked by another process
    /// (the `stratus user` commands write to the data directory while the server runs).
    package func endRevokedSessions() async {
        let open = Set(mailboxes.values.flatMap { $0.values.map(\.sessionHash) })
        guard !open.isEmpty else { return }
        do {
            let live = try await storage.read { transaction in try await open.asyncFilter { try await transaction.session(tokenHash: $0) != nil } }
            await endSessions(open.subtracting(live))
        } catch {
            logger.warning("could not check the sessions of push connections: \(error)")
        }
    }

    private func disconnectAll(where ends: (Mailbox) -> Bool) {
        for (listener, devices) in mailboxes {
            for mailbox in devices.values where ends(mailbox) { disconnect(listener, mailbox) }
        }
    }


    /// Forgets a database's cached subscriptions after they changed, on every instance.
    package func subscriptionsChanged(databaseID: Int64) async {
        forgetSubscriptions(of: databaseID)
        await bus?.broadcast(.subscriptionsChanged(databaseID: databaseID))
    }

    /// Forgets who may read what in public databases after grants or roles changed, on every
    /// instance: public query subscriptions are checked against the new ones at their next delivery.
    package func permissionsChanged() async {
        forgetPublicReaders()
        await bus?.broadcast(.permissionsChanged)
    }

    /// Forgets who may read what in public databases, here only: after a change of grants or roles
    /// made elsewhere (another instance, or a `stratus user role` command in another process).
    package func forgetPublicReaders() {
        publicReaders = [:]
    }

    /// Matches a commit against its database's subscriptions and delivers the notifications:
    /// here, through APNs, and through every other instance to theirs.
    package func publish(_ changes: CommittedChanges) async {
        await deliver(changes, throughAPNs: true)
        await bus?.broadcast(.committed(changes))
    }

    /// What another instance tells this one.
    package func receive(_ message: InstanceMessage) async {
        switch message {
        case .committed(let changes):
            await deliver(changes, throughAPNs: false)
        case .subscriptionsChanged(let databaseID):
            forgetSubscriptions(of: databaseID)
        case .sessionsEnded(let hashes):
            let ended = Set(hashes)
            disconnectAll { ended.contains($0.sessionHash) }
            await apns.forgetDevices()
        case .permissionsChanged:
            forgetPublicReaders()
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

    /// The users with a zone in their shared database, and those databases' rows: read in the
    /// commit's own transaction, so publishing needs no read of its own.
    static func participants(of zoneRowID: Int64, owner key: DatabaseKey,
                             in transaction: any StorageTransaction) async throws -> [CommittedChanges.Participant] {
        try await transaction.sharedZoneMembers(zoneRowID: zoneRowID).asyncCompactMap { member in
            let shared = DatabaseKey(containerID: key.containerID, environment: key.environment, scope: .shared, ownerRecordName: member)
            return try await transaction.databaseID(shared, create: false).map { CommittedChanges.Participant(user: member, sharedDatabaseID: $0) }
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
                var delivered = false
                if let devices = mailboxes[listener]?.values, !devices.isEmpty {
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

    private func subscriptionsOf(_ databaseID: Int64) async throws -> [StoredSubscription] {
        if let cached = subscriptions[databaseID] { return cached.list }
        let loaded = try await storage.read { try await $0.subscriptions(databaseID: databaseID, owner: nil) }
        let bytes = loaded.reduce(0) { $0 + $1.subscription.sentSize }
        if bytes <= Self.maxCachedSubscriptionBytes {
            if cachedSubscriptionBytes + bytes > Self.maxCachedSubscriptionBytes {
                subscriptions = [:]
                cachedSubscriptionBytes = 0
            }
            subscriptions[databaseID] = (loaded, bytes)
            cachedSubscriptionBytes += bytes
        }
        return loaded
    }

    private func forgetSubscriptions(of databaseID: Int64) {
        cachedSubscriptionBytes -= subscriptions.removeValue(forKey: databaseID)?.bytes ?? 0
    }

    private func removeFired(_ fired: [StoredSubscription], databaseID: Int64) async throws {
        forgetSubscriptions(of: databaseID)
        try await storage.write { transaction in
            for stored in fired {
                _ = try await transaction.deleteSubscription(databaseID: databaseID, owner: stored.owner, subscriptionID: stored.subscription.subscriptionID)
            }
        }
        await bus?.broadcast(.subscriptionsChanged(databaseID: databaseID))
    }

    // MARK: Building notifications

    /// One notification for one subscription, with the key a device's mailbox coalesces it by and
    /// the APNs collapse ID the subscription's `collapseIDKey` gives it.
    package struct Outgoing: Sendable {
        var key: String
        var payload: PushNotification
        var collapseID: String?
    }

    /// The notifications a subscription gets for a commit.
    static func notifications(for subscription: Subscription, _ changes: CommittedChanges) -> [Outgoing] {
        let scope = changes.database.scope.notificationValue
        let zoneOwner = changes.database.scope == .public ? nil : changes.zoneOwner ?? changes.database.ownerRecordName
        let sid = subscription.subscriptionID
        var ck = PushNotification.CK(cid: changes.database.containerID, nid: SecretGenerator.uuid())
        switch subscription.subscriptionType {
        case .database:
            ck.met = .init(dbs: scope, sid: sid)
            return [Outgoing(key: "met:\(sid)", payload: PushNotification(aps: aps(subscription.notificationInfo), ck: ck))]
        case .zone:
            guard subscription.zoneID?.zoneName ?? ZoneID.defaultZoneName == changes.zoneName else { return [] }
            ck.fet = .init(zid: changes.zoneName, zoid: zoneOwner, dbs: scope, sid: sid)
            return [Outgoing(key: "fet:\(sid):\(changes.zoneName)", payload: PushNotification(aps: aps(subscription.notificationInfo), ck: ck))]
        case .query:
            guard let query = subscription.query else { return [] }
            if subscription.zoneWide != true, let zone = subscription.zoneID, zone.zoneName != changes.zoneName { return [] }
            let triggers = Set(subscription.firesOn ?? Subscription.Trigger.allCases)
            var result: [Outgoing] = []
            for change in changes.records where change.recordType == query.recordType && triggers.contains(change.trigger) {
                let fields = (try? RecordMapper.decodeFields(change.fieldsJSON)) ?? [:]
                guard SubscriptionMatcher.matches(query.filterBy ?? [], recordName: change.recordName, fields: fields) else { continue }
                var recordCK = ck
                recordCK.nid = SecretGenerator.uuid()
                let desired = subscription.notificationInfo?.desiredKeys.map { keys in
                    fields.filter { keys.contains($0.key) }.mapValues(RecordField.init)
                }
                recordCK.qry = .init(rid: change.recordName, zid: changes.zoneName, zoid: zoneOwner, dbs: scope,
                                     fo: change.trigger.notificationReason, sid: sid, af: desired)
                result.append(Outgoing(key: "qry:\(sid):\(changes.zoneName):\(change.recordName)",
                                       payload: PushNotification(aps: aps(subscription.notificationInfo), ck: recordCK),
                                       collapseID: collapseID(subscription.notificationInfo, fields)))
                if subscription.firesOnce == true { break }
            }
            return result
        }
    }

    /// The value of the record's `collapseIDKey` field as an APNs collapse ID (at most 64 bytes).
    private static func collapseID(_ info: NotificationInfo?, _ fields: [String: FieldValue]) -> String? {
        guard let key = info?.collapseIDKey, let value = fields[key] else { return nil }
        let text: String
        switch value {
        case .string(let string): text = string
        case .int64(let number): text = String(number)
        case .reference(let reference): text = reference.recordName
        default: return nil
        }
        return text.isEmpty || text.utf8.count > 64 ? nil : text
    }

    private static func aps(_ info: NotificationInfo?) -> PushNotification.APS {
        var aps = PushNotification.APS()
        guard let info else { return aps }
        if info.alertBody != nil || info.alertLocalizationKey != nil {
            aps.alert = .init(body: info.alertBody, locKey: info.alertLocalizationKey, locArgs: info.alertLocalizationArgs,
                              actionLocKey: info.alertActionLocalizationKey, launchImage: info.alertLaunchImage)
        }
        aps.sound = info.soundName
        aps.category = info.category
        if info.shouldBadge == true { aps.badge = 1 }
        if info.shouldSendContentAvailable == true { aps.contentAvailable = 1 }
        return aps
    }

    static func encoded(_ notification: PushNotification) -> String {
        (try? String(decoding: JSONEncoder().encode(notification), as: UTF8.self)) ?? "{}"
    }

    /// "You may have missed notifications: fetch" — a pruned database notification.
    static func catchUp(containerID: String) -> PushNotification {
        var ck = PushNotification.CK(cid: containerID, nid: SecretGenerator.uuid())
        ck.p = true
        ck.met = .init(dbs: DatabaseScope.private.notificationValue, sid: "")
        return PushNotification(aps: PushNotification.APS(contentAvailable: 1), ck: ck)
    }
}

extension Subscription.Trigger {
    /// CloudKit's `CKQueryNotificationReason`: created 1, updated 2, deleted 3.
    var notificationReason: Int {
        switch self {
        case .create: 1
        case .update: 2
        case .delete: 3
        }
    }
}
