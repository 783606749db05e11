import StratusCore

/// A record change a request committed, as the notification hub needs it.
package struct RecordChange: Codable, Sendable {
    package var recordName: String
    package var recordType: String
    /// The user who created the record: in the public database, `_creator`'s grants follow it.
    package var creator: String
    package var trigger: CloudSubscription.Trigger
    /// The fields JSON as saved, or as it was before a deletion.
    package var fieldsJSON: [UInt8]

    package init(recordName: String, recordType: String, creator: String, trigger: CloudSubscription.Trigger, fieldsJSON: [UInt8]) {
        self.recordName = recordName
        self.recordType = recordType
        self.creator = creator
        self.trigger = trigger
        self.fieldsJSON = fieldsJSON
    }

    private enum CodingKeys: String, CodingKey {
        case recordName, recordType, creator, trigger, fields
    }

    // The fields travel between instances as a string: `JSONEncoder` writes bytes as an array
    // of numbers, and a batch of 400 records took 50 ms to encode that way.

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        recordName = try container.decode(String.self, forKey: .recordName)
        recordType = try container.decode(String.self, forKey: .recordType)
        // An instance of an earlier build sends none: only those who read every record of the
        // type hear of the change then.
        creator = try container.decodeIfPresent(String.self, forKey: .creator) ?? ""
        trigger = try container.decode(CloudSubscription.Trigger.self, forKey: .trigger)
        fieldsJSON = Array(try container.decode(String.self, forKey: .fields).utf8)
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(recordName, forKey: .recordName)
        try container.encode(recordType, forKey: .recordType)
        try container.encode(creator, forKey: .creator)
        try container.encode(trigger, forKey: .trigger)
        try container.encode(String(decoding: fieldsJSON, as: UTF8.self), forKey: .fields)
    }
}

/// What one request committed in one zone of one database.
package struct CommittedChanges: Codable, Sendable {
    package var database: DatabaseKey
    package var databaseID: Int64
    package var zoneRowID: Int64
    package var zoneName: String
    package var records: [RecordChange] = []
    /// The zone itself was deleted.
    package var zoneDeleted = false
    /// The zone's owner, when the database is a participant's shared database.
    package var zoneOwner: String?
    /// A user with the zone in their shared database, and that database's row.
    package struct Participant: Codable, Sendable {
        package var user: String
        package var sharedDatabaseID: Int64
    }
    /// Who else hears of the commit: the participants of the zone's shares.
    package var participants: [Participant] = []
    /// Whether the zone had shares when the transaction changed it: only then can a participant
    /// hear of it, and only then does publishing look for them.
    package var zoneIsShared = false
    /// The loss alarm the commit raised in the zone (``LossAlarm``).
    package var lossAlarm: LossAlarm?
}
