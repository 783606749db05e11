import AsyncHTTPClient
import Foundation
import NIOCore
import NIOPosix
import _NIOFileSystem

/// The default transport: HTTP/1.1 through AsyncHTTPClient, with files streamed in and out.
public struct HTTPTransport: Transport {
    private let client: HTTPClient
    private let timeout: TimeAmount

    /// The HTTP client transports share by default. It does not retry failed connection attempts
    /// (the sync engine decides when to retry), so an unreachable server fails fast.
    public static let sharedClient: HTTPClient = {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.timeout.connect = .seconds(10)
        return HTTPClient(eventLoopGroup: MultiThreadedEventLoopGroup.singleton, configuration: configuration)
    }()

    /// A transport on an HTTP client; `timeout` bounds a whole exchange.
    public init(client: HTTPClient = HTTPTransport.sharedClient, timeout: Duration = .seconds(120)) {
        self.client = client
        self.timeout = .nanoseconds(Int64(timeout.components.seconds) * 1_000_000_000 + timeout.components.attoseconds / 1_000_000_000)
    }

    public func send(_ request: TransportRequest) async throws -> TransportResponse {
        do {
            switch request.body {
            case .file(let file):
                return try await FileSystem.shared.withFileHandle(forReadingAt: FilePath(file.path)) { handle in
                    let size = try await handle.info().size
                    var outgoing = httpRequest(request)
                    outgoing.body = .stream(handle.readChunks(chunkLength: .kibibytes(128)), length: .known(size))
                    return try await exchange(outgoing, downloadDestination: request.downloadDestination)
                }
            case .bytes(let bytes):
                var outgoing = httpRequest(request)
                outgoing.body = .bytes(ByteBuffer(bytes: bytes))
                return try await exchange(outgoing, downloadDestination: request.downloadDestination)
            case .none:
                return try await exchange(httpRequest(request), downloadDestination: request.downloadDestination)
            }
        } catch let error as CloudError {
            throw error
        } catch let error as FileSystemError where error.code == .notFound {
            throw CloudError(.assetFileNotFound, "file not found: \(error)")
        } catch {
            throw Self.networkError(error)
        }
    }

    private func httpRequest(_ request: TransportRequest) -> HTTPClientRequest {
        var outgoing = HTTPClientRequest(url: request.url)
        outgoing.method = request.method == .get ? .GET : .POST
        for (name, value) in request.headers { outgoing.headers.add(name: name, value: value) }
        return outgoing
    }

    private func exchange(_ request: HTTPClientRequest, downloadDestination: URL?) async throws -> TransportResponse {
        let response = try await client.execute(request, timeout: timeout)
        let status = Int(response.status.code)
        if let downloadDestination, status == 200 {
            try await FileSystem.shared.withFileHandle(forWritingAt: FilePath(downloadDestination.path),
                                                       options: .newFile(replaceExisting: true)) { handle in
                try await handle.withBufferedWriter { writer in
                    for try await chunk in response.body { _ = try await writer.write(contentsOf: chunk) }
                }
            }
            return TransportResponse(status: status, body: [])
        }
        var body = try await response.body.collect(upTo: 512 * 1024 * 1024)
        return TransportResponse(status: status, body: body.readBytes(length: body.readableBytes) ?? [])
    }

    /// A failure to connect is `networkUnavailable`; any other failure of the exchange is
    /// `networkFailure` (the server may have applied the request).
    static func networkError(_ error: any Error) -> CloudError {
        if error is NIOConnectionError || (error as? HTTPClientError) == .connectTimeout {
            return CloudError(.networkUnavailable, "cannot reach the server: \(error)")
        }
        if let io = error as? IOError, io.errnoCode == ECONNREFUSED {
            return CloudError(.networkUnavailable, "cannot reach the server: \(error)")
        }
        return CloudError(.networkFailure, "the exchange with the server failed: \(error)")
    }
}
