import Foundation

/// One HTTP exchange as the client sees it. ``HTTPTransport`` and ``URLSessionTransport`` send it
/// over the network; tests wrap a transport to drop, delay or fail exchanges.
public struct TransportRequest: Sendable {
    /// The HTTP method: the CloudKit API uses GET and POST only.
    public enum Method: String, Sendable {
        /// Reads, such as `users/current` and asset downloads.
        case get = "GET"
        /// Everything that sends a body.
        case post = "POST"
    }

    /// What the request sends.
    public enum Body: Sendable {
        /// No body (a GET).
        case none
        /// Bytes held in memory, such as a JSON request.
        case bytes([UInt8])
        /// A file, streamed from disk.
        case file(URL)
    }

    /// The HTTP method.
    public var method: Method
    /// An absolute URL.
    public var url: String
    /// Header names and values, in order.
    public var headers: [(String, String)]
    /// What the request sends.
    public var body: Body
    /// Where to stream a successful response body; nil collects it in memory.
    public var downloadDestination: URL?

    /// A request; without a body or a download destination by default.
    public init(method: Method, url: String, headers: [(String, String)] = [], body: Body = .none, downloadDestination: URL? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.downloadDestination = downloadDestination
    }

    /// Opens a file the request sends; a file that cannot be read is
    /// ``CloudError/Code-swift.enum/assetFileNotFound``.
    static func openForReading(_ file: URL) throws -> FileHandle {
        do {
            return try FileHandle(forReadingFrom: file)
        } catch {
            throw CloudError(.assetFileNotFound, "cannot read \(file.path): \(error)")
        }
    }
}

/// The answer to a ``TransportRequest``: the status and, unless it was streamed to a file, the body.
public struct TransportResponse: Sendable {
    /// The HTTP status code.
    public var status: Int
    /// The body; empty when it was streamed to the request's download destination.
    public var body: [UInt8]

    /// The largest body a transport collects in memory unless told otherwise: 512 MiB.
    public static let defaultMaximumBytes = 512 * 1024 * 1024

    /// An answer from its parts.
    public init(status: Int, body: [UInt8]) {
        self.status = status
        self.body = body
    }
}

/// Carries requests to the server. Failures to reach it or to finish an exchange are thrown as
/// ``CloudError`` with ``CloudError/Code-swift.enum/networkUnavailable`` or
/// ``CloudError/Code-swift.enum/networkFailure``; any HTTP answer is returned, whatever its status.
public protocol Transport: Sendable {
    /// Sends a request and returns the server's answer, whatever its status.
    func send(_ request: TransportRequest) async throws -> TransportResponse
}
