/// A standing request to be told about changes (CloudKit's `CKSubscription`; on the wire, its
/// Subscription Dictionary).
///
/// `query` subscriptions fire for records of a type matching a filter, on the `firesOn` kinds of
/// change; `zone` subscriptions for any change in a zone; `database` subscriptions (a Stratus
/// extension to the wire format; CloudKit's framework has them) for any change in the database.
public struct CloudSubscription: Codable, Sendable, Equatable {
    public enum Kind: String, Codable, Sendable {
        case query
        case zone
        /// *Extension*: CloudKit Web Services has no database type; its framework does.
        case database
    }

    /// A kind of record change a query subscription fires on.
    public enum Trigger: String, Codable, Sendable, CaseIterable {
        case create, update, delete
    }

    public var subscriptionID: String
    public var subscriptionType: Kind
    /// The zone of a zone subscription, or the zone a query subscription is limited to.
    public var zoneID: ZoneID?
    public var query: CloudQuery?
    /// For query subscriptions; all three when absent.
    public var firesOn: [Trigger]?
    /// A query subscription that fires once and is then deleted.
    public var firesOnce: Bool?
    /// Whether a query subscription watches every zone of the database.
    public var zoneWide: Bool?
    public var notificationInfo: NotificationInfo?

    public init(subscriptionID: String, subscriptionType: Kind, zoneID: ZoneID? = nil, query: CloudQuery? = nil, firesOn: [Trigger]? = nil,
                firesOnce: Bool? = nil, zoneWide: Bool? = nil, notificationInfo: NotificationInfo? = nil) {
        self.subscriptionID = subscriptionID
        self.subscriptionType = subscriptionType
        self.zoneID = zoneID
        self.query = query
        self.firesOn = firesOn
        self.firesOnce = firesOnce
        self.zoneWide = zoneWide
        self.notificationInfo = notificationInfo
    }
}

/// What a subscription's notifications carry besides the change (CloudKit's Notification Info
/// Dictionary). Stored and echoed; alert fields are copied into the notification's `aps`.
public struct NotificationInfo: Codable, Sendable, Equatable {
    public var alertBody: String?
    public var alertLocalizationKey: String?
    public var alertLocalizationArgs: [String]?
    public var alertActionLocalizationKey: String?
    public var alertLaunchImage: String?
    public var soundName: String?
    public var shouldBadge: Bool?
    public var shouldSendContentAvailable: Bool?
    public var category: String?
    /// Fields of the record copied into a query notification (`af`).
    public var desiredKeys: [String]?
    /// A field of the record whose value becomes the APNs `apns-collapse-id`: a newer notification
    /// with the same value replaces an undelivered older one on the device.
    public var collapseIDKey: String?

    public init(alertBody: String? = nil, alertLocalizationKey: String? = nil, alertLocalizationArgs: [String]? = nil,
                alertActionLocalizationKey: String? = nil, alertLaunchImage: String? = nil, soundName: String? = nil,
                shouldBadge: Bool? = nil, shouldSendContentAvailable: Bool? = nil, category: String? = nil, desiredKeys: [String]? = nil,
                collapseIDKey: String? = nil) {
        self.alertBody = alertBody
        self.alertLocalizationKey = alertLocalizationKey
        self.alertLocalizationArgs = alertLocalizationArgs
        self.alertActionLocalizationKey = alertActionLocalizationKey
        self.alertLaunchImage = alertLaunchImage
        self.soundName = soundName
        self.shouldBadge = shouldBadge
        self.shouldSendContentAvailable = shouldSendContentAvailable
        self.category = category
        self.desiredKeys = desiredKeys
        self.collapseIDKey = collapseIDKey
    }
}
