import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization

/// A transport on Foundation's `URLSession`: the default on Apple platforms (see
/// ``Container/defaultTransport``), and available on Linux through FoundationNetworking.
///
/// Files are uploaded with an upload task and downloads go through a download task, so neither
/// is held in memory; any other answer is collected up to a bound.
public final class URLSessionTransport: Transport {
    private let session: URLSession
    private let exchanges: Exchanges

    /// A transport on its own ephemeral session: no cookies, no cache, no credentials kept.
    ///
    /// - Parameters:
    ///   - timeout: bounds a whole exchange (the session's resource timeout).
    ///   - maximumResponseBytes: the largest body collected in memory; a larger answer fails the
    ///     exchange with ``CloudError/Code-swift.enum/networkFailure``. Asset downloads go to
    ///     their file and are not bounded by it.
    public init(timeout: Duration = .seconds(120), maximumResponseBytes: Int = TransportResponse.defaultMaximumBytes) {
        let configuration = URLSessionConfiguration.ephemeral
        let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
        configuration.timeoutIntervalForRequest = seconds
        configuration.timeoutIntervalForResource = seconds
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        exchanges = Exchanges(maximumResponseBytes: maximumResponseBytes)
        session = URLSession(configuration: configuration, delegate: exchanges, delegateQueue: nil)
    }

    deinit {
        // A session keeps its delegate until it is invalidated.
        session.invalidateAndCancel()
    }

    /// Sends a request as a `URLSession` task: an upload task for a body, a download task for a download.
    public func send(_ request: TransportRequest) async throws -> TransportResponse {
        guard let url = URL(string: request.url) else { throw CloudError(.invalidArguments, "not a URL: \(request.url)") }
        var outgoing = URLRequest(url: url)
        outgoing.httpMethod = request.method.rawValue
        for (name, value) in request.headers { outgoing.addValue(value, forHTTPHeaderField: name) }
        let task: URLSessionTask
        switch request.body {
        case .file(let file):
            try TransportRequest.openForReading(file).close()
            task = session.uploadTask(with: outgoing, fromFile: file)
        case .bytes(let bytes):
            task = session.uploadTask(with: outgoing, from: Data(bytes))
        case .none:
            task = request.downloadDestination == nil ? session.dataTask(with: outgoing) : session.downloadTask(with: outgoing)
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                exchanges.begin(task, downloadDestination: request.downloadDestination, continuation: continuation)
                task.resume()
            }
        } onCancel: {
            task.cancel()
        }
    }

    /// The client error for a failed `URLSession` task: a server that cannot be reached is
    /// `networkUnavailable`, any other failure `networkFailure` (the server may have applied the
    /// request).
    static func networkError(_ error: any Error) -> CloudError {
        if let error = error as? CloudError { return error }
        switch (error as? URLError)?.code {
        case .cannotConnectToHost?, .cannotFindHost?, .dnsLookupFailed?, .notConnectedToInternet?:
            return CloudError(.networkUnavailable, "cannot reach the server: \(error)")
        case .fileDoesNotExist?, .noPermissionsToReadFile?:
            return CloudError(.assetFileNotFound, "cannot read the file to upload: \(error)")
        default:
            return CloudError(.networkFailure, "the exchange with the server failed: \(error)")
        }
    }
}

/// The session's delegate: it collects each task's answer and resumes the task's caller when the
/// task completes.
private final class Exchanges: NSObject, URLSessionDataDelegate, URLSessionDownloadDelegate, Sendable {
    private struct Exchange {
        var continuation: CheckedContinuation<TransportResponse, any Error>
        var downloadDestination: URL?
        var body: [UInt8] = []
        /// Set when the delegate itself failed the exchange (too large, or the download could not be kept).
        var failure: CloudError?
    }

    private let maximumResponseBytes: Int
    private let running = Mutex<[Int: Exchange]>([:])

    init(maximumResponseBytes: Int) {
        self.maximumResponseBytes = maximumResponseBytes
    }

    func begin(_ task: URLSessionTask, downloadDestination: URL?, continuation: CheckedContinuation<TransportResponse, any Error>) {
        running.withLock { $0[task.taskIdentifier] = Exchange(continuation: continuation, downloadDestination: downloadDestination) }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let id = dataTask.taskIdentifier
        let tooLarge = running.withLock { running -> Bool in
            guard let received = running[id]?.body.count, running[id]?.failure == nil else { return false }
            guard received + data.count <= maximumResponseBytes else {
                running[id]?.failure = CloudError(.networkFailure, "the answer is larger than \(maximumResponseBytes) bytes")
                return true
            }
            running[id]?.body.append(contentsOf: data)
            return false
        }
        if tooLarge { dataTask.cancel() }
    }

    func urlSession(_ session: URLSession, downloadTask: URLSessionDownloadTask, didFinishDownloadingTo location: URL) {
        // The downloaded file is deleted when this returns: keep it now, or read an error's body.
        let status = (downloadTask.response as? HTTPURLResponse)?.statusCode
        running.withLock { running in
            guard var exchange = running[downloadTask.taskIdentifier], let destination = exchange.downloadDestination else { return }
            do {
                if status == 200 {
                    try? FileManager.default.removeItem(at: destination)
                    try FileManager.default.moveItem(at: location, to: destination)
                } else {
                    let handle = try FileHandle(forReadingFrom: location)
                    defer { try? handle.close() }
                    exchange.body = Array(try handle.read(upToCount: maximumResponseBytes) ?? Data())
                }
            } catch {
                exchange.failure = CloudError(.assetFileNotFound, "cannot keep the download at \(destination.path): \(error)")
            }
            running[downloadTask.taskIdentifier] = exchange
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let exchange = running.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
        if let failure = exchange.failure {
            exchange.continuation.resume(throwing: failure)
        } else if let error {
            exchange.continuation.resume(throwing: URLSessionTransport.networkError(error))
        } else if let response = task.response as? HTTPURLResponse {
            if let destination = exchange.downloadDestination, !(task is URLSessionDownloadTask), response.statusCode == 200 {
                // A download asked of an upload: its answer was collected, and is kept now.
                do {
                    try Data(exchange.body).write(to: destination)
                } catch {
                    exchange.continuation.resume(throwing: CloudError(.assetFileNotFound, "cannot write \(destination.path): \(error)"))
                    return
                }
                exchange.continuation.resume(returning: TransportResponse(status: 200, body: []))
                return
            }
            exchange.continuation.resume(returning: TransportResponse(status: response.statusCode, body: exchange.body))
        } else {
            exchange.continuation.resume(throwing: CloudError(.networkFailure, "the server's answer was not HTTP"))
        }
    }
}
