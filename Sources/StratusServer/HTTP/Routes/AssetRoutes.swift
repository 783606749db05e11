import Foundation
import HTTPTypes
import Hummingbird
import StratusCore

/// Where the signed asset URLs point: a POST of a file's bytes to an upload URL, a GET of a
/// download URL. *Extension paths*: CloudKit serves these from its own content hosts, and
/// clients use the URLs as given.
struct AssetRoutes {
    static let uploadPath = "/assets/1/upload/"
    static let downloadPath = "/assets/1/download/"
    /// RFC 9530's header, with which a client may declare the SHA-256 of what it uploads.
    static let contentDigest = HTTPField.Name("Content-Digest")!

    let assets: AssetService

    func register(on router: Router<StratusRequestContext>) {
        router.post("assets/1/upload/:token") { request, context in
            let receipt = try await assets.receive(
                uploadToken: try context.parameters.require("token"), body: request.body,
                declaredSize: request.headers[.contentLength].flatMap { Int64($0) },
                declaredChecksum: request.headers[Self.contentDigest].flatMap(Self.sha256))
            ServerMetrics.assetBytes(receipt.singleFile.size ?? 0, .upload)
            return try JSONBody.response(receipt)
        }
        router.get("assets/1/download/:token") { request, context in
            let file = try await assets.download(token: try context.parameters.require("token"),
                                                 webAuthToken: DatabaseAuthenticator.webAuthToken(request))
            // One range of bytes, when asked for one (RFC 9110 §14); `If-Range` has no validator
            // to match here, so it gets the whole file.
            let asked = request.headers[.ifRange] == nil ? request.headers[.range].flatMap(ByteRange.init(header:)) : nil
            var headers: HTTPFields = [.contentType: "application/octet-stream", .acceptRanges: "bytes"]
            let range: ClosedRange<Int64>?
            if let asked {
                guard let bytes = asked.bytes(ofSize: file.size) else {
                    return Response(status: .rangeNotSatisfiable, headers: [.contentRange: "bytes */\(file.size)"])
                }
                range = bytes
                headers[.contentRange] = "bytes \(bytes.lowerBound)-\(bytes.upperBound)/\(file.size)"
            } else {
                range = nil
            }
            let length = range.map { $0.upperBound - $0.lowerBound + 1 } ?? file.size
            let body = ResponseBody(contentLength: Int(length)) { writer in
                try await assets.read(file, range: range) { try await writer.write($0) }
                try await writer.finish(nil)
            }
            ServerMetrics.assetBytes(length, .download)
            return Response(status: range == nil ? .ok : .partialContent, headers: headers, body: body)
        }
    }

    /// The base64 SHA-256 of a `Content-Digest` value such as `sha-256=:X48E9q…=:`.
    static func sha256(_ contentDigest: String) -> String? {
        for member in contentDigest.split(separator: ",") {
            let parts = member.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1)
            guard parts.count == 2, parts[0].lowercased() == "sha-256" else { continue }
            return parts[1].trimmingCharacters(in: CharacterSet(charactersIn: ":"))
        }
        return nil
    }
}
