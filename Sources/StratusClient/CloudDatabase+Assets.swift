import Crypto
import Foundation
import StratusCore

extension CloudDatabase {
    /// Downloads an asset of a fetched record to a file.
    public func downloadAsset(_ asset: Asset, to file: URL) async throws {
        guard let url = asset.downloadURL else { throw CloudError(.invalidArguments, "the asset has no downloadURL; fetch its record first") }
        let response = try await container.transport.send(TransportRequest(method: .get, url: url, headers: await container.headers,
                                                                            downloadDestination: file))
        guard response.status == 200 else { throw CloudError(status: response.status, body: response.body) }
    }

    /// The records with their attached files uploaded: each asset field whose file is pending
    /// gets the asset dictionary (and receipt) its upload returned.
    func uploadingAssets(of records: [CloudRecord]) async throws -> [CloudRecord] {
        guard records.contains(where: { !$0.assetFiles.isEmpty }) else { return records }
        var records = records
        let pending = records.indices.flatMap { index in
            records[index].assetFiles.keys.sorted().compactMap { key -> (Int, String)? in
                guard case .asset(let asset)? = records[index][key], asset.receipt == nil, asset.fileChecksum == nil else { return nil }
                return (index, key)
            }
        }
        for (zoneID, items) in Dictionary(grouping: pending, by: { records[$0.0].recordID.zoneID }) {
            let request = AssetUploadRequest(zoneID: zoneID, tokens: items.map { index, key in
                .init(recordName: records[index].recordID.recordName, recordType: records[index].recordType, fieldName: key)
            })
            let tokens = try await post("assets/upload", request, as: AssetUploadResponse.self).tokens
            guard tokens.count == items.count else { throw CloudError(.internalError, "assets/upload answered \(tokens.count) tokens") }
            for ((index, key), token) in zip(items, tokens) {
                guard let file = records[index].assetFiles[key] else { continue }
                let response = try await container.transport.send(TransportRequest(
                    method: .post, url: token.url, headers: [("Content-Type", "application/octet-stream")], body: .file(file)))
                guard response.status == 200 else { throw CloudError(status: response.status, body: response.body) }
                records[index].setUploadedAsset(try Container.decode(AssetUploadReceipt.self, from: response.body).singleFile, forKey: key)
            }
        }
        return records
    }

    /// The record with its asset fields downloaded into the container's asset cache (one file per
    /// checksum, so a file already there is not fetched again); unchanged without a cache.
    package func downloadingAssets(of record: CloudRecord) async throws -> CloudRecord {
        guard let cache = container.assetCacheDirectory, record.fields.values.contains(where: { !$0.assets.isEmpty }) else { return record }
        var record = record
        for (key, value) in record.fields {
            guard case .asset(let asset) = value, let checksum = asset.fileChecksum, asset.downloadURL != nil else { continue }
            let file = cache.appendingPathComponent(Self.cacheName(checksum))
            if !FileManager.default.fileExists(atPath: file.path) {
                try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
                let partial = cache.appendingPathComponent(UUID().uuidString + ".partial")
                do {
                    try await downloadAsset(asset, to: partial)
                    if (try? FileManager.default.moveItem(at: partial, to: file)) == nil {
                        try? FileManager.default.removeItem(at: partial) // another fetch put the same file there first
                    }
                } catch {
                    try? FileManager.default.removeItem(at: partial)
                    throw error
                }
            }
            record.assetFiles[key] = file
        }
        return record
    }

    /// A file name for a checksum: its hex form when it is base64, else a digest of it.
    private static func cacheName(_ checksum: String) -> String {
        let bytes = Data(base64Encoded: checksum) ?? Data(SHA256.hash(data: Data(checksum.utf8)))
        return bytes.map { String(format: "%02x", $0) }.joined()
    }
}
