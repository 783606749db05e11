import StratusCore

/// A record change a request committed, as the notification hub needs it.
package struct RecordChange: Codable, Sendable {
    package var recordName: String
    package var recordType: String
    package var trigger: Subscription.Trigger
    /// The fields JSON as saved, or as it was before a deletion.
    package var fieldsJSON: [UInt8]
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
}
