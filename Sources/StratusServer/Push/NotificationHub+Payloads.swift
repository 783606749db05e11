import Foundation
import NIOCore
import StratusCore

/// The notifications a commit makes for a subscription, as CloudKit shapes them (`ck.met`,
/// `ck.fet`, `ck.qry`), each encoded once for every device it goes to.
extension NotificationHub {
    /// One notification for one subscription, with the key a device's mailbox coalesces it by and
    /// the APNs collapse ID the subscription's `collapseIDKey` gives it.
    package struct Outgoing: Sendable {
        var key: String
        var payload: PushNotification
        var collapseID: String?
    }

    /// The notifications a subscription gets for a commit.
    static func notifications(for subscription: CloudSubscription, _ changes: CommittedChanges) -> [Outgoing] {
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
            let triggers = Set(subscription.firesOn ?? CloudSubscription.Trigger.allCases)
            var result: [Outgoing] = []
            for change in changes.records where change.recordType == query.recordType && triggers.contains(change.trigger) {
                let fields = (try? RecordMapper.decodeFields(change.fieldsJSON)) ?? [:]
                guard SubscriptionMatcher.matches(query.filterBy ?? [], recordName: change.recordName, fields: fields) else { continue }
                var recordCK = ck
                recordCK.nid = SecretGenerator.uuid()
                let desired = subscription.notificationInfo?.desiredKeys.map { keys in
                    fields.filter { keys.contains($0.key) }.mapValues { RecordField(AssetLinks.showingChecksums($0)) }
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

    static func encoded(_ notification: PushNotification) -> ByteBuffer {
        ByteBuffer(bytes: (try? JSONEncoder().encode(notification)) ?? Data("{}".utf8))
    }

    /// "You may have missed notifications: fetch" — a pruned database notification.
    static func catchUp(containerID: String) -> PushNotification {
        var ck = PushNotification.CK(cid: containerID, nid: SecretGenerator.uuid())
        ck.p = true
        ck.met = .init(dbs: DatabaseScope.private.notificationValue, sid: "")
        return PushNotification(aps: PushNotification.APS(contentAvailable: 1), ck: ck)
    }
}

extension CloudSubscription.Trigger {
    /// CloudKit's `CKQueryNotificationReason`: created 1, updated 2, deleted 3.
    var notificationReason: Int {
        switch self {
        case .create: 1
        case .update: 2
        case .delete: 3
        }
    }
}
