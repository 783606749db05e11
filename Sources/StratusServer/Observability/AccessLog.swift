import Foundation
import Hummingbird
import Logging
import StratusCore

/// One JSON line on standard output per request, when the server's log level is `info` or finer
/// (`serve`'s default): time, client address (``ClientAddressMiddleware``), method, path, status,
/// duration and request UUID. Lines leave through ``LogOutput``: no request waits on the output.
///
/// Secrets never reach it: every query value is replaced by `REDACTED` (`ckAPIToken`,
/// `ckWebAuthToken` and `ckSession`, which CloudKit JS sends, among them), and so are the path segments that are capabilities —
/// courier tokens, asset upload and download tokens, share short GUIDs. Every request is also
/// noted in ``RecentRequests`` for the console's activity page.
struct AccessLog: RouterMiddleware {
    typealias Context = StratusRequestContext

    /// Path prefixes whose last segment is a capability.
    static let capabilityPrefixes = ["/push/1/courier/", "/assets/1/upload/", "/assets/1/download/", "/share/"]

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
        LogOutput.standardOutput.write(line, keep: Self.mattersToSecurity(path: request.uri.path, status: response.status.code))
        return response
    }

    /// Whether a request's line must reach the log even when lines are being dropped: failed
    /// sign-ins and other refused authentication, denials and throttling.
    static func mattersToSecurity(path: String, status: Int) -> Bool {
        [401, 403, 421, 429].contains(status) || (status >= 400 && (path.hasPrefix("/auth/") || path.hasPrefix("/console/")))
    }

    /// The JSON line for one request, its keys in alphabetical order (written with ``WireWriter``:
    /// the general JSON encoder cost a request more than the rest of its logging).
    static func line(client: String, method: String, uri: String, status: Int, milliseconds: Double, uuid: String?) -> String {
        var writer = WireWriter(capacity: 256)
        writer.raw("{")
        writer.key("client", first: true)
        writer.string(client)
        writer.member("method", method)
        writer.member("ms", (milliseconds * 100).rounded() / 100)
        writer.member("path", redacted(uri))
        writer.member("status", Int64(status))
        writer.member("time", Date().formatted(Self.timeFormat))
        writer.member("uuid", uuid)
        writer.raw("}")
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    private static let timeFormat = Date.ISO8601FormatStyle()

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
