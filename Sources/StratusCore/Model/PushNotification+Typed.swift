/// Why a query notification was sent (CloudKit's `CKQueryNotification.Reason`).
public enum QueryNotificationReason: Int, Sendable, Equatable {
    /// The record was created.
    case recordCreated = 1
    /// The record was changed.
    case recordUpdated = 2
    /// The record was deleted.
    case recordDeleted = 3
}

extension PushNotification {
    /// What a notification is about, typed as CloudKit's `CKNotification` subclasses are; the wire
    /// keys it is read from (`ck.qry`, `ck.fet`, `ck.met`) are the server's business.
    public enum Subject: Sendable, Equatable {
        /// A record that a query subscription matches was created, updated or deleted
        /// (`CKQueryNotification`): its name and zone, why, and the fields the subscription's
        /// `desiredKeys` asked for.
        case query(recordName: String, zoneID: ZoneID, reason: QueryNotificationReason, recordFields: [String: FieldValue])
        /// Records of a zone changed (`CKRecordZoneNotification`).
        case recordZone(ZoneID)
        /// Something in a database changed (`CKDatabaseNotification`).
        case database
    }

    /// What the notification is about; nil for a payload this client does not understand.
    public var subject: Subject? {
        if let query = ck.qry {
            guard let reason = QueryNotificationReason(rawValue: query.fo) else { return nil }
            return .query(recordName: query.rid, zoneID: ZoneID(zoneName: query.zid, ownerRecordName: query.zoid), reason: reason,
                          recordFields: query.recordFields ?? [:])
        }
        if let zone = ck.fet { return .recordZone(ZoneID(zoneName: zone.zid, ownerRecordName: zone.zoid)) }
        if ck.met != nil { return .database }
        return nil
    }

    /// The database the change is in (`CKNotification`'s `databaseScope`).
    public var databaseScope: DatabaseScope? {
        DatabaseScope(notificationValue: ck.qry?.dbs ?? ck.fet?.dbs ?? ck.met?.dbs ?? 0)
    }

    /// The subscription that fired (`CKNotification.subscriptionID`); nil for a catch-up
    /// notification, which no subscription sent.
    public var subscriptionID: String? {
        let id = ck.qry?.sid ?? ck.fet?.sid ?? ck.met?.sid
        return id?.isEmpty == false ? id : nil
    }

    /// The container (`CKNotification.containerIdentifier`).
    public var containerIdentifier: String { ck.cid }

    /// The notification's unique ID (`CKNotification.notificationID`).
    public var notificationID: String { ck.nid }

    /// Whether notifications may have been missed or merged before this one
    /// (`CKNotification.isPruned`): fetch everything to catch up. A connection's first
    /// notification is one.
    public var isPruned: Bool { ck.p == true }

    /// The alert text the subscription's `notificationInfo` asked for, if any.
    public var alertBody: String? { aps.alert?.body }

    /// The key of a localized alert text (`CKNotification.alertLocalizationKey`).
    public var alertLocalizationKey: String? { aps.alert?.locKey }

    /// The arguments of the localized alert text (`CKNotification.alertLocalizationArgs`).
    public var alertLocalizationArgs: [String]? { aps.alert?.locArgs }

    /// The app icon's badge the subscription asked for (`CKNotification.badge`).
    public var badge: Int? { aps.badge }

    /// The name of the sound the subscription asked for (`CKNotification.soundName`).
    public var soundName: String? { aps.sound }

    /// The notification category the subscription asked for (`CKNotification.category`).
    public var category: String? { aps.category }
}

extension DatabaseScope {
    /// The scope of CloudKit's `CKDatabaseScope` raw value, as notifications carry it (1 public,
    /// 2 private, 3 shared).
    public init?(notificationValue: Int) {
        switch notificationValue {
        case 1: self = .public
        case 2: self = .private
        case 3: self = .shared
        default: return nil
        }
    }
}
