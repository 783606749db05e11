import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import ServiceLifecycle
import StratusCore
import StratusServer

/// A release-built Stratus server running in this process on a loopback port, and an HTTP
/// caller for it.
struct BenchmarkServer {
    static let containerID = "iCloud.bench.stratus"
    let baseURL: String
    let apiToken: String
    let server: StratusServer
    var webAuthToken = ""

    /// Runs a server over `directory` for the duration of `body`.
    static func with<T: Sendable>(directory: URL, _ body: @Sendable (BenchmarkServer) async throws -> T) async throws -> T {
        var logger = Logger(label: "stratus-bench")
        logger.logLevel = .error
        let server = try StratusServer(configuration: ServerConfiguration(dataDirectory: directory, port: 0), logger: logger)
        let apiToken = try await server.ensureContainer(containerID)
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        let group = ServiceGroup(configuration: .init(services: [server.makeApplication { continuation.yield($0) }], logger: logger))
        return try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            var iterator = ports.makeAsyncIterator()
            guard let port = await iterator.next() else { throw BenchmarkError("server did not start") }
            var client = BenchmarkServer(baseURL: "http://127.0.0.1:\(port)", apiToken: apiToken, server: server)
            let signUp = try await client.post("/auth/1/\(containerID)/development/signup",
                                               body: try JSONEncoder().encode(Credentials(username: "bench", password: "bench-password")))
            client.webAuthToken = try JSONDecoder().decode(SignInResponse.self, from: signUp).ckWebAuthToken
            let result = try await body(client)
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
            return result
        }
    }

    /// Makes a schema file the development schema.
    func importSchema(_ text: String) async throws {
        try await server.importSchema(text, container: Self.containerID)
    }

    func databasePath(_ endpoint: String) -> String {
        "/database/1/\(Self.containerID)/development/private/\(endpoint)"
    }

    /// POSTs a body and returns the response body; anything but 200 is an error.
    func post(_ path: String, body: Data) async throws -> Data {
        var request = HTTPClientRequest(url: "\(baseURL)\(path)?ckAPIToken=\(apiToken)")
        request.method = .POST
        if !webAuthToken.isEmpty { request.headers.add(name: "Authorization", value: "Bearer \(webAuthToken)") }
        request.body = .bytes(ByteBuffer(bytes: body))
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(120))
        let bytes = try await response.body.collect(upTo: 256 * 1024 * 1024)
        guard response.status == .ok else { throw BenchmarkError("HTTP \(response.status.code): \(String(buffer: bytes))") }
        return Data(buffer: bytes)
    }
}

struct BenchmarkError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
