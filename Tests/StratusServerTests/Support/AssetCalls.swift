import AsyncHTTPClient
import Crypto
import Foundation
import NIOCore
import StratusCore
import StratusTesting

extension Caller {
    /// Asks `assets/upload` for one upload URL.
    func uploadURL(record: String? = nil, field: String = "file", zone: String = ZoneID.defaultZoneName, owner: String? = nil,
                   database: DatabaseScope = .private) async throws -> AssetUploadResponse.Token {
        let request = AssetUploadRequest(zoneID: ZoneID(zoneName: zone, ownerRecordName: owner),
                                         tokens: [.init(recordName: record, recordType: "Note", fieldName: field)])
        let tokens = try await post(path(database, "assets/upload"), request).decode(AssetUploadResponse.self).tokens
        guard let token = tokens.first else { throw TestFailure("no upload token") }
        return token
    }

    /// Requests an upload URL and sends `bytes` to it; returns the asset dictionary.
    func upload(_ bytes: [UInt8], record: String? = nil, database: DatabaseScope = .private) async throws -> Asset {
        let token = try await uploadURL(record: record, database: database)
        return try await Self.post(bytes, to: token.url).decode(AssetUploadReceipt.self).singleFile
    }

    /// Sends bytes to an absolute URL (an upload URL), with no CloudKit credentials.
    static func post(_ bytes: [UInt8], to url: String, headers: [(String, String)] = []) async throws -> HTTPResult {
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/octet-stream")
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        request.body = .bytes(ByteBuffer(bytes: bytes))
        return try await execute(request)
    }

    /// GETs an absolute URL (a download URL), as this caller (its web auth token) or anonymously.
    func download(_ url: String, signedIn: Bool = true, headers: [(String, String)] = []) async throws -> HTTPResult {
        var request = HTTPClientRequest(url: url)
        if signedIn, let webAuthToken { request.headers.add(name: "Authorization", value: "Bearer \(webAuthToken)") }
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        return try await Self.execute(request)
    }

    private static func execute(_ request: HTTPClientRequest) async throws -> HTTPResult {
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(60))
        let bytes = try await response.body.collect(upTo: 64 * 1024 * 1024)
        return HTTPResult(status: Int(response.status.code), body: Data(buffer: bytes), headers: response.headers)
    }
}

/// Test files: deterministic pseudo-random bytes and their CloudKit-style checksum.
enum TestFile {
    static func bytes(count: Int, seed: UInt64 = 1) -> [UInt8] {
        var state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
        var bytes = [UInt8](repeating: 0, count: count)
        bytes.withUnsafeMutableBytes { buffer in
            for offset in stride(from: 0, to: count, by: 8) {
                state ^= state << 13
                state ^= state >> 7
                state ^= state << 17
                withUnsafeBytes(of: state) { word in
                    for index in 0..<min(8, count - offset) { buffer[offset + index] = word[index] }
                }
            }
        }
        return bytes
    }

    static func checksum(_ bytes: some Sequence<UInt8>) -> String {
        Data(SHA256.hash(data: Data(bytes))).base64EncodedString()
    }

    /// The files in a server's blob store (not counting uploads in progress): its database's
    /// in the PostgreSQL run, else its data directory's.
    static func storedBlobs(in dataDirectory: URL) async throws -> [String] {
        if let base = TestServer.postgresURL {
            return try await TestDatabase.rows("SELECT DISTINCT checksum FROM asset_chunks", for: dataDirectory, base: base)
        }
        let root = dataDirectory.appendingPathComponent("blobs")
        let folders = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
        return folders.filter { $0 != "incoming" }.flatMap { folder in
            (try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(folder).path)) ?? []
        }
    }

    static func incoming(in dataDirectory: URL) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: dataDirectory.appendingPathComponent("blobs/incoming").path)) ?? []
    }
}
