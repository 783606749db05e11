/// The body of `assets/upload`: one token per file the client is about to upload.
public struct AssetUploadRequest: Codable, Sendable, Equatable {
    /// Which record field a file is for. Without `recordName` the server names the record.
    public struct Token: Codable, Sendable, Equatable {
        public var recordName: String?
        public var recordType: String?
        public var fieldName: String

        public init(recordName: String? = nil, recordType: String? = nil, fieldName: String) {
            self.recordName = recordName
            self.recordType = recordType
            self.fieldName = fieldName
        }
    }

    public var zoneID: ZoneID?
    public var tokens: [Token]

    public init(zoneID: ZoneID? = nil, tokens: [Token]) {
        self.zoneID = zoneID
        self.tokens = tokens
    }
}

/// The response of `assets/upload`: where to send each file.
public struct AssetUploadResponse: Codable, Sendable, Equatable {
    /// A signed upload URL for one record field, valid for a limited time (15 minutes by default).
    public struct Token: Codable, Sendable, Equatable {
        public var recordName: String
        public var fieldName: String
        public var url: String

        public init(recordName: String, fieldName: String, url: String) {
            self.recordName = recordName
            self.fieldName = fieldName
            self.url = url
        }
    }

    public var tokens: [Token]

    public init(tokens: [Token]) { self.tokens = tokens }
}

/// What an upload URL answers once it has the bytes: the asset dictionary to put in the record's
/// field (`fileChecksum`, `size`, `receipt`).
public struct AssetUploadReceipt: Codable, Sendable, Equatable {
    public var singleFile: Asset

    public init(singleFile: Asset) { self.singleFile = singleFile }
}

/// The body of `assets/rereference`: record fields whose assets should be reusable elsewhere.
public struct AssetRereferenceRequest: Codable, Sendable, Equatable {
    /// A record's asset field.
    public struct Item: Codable, Sendable, Equatable {
        public var recordName: String
        public var fieldName: String

        public init(recordName: String, fieldName: String) {
            self.recordName = recordName
            self.fieldName = fieldName
        }
    }

    public var zoneID: ZoneID?
    public var assets: [Item]

    public init(zoneID: ZoneID? = nil, assets: [Item]) {
        self.zoneID = zoneID
        self.assets = assets
    }
}

/// The response of `assets/rereference`: for each item, the field's asset with a fresh receipt.
public struct AssetRereferenceResponse: Codable, Sendable, Equatable {
    public var assets: [Asset]

    public init(assets: [Asset]) { self.assets = assets }
}
