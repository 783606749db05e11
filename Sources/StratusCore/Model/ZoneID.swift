/// Identifies a record zone: its name and the user who owns it (CloudKit's Zone ID Dictionary).
///
/// On input the owner may also be spelled `ownerName`, as some clients do; output always uses
/// Apple's `ownerRecordName`.
public struct ZoneID: Codable, Sendable, Hashable {
    /// The name of every database's default zone.
    public static let defaultZoneName = "_defaultZone"
    /// The framework's placeholder for "the current user" as owner.
    public static let defaultOwnerName = "__defaultOwner__"

    public var zoneName: String
    public var ownerRecordName: String?

    public init(zoneName: String = ZoneID.defaultZoneName, ownerRecordName: String? = nil) {
        self.zoneName = zoneName
        self.ownerRecordName = ownerRecordName
    }

    /// The default zone of the addressed database.
    public static let `default` = ZoneID()

    /// Whether this is a database's default zone.
    public var isDefaultZone: Bool { zoneName == Self.defaultZoneName }

    private enum CodingKeys: String, CodingKey {
        case zoneName, ownerRecordName, ownerName
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        zoneName = try container.decodeIfPresent(String.self, forKey: .zoneName) ?? Self.defaultZoneName
        ownerRecordName = try container.decodeIfPresent(String.self, forKey: .ownerRecordName)
            ?? container.decodeIfPresent(String.self, forKey: .ownerName)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(zoneName, forKey: .zoneName)
        try container.encodeIfPresent(ownerRecordName, forKey: .ownerRecordName)
    }
}
