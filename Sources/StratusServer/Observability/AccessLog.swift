import Foundation
import Hummingbird
import Logging
import NIOConcurrencyHelpers

/// One JSON line on standard output per request, when the server's log level is `info` or finer
/// (`serve`'s default): time, client address (``ClientAddressMiddleware``), method, path, status,
/// duration and request UUID.
///
/// Secrets never reach it: every query value is replaced by `REDACTED` (`ckAPIToken`,
/// `ckWebAuthToken` and `ckSession`, which CloudKit JS sends, among them), and so are the path segments that are capabilities —
/// courier tokens, asset upload and download tokens, share short GUIDs. Every request is also
/// noted in ``RecentRequests`` for the console's activity page.
struct AccessLog: RouterMiddleware {
    typealias Context = StratusRequestContext

    /// Path prefixes whose last segment is a capability.
    static let capabilityPrefixes = ["/push/1/courier/", "/assets/1/upload/", "/assets/1/download/", "/share/"]
    private static let output = NIOLockedValueBox(FileHandle.standardOutput)

    /// Where every request is noted for the console, whatever the log level.
    let recent: RecentRequests

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        let response = try await next(request, context)
        let milliseconds = (ContinuousClock.now - start) / .milliseconds(1)
        recent.note(RecentRequests.Request(time: Date(), client: context.clientAddress, method: request.method.rawValue, uri: request.uri.description,
                                           status: response.status.code, milliseconds: milliseconds))
        guard context.logger.logLevel <= .info else { return response }
        let line = Self.line(client: context.clientAddress, method: request.method.rawValue, uri: request.uri.description, status: response.status.code,
                             milliseconds: milliseconds, uuid: response.headers[CloudKitErrorMiddleware.requestUUID])
        Self.output.withLockedValue { $0.write(Data((line + "\n").utf8)) }
        return response
    }

    /// The JSON line for one request.
    static func line(client: String, method: String, uri: String, status: Int, milliseconds: Double, uuid: String?) -> String {
        var entry: [String: Any] = ["time": Date().formatted(.iso8601), "client": client, "method": method,
                                    "path": redacted(uri), "status": status, "ms": (milliseconds * 100).rounded() / 100]
        if let uuid { entry["uuid"] = uuid }
        let data = (try? JSONSerialization.data(withJSONObject: entry, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    /// The URI with query values and capability segments replaced by `REDACTED`.
    static func redacted(_ uri: String) -> String {
        let parts = uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        var path = String(parts.first ?? "")
        if let prefix = capabilityPrefixes.first(where: path.hasPrefix) {
            path = prefix + "REDACTED"
        }
        guard parts.count == 2 else { return path }
        let query = parts[1].split(separator: "&").map { pair in
            (pair.split(separator: "=", maxSplits: 1).first.map(String.init) ?? "") + "=REDACTED"
        }
        return path + "?" + query.joined(separator: "&")
    }
}
