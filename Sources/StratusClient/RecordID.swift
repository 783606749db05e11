
/// Identifies a record: its name and the zone it lives in (CloudKit's `CKRecord.ID`).
public struct RecordID: Codable, Sendable, Hashable, CustomStringConvertible {
    public var recordName: String
    public var zoneID: ZoneID

    public init(recordName: String, zoneID: ZoneID = .default) {
        self.recordName = recordName
        self.zoneID = zoneID
    }

    public var description: String { "\(zoneID.zoneName)/\(recordName)" }
}

/// An opaque server change token for a zone or a database (CloudKit's `CKServerChangeToken`).
/// Keep it to fetch only what changed after it; compare for equality only.
public struct ServerChangeToken: Codable, Sendable, Hashable {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
}
