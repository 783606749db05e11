/// Who changed a record, when and from which device (the `created` and `modified` dictionaries).
public struct RecordStamp: Codable, Sendable, Hashable {
    /// Milliseconds since 1970.
    public var timestamp: Int64
    public var userRecordName: String
    public var deviceID: String

    public init(timestamp: Int64, userRecordName: String, deviceID: String) {
        self.timestamp = timestamp
        self.userRecordName = userRecordName
        self.deviceID = deviceID
    }
}

/// A bare `{recordName}` pointer, used by a record's `parent` and `share` keys.
public struct RecordPointer: Codable, Sendable, Hashable {
    public var recordName: String

    public init(recordName: String) { self.recordName = recordName }
}
