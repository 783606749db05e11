/// The body of `assets/upload`: one token per file the client is about to upload.
package struct AssetUploadRequest: Codable, Sendable, Equatable {
    /// Which record field a file is for. Without `recordName` the server names the record.
    package struct Token: Codable, Sendable, Equatable {
        package var recordName: String?
        package var recordType: String?
        package var fieldName: String

        package init(recordName: String? = nil, recordType: String? = nil, fieldName: String) {
            self.recordName = recordName
            self.recordType = recordType
            self.fieldName = fieldName
        }
    }

    package var zoneID: ZoneID?
    package var tokens: [Token]

    package init(zoneID: ZoneID? = nil, tokens: [Token]) {
        self.zoneID = zoneID
        self.tokens = tokens
    }
}

/// The response of `assets/upload`: where to send each file.
package struct AssetUploadResponse: Codable, Sendable, Equatable {
    /// A signed upload URL for one record field, valid for a limited time (15 minutes by default).
    package struct Token: Codable, Sendable, Equatable {
        package var recordName: String
        package var fieldName: String
        package var url: String

        package init(recordName: String, fieldName: String, url: String) {
            self.recordName = recordName
            self.fieldName = fieldName
            self.url = url
        }
    }

    package var tokens: [Token]

    package init(tokens: [Token]) { self.tokens = tokens }
}

/// What an upload URL answers once it has the bytes: the asset dictionary to put in the record's
/// field (`fileChecksum`, `size`, `receipt`).
package struct AssetUploadReceipt: Codable, Sendable, Equatable {
    package var singleFile: Asset

    package init(singleFile: Asset) { self.singleFile = singleFile }
}

/// The body of `assets/rereference`: record fields whose assets should be reusable elsewhere.
package struct AssetRereferenceRequest: Codable, Sendable, Equatable {
    /// A record's asset field.
    package struct Item: Codable, Sendable, Equatable {
        package var recordName: String
        package var fieldName: String

        package init(recordName: String, fieldName: String) {
            self.recordName = recordName
            self.fieldName = fieldName
        }
    }

    package var zoneID: ZoneID?
    package var assets: [Item]

    package init(zoneID: ZoneID? = nil, assets: [Item]) {
        self.zoneID = zoneID
        self.assets = assets
    }
}

/// The response of `assets/rereference`: for each item, the field's asset with a fresh receipt.
package struct AssetRereferenceResponse: Codable, Sendable, Equatable {
    package var assets: [Asset]

    package init(assets: [Asset]) { self.assets = assets }
}
