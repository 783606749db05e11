/// A file attached to a record (CloudKit's Asset Dictionary). The upload flow that produces
/// `fileChecksum` and `receipt` is served by `assets/upload`; fetched records carry `downloadURL`.
public struct Asset: Codable, Sendable, Hashable {
    public var fileChecksum: String?
    public var size: Int64?
    public var referenceChecksum: String?
    public var wrappingKey: String?
    public var receipt: String?
    public var downloadURL: String?

    public init(fileChecksum: String? = nil, size: Int64? = nil, referenceChecksum: String? = nil,
                wrappingKey: String? = nil, receipt: String? = nil, downloadURL: String? = nil) {
        self.fileChecksum = fileChecksum
        self.size = size
        self.referenceChecksum = referenceChecksum
        self.wrappingKey = wrappingKey
        self.receipt = receipt
        self.downloadURL = downloadURL
    }
}
