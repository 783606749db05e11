/// A notification as it is delivered (CloudKit's `CKNotification`): on the wire CloudKit's
/// APNs-style payload, `{"aps": {...}, "ck": {...}}`, read through typed properties.
///
/// ``subject`` says what changed: a query's record, a record zone, or a database.
/// ``isPruned`` tells the device it may have missed notifications and should fetch.
public struct PushNotification: Codable, Sendable, Equatable {
    package struct APS: Codable, Sendable, Equatable {
        public struct Alert: Codable, Sendable, Equatable {
            public var body: String?
            public var locKey: String?
            public var locArgs: [String]?
            public var actionLocKey: String?
            public var launchImage: String?

            enum CodingKeys: String, CodingKey {
                case body, locKey = "loc-key", locArgs = "loc-args", actionLocKey = "action-loc-key", launchImage = "launch-image"
            }

            public init(body: String? = nil, locKey: String? = nil, locArgs: [String]? = nil, actionLocKey: String? = nil,
                        launchImage: String? = nil) {
                self.body = body
                self.locKey = locKey
                self.locArgs = locArgs
                self.actionLocKey = actionLocKey
                self.launchImage = launchImage
            }
        }

        public var alert: Alert?
        public var badge: Int?
        public var sound: String?
        public var category: String?
        public var contentAvailable: Int?

        enum CodingKeys: String, CodingKey {
            case alert, badge, sound, category, contentAvailable = "content-available"
        }

        public init(alert: Alert? = nil, badge: Int? = nil, sound: String? = nil, category: String? = nil, contentAvailable: Int? = nil) {
            self.alert = alert
            self.badge = badge
            self.sound = sound
            self.category = category
            self.contentAvailable = contentAvailable
        }
    }

    package struct CK: Codable, Sendable, Equatable {
        /// A query notification.
        public struct Query: Codable, Sendable, Equatable {
            /// Record name, zone name, zone owner, database scope (1 public, 2 private, 3 shared),
            /// reason (1 created, 2 updated, 3 deleted), subscription ID, and the desired fields.
            public var rid: String
            public var zid: String
            public var zoid: String?
            public var dbs: Int
            public var fo: Int
            public var sid: String
            package var af: [String: RecordField]?

            package init(rid: String, zid: String, zoid: String?, dbs: Int, fo: Int, sid: String, af: [String: RecordField]? = nil) {
                self.rid = rid
                self.zid = zid
                self.zoid = zoid
                self.dbs = dbs
                self.fo = fo
                self.sid = sid
                self.af = af
            }

            /// The desired fields of the record, as the subscription's `notificationInfo` asked.
            public var recordFields: [String: FieldValue]? { af?.compactMapValues(\.value) }
        }

        /// A zone notification.
        public struct Zone: Codable, Sendable, Equatable {
            public var zid: String
            public var zoid: String?
            public var dbs: Int
            public var sid: String

            public init(zid: String, zoid: String?, dbs: Int, sid: String) {
                self.zid = zid
                self.zoid = zoid
                self.dbs = dbs
                self.sid = sid
            }
        }

        /// A database notification.
        public struct Database: Codable, Sendable, Equatable {
            public var dbs: Int
            public var sid: String

            public init(dbs: Int, sid: String) {
                self.dbs = dbs
                self.sid = sid
            }
        }

        public var cid: String
        public var nid: String
        /// Set when notifications may have been missed or merged: fetch to catch up.
        public var p: Bool?
        public var qry: Query?
        public var fet: Zone?
        public var met: Database?

        public init(cid: String, nid: String, p: Bool? = nil, qry: Query? = nil, fet: Zone? = nil, met: Database? = nil) {
            self.cid = cid
            self.nid = nid
            self.p = p
            self.qry = qry
            self.fet = fet
            self.met = met
        }
    }

    /// The wire's keys, as CloudKit sends them; apps read the typed properties
    /// (``subject``, ``databaseScope``, ``subscriptionID``, …).
    package var aps: APS
    package var ck: CK

    package init(aps: APS, ck: CK) {
        self.aps = aps
        self.ck = ck
    }
}

extension DatabaseScope {
    /// CloudKit's `CKDatabaseScope` raw value, as notifications carry it.
    public var notificationValue: Int {
        switch self {
        case .public: 1
        case .private: 2
        case .shared: 3
        }
    }
}
