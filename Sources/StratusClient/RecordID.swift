
/// Identifies a record: its name and the zone it lives in (CloudKit's `CKRecord.ID`).
public struct RecordID: Codable, Sendable, Hashable, CustomStringConvertible {
    /// The record's name, unique in its zone.
    public var recordName: String
    /// The zone the record lives in.
    public var zoneID: ZoneID

    /// A record ID; in the default zone unless given one.
    public init(recordName: String, zoneID: ZoneID = .default) {
        self.recordName = recordName
        self.zoneID = zoneID
    }

    public var description: String { "\(zoneID.zoneName)/\(recordName)" }
}

/// An opaque server change token for a zone or a database (CloudKit's `CKServerChangeToken`).
/// Keep it to fetch only what changed after it; compare for equality only.
public struct ServerChangeToken: Codable, Sendable, Hashable {
    /// The server's token, as it sent it.
    public let rawValue: String

    /// A token from a kept raw value.
    public init(rawValue: String) { self.rawValue = rawValue }
}
