/// A field value that points at another record in the same zone (CloudKit's Reference Dictionary).
public struct Reference: Codable, Sendable, Hashable {
    /// What happens to the *source* record when the target is deleted.
    public enum Action: String, Codable, Sendable {
        /// Nothing: the reference dangles.
        case none = "NONE"
        /// The source record is deleted with its target, in the same transaction.
        case deleteSelf = "DELETE_SELF"
        /// The target must exist when the reference is saved, and cannot be deleted while referenced.
        case validate = "VALIDATE"
    }

    public var recordName: String
    public var zoneID: ZoneID?
    public var action: Action?

    public init(recordName: String, zoneID: ZoneID? = nil, action: Action? = Action.none) {
        self.recordName = recordName
        self.zoneID = zoneID
        self.action = action
    }
}
