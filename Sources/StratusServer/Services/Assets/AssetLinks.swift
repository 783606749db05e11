import Foundation
import StratusCore

/// Download URLs for the assets of the records answered to one caller: each is signed, names the
/// record, the file and the user it was issued to, and expires with the grant. Like Apple's
/// pre-signed URLs, a URL is the capability: a plain GET works until it expires, while that user
/// may still read the record (``AssetService/download(token:webAuthToken:)``). With
/// ``ServerConfiguration/bindDownloadURLsToUser`` a URL of private data works only with the
/// `ckWebAuthToken` of the user it was issued to.
struct AssetLinks: Sendable {
    let signer: AssetURLSigner
    let origin: String
    /// The grant every link starts from: who may download, and until when.
    private let template: AssetGrant

    init(signer: AssetURLSigner, access: DatabaseAccess) {
        self.signer = signer
        origin = access.origin
        template = AssetGrant(kind: .download, containerID: access.containerID, environment: access.environment,
                              user: access.userRecordName,
                              expires: signer.newGrantExpiry, recordName: "")
    }

    /// Sets the `downloadURL` of every asset of a record read from `zoneRowID`, and its
    /// `fileChecksum` to the file's checksum (a stored asset names its file in the blob store,
    /// which for a sealed file adds a key tag: ``SealedAssetFile``). A version in a record's
    /// history, which carries no name, names its record in `recordName`.
    func attach(to record: inout Record, zoneRowID: Int64, recordName: String? = nil) throws {
        let recordName = recordName ?? record.recordName ?? ""
        for (name, value) in record.fields {
            guard let value, !value.assets.isEmpty else { continue }
            record.fields[name] = try value.mappingAssets { asset in
                var linked = asset
                if let file = asset.fileChecksum {
                    linked.downloadURL = try url(zoneRowID: zoneRowID, recordName: recordName, checksum: file)
                    linked.fileChecksum = SealedAssetFile.checksum(ofBlob: file)
                }
                return linked
            }
        }
    }

    /// A stored field's value as an answer without download URLs carries it: each asset's
    /// `fileChecksum` the file's checksum, not its blob-store name.
    static func showingChecksums(_ value: FieldValue) -> FieldValue {
        value.mappingAssets { asset in
            var shown = asset
            shown.fileChecksum = asset.fileChecksum.map(SealedAssetFile.checksum(ofBlob:))
            return shown
        }
    }

    private func url(zoneRowID: Int64, recordName: String, checksum: String) throws -> String {
        var grant = template
        grant.zoneRowID = zoneRowID
        grant.recordName = recordName
        grant.checksum = checksum
        return origin + AssetRoutes.downloadPath + (try signer.token(for: grant))
    }
}
