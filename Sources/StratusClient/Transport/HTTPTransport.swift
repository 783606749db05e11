#if !canImport(Darwin)
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOPosix

/// A transport on AsyncHTTPClient: HTTP/1.1 over SwiftNIO, with files streamed in and out through
/// NIO's thread pool. The default on Linux; see ``Container/defaultTransport``.
public struct HTTPTransport: Transport {
    private let client: HTTPClient
    private let timeout: TimeAmount
    private let maximumResponseBytes: Int

    /// The HTTP client transports share by default. It does not retry failed connection attempts
    /// (the sync engine decides when to retry), so an unreachable server fails fast.
    public static let sharedClient: HTTPClient = {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.timeout.connect = .seconds(10)
        return HTTPClient(eventLoopGroup: MultiThreadedEventLoopGroup.singleton, configuration: configuration)
    }()

    /// A transport on an HTTP client.
    ///
    /// - Parameters:
    ///   - client: the AsyncHTTPClient to send through; ``sharedClient`` by default.
    ///   - timeout: bounds a whole exchange.
    ///   - maximumResponseBytes: the largest body collected in memory; a larger answer fails the
    ///     exchange with ``CloudError/Code-swift.enum/networkFailure``. Asset downloads stream to
    ///     their file and are not bounded by it.
    public init(client: HTTPClient = HTTPTransport.sharedClient, timeout: Duration = .seconds(120),
                maximumResponseBytes: Int = TransportResponse.defaultMaximumBytes) {
        self.client = client
        self.timeout = .nanoseconds(Int64(timeout.components.seconds) * 1_000_000_000 + timeout.components.attoseconds / 1_000_000_000)
        self.maximumResponseBytes = maximumResponseBytes
    }

    /// Sends a request through AsyncHTTPClient, streaming a file body from disk and a download to its destination.
    public func send(_ request: TransportRequest) async throws -> TransportResponse {
        do {
            var outgoing = HTTPClientRequest(url: request.url)
            outgoing.method = request.method == .get ? .GET : .POST
            for (name, value) in request.headers { outgoing.headers.add(name: name, value: value) }
            switch request.body {
            case .file(let file):
                let handle = try TransportRequest.openForReading(file)
                defer { try? handle.close() }
                let size = try handle.seekToEnd()
                try handle.seek(toOffset: 0)
                outgoing.body = .stream(FileChunks(handle: handle), length: .known(Int64(size)))
                return try await exchange(outgoing, downloadDestination: request.downloadDestination)
            case .bytes(let bytes):
                outgoing.body = .bytes(ByteBuffer(bytes: bytes))
                return try await exchange(outgoing, downloadDestination: request.downloadDestination)
            case .none:
                return try await exchange(outgoing, downloadDestination: request.downloadDestination)
            }
        } catch let error as CloudError {
            throw error
        } catch {
            throw Self.networkError(error)
        }
    }

    private func exchange(_ request: HTTPClientRequest, downloadDestination: URL?) async throws -> TransportResponse {
        let response = try await client.execute(request, timeout: timeout)
        let status = Int(response.status.code)
        if let downloadDestination, status == 200 {
            guard FileManager.default.createFile(atPath: downloadDestination.path, contents: nil) else {
                throw CloudError(.assetFileNotFound, "cannot create \(downloadDestination.path)")
            }
            let handle = try FileHandle(forWritingTo: downloadDestination)
            defer { try? handle.close() }
            for try await chunk in response.body {
                try await NIOThreadPool.singleton.runIfActive { try handle.write(contentsOf: Data(chunk.readableBytesView)) }
            }
            return TransportResponse(status: status, body: [])
        }
        var body = try await response.body.collect(upTo: maximumResponseBytes)
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

/// A file's bytes in 128 KiB chunks, each read on NIO's thread pool so no cooperative thread
/// blocks on the disk.
private struct FileChunks: AsyncSequence, Sendable {
    typealias Element = ByteBuffer
    let handle: FileHandle

    struct AsyncIterator: AsyncIteratorProtocol {
        let handle: FileHandle

        mutating func next() async throws -> ByteBuffer? {
            let handle = self.handle
            let data = try await NIOThreadPool.singleton.runIfActive { try handle.read(upToCount: 128 * 1024) }
            guard let data, !data.isEmpty else { return nil }
            return ByteBuffer(bytes: data)
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(handle: handle) }
}
#endif
