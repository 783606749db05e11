import Foundation

/// What `stratus serve --ready-json` prints on standard output once the server listens (and, with
/// `--metrics-port`, once metrics are served too): one line of JSON, the one thing scripts, tests
/// and tools read to reach a server they started.
///
/// ```json
/// {"url":"http://127.0.0.1:8080","container":"iCloud.dev.stratus","ckAPIToken":"…"}
/// ```
public struct ServerReadyLine: Codable, Sendable, Equatable {
    /// The base URL the API answers at, with the port actually bound (`--port 0` picks one).
    public var url: String
    /// The container created on first start (`--container`).
    public var container: String
    /// The container's API token.
    public var ckAPIToken: String
    /// Where Prometheus metrics are served, with `--metrics-port`.
    public var metricsURL: String?

    public init(url: String, container: String, ckAPIToken: String, metricsURL: String? = nil) {
        self.url = url
        self.container = container
        self.ckAPIToken = ckAPIToken
        self.metricsURL = metricsURL
    }

    /// The line as printed, newline included.
    public var line: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(self)) ?? Data(), as: UTF8.self) + "\n"
    }

    /// The first complete line of `output` that is a ready line, if any.
    public static func first(in output: String) -> ServerReadyLine? {
        // Only lines ended by a newline: a line still being written is not read half-way.
        for line in output.split(separator: "\n", omittingEmptySubsequences: false).dropLast() where line.hasPrefix("{") {
            if let ready = try? JSONDecoder().decode(ServerReadyLine.self, from: Data(line.utf8)) { return ready }
        }
        return nil
    }
}
