import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import StratusCore
import StratusPostgreSQL
import StratusSQLite
import StratusServer
import StratusTesting

/// A release-built Stratus server on a loopback port — in this process, or in a child process
/// when its memory is to be measured on its own — and an HTTP caller for it, signed in.
struct BenchmarkServer {
    static let containerID = "iCloud.bench.stratus"
    let baseURL: String
    let apiToken: String
    let dataDirectory: URL
    /// The child process the server runs in; nil when it runs in this process.
    var processID: Int32?
    private var local: StratusServer?
    var webAuthToken = ""

    /// Runs a server in this process over `directory` for the duration of `body`, signed in as a
    /// new user `username`.
    static func with<T: Sendable>(directory: URL, username: String = "bench", configure: (inout ServerConfiguration) -> Void = { _ in },
                                  _ body: @Sendable (BenchmarkServer) async throws -> T) async throws -> T {
        var configuration = ServerConfiguration(dataDirectory: directory, port: 0)
        configuration.storageDrivers = [.sqlite, .postgreSQL]
        configure(&configuration)
        return try await InProcessServer.with(configuration, containerID: containerID, logger: quietLogger) { running in
            let client = try await BenchmarkServer(baseURL: running.baseURL, apiToken: running.apiToken, dataDirectory: directory,
                                                   local: running.server).signedIn(as: username)
            return try await body(client)
        }
    }

    /// Runs a server in a child process (this executable's `child-server` command) over
    /// `directory`, or over `database` (PostgreSQL) when given, with the master key in
    /// `encryptionKeyFile` when given (else the data directory's own).
    /// With `logLevel` `info` the server logs every request to its standard output, which is
    /// read to its end meanwhile (as journald or a container runtime reads it).
    static func inChildProcess<T: Sendable>(directory: URL, database: String? = nil, username: String = "bench", pushConnectionsPerUser: Int? = nil,
                                            logLevel: String = "error", userRequestsPerSecond: Double? = nil, encryptionKeyFile: String? = nil,
                                            _ body: @Sendable (BenchmarkServer) async throws -> T) async throws -> T {
        var arguments = ["child-server", "--data", directory.path, "--log-level", logLevel]
        if let userRequestsPerSecond { arguments += ["--user-requests-per-second", String(userRequestsPerSecond)] }
        if let database { arguments += ["--database", database] }
        if let encryptionKeyFile { arguments += ["--encryption-key-file", encryptionKeyFile] }
        if let pushConnectionsPerUser { arguments += ["--push-connections-per-user", String(pushConnectionsPerUser)] }
        let child = try ChildProcess("/proc/self/exe", arguments)
        defer { child.end(with: SIGTERM) }
        let (ready, _) = try await ServerProcess.awaitReady(child)
        Thread.detachNewThread { while child.readChunk() != nil {} }
        var client = BenchmarkServer(baseURL: ready.url, apiToken: ready.ckAPIToken, dataDirectory: directory)
        client.processID = child.processIdentifier
        return try await body(try await client.signedIn(as: username))
    }

    /// One HTTP client for every benchmark caller, with enough connections per host for the
    /// concurrent scenarios (AsyncHTTPClient's shared client keeps eight).
    static let client: HTTPClient = {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: 64)
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }()

    static var quietLogger: Logger {
        var logger = Logger(label: "stratus-bench")
        logger.logLevel = .error
        return logger
    }

    /// The same server, called by another new user.
    func anotherUser(_ username: String) async throws -> BenchmarkServer {
        var client = self
        client.webAuthToken = ""
        return try await client.signedIn(as: username)
    }

    /// The same caller, signed up as a new user.
    private func signedIn(as username: String = "bench") async throws -> BenchmarkServer {
        var client = self
        let signUp = try await post("/auth/1/\(Self.containerID)/development/signup",
                                    body: try JSONEncoder().encode(Credentials(username: username, password: "bench-password")))
        client.webAuthToken = try JSONDecoder().decode(SignInResponse.self, from: signUp).ckWebAuthToken
        return client
    }

    /// Makes a schema file the development schema (in-process servers only).
    func importSchema(_ text: String) async throws {
        guard let local else { throw BenchmarkError("importSchema needs an in-process server") }
        try await local.importSchema(text, container: Self.containerID)
    }

    /// The admin service of the in-process server.
    func admin() throws -> AdminService {
        guard let local else { throw BenchmarkError("the admin service needs an in-process server") }
        return local.services.admin
    }

    func databasePath(_ endpoint: String, database: String = "private") -> String {
        "/database/1/\(Self.containerID)/development/\(database)/\(endpoint)"
    }

    /// POSTs a body and returns the response body; anything but 200 is an error.
    func post(_ path: String, body: Data) async throws -> Data {
        var request = HTTPClientRequest(url: "\(baseURL)\(path)?ckAPIToken=\(apiToken)")
        request.method = .POST
        if !webAuthToken.isEmpty { request.headers.add(name: "Authorization", value: "Bearer \(webAuthToken)") }
        request.body = .bytes(ByteBuffer(bytes: body))
        let response = try await Self.client.execute(request, timeout: .seconds(120))
        let bytes = try await response.body.collect(upTo: 256 * 1024 * 1024)
        guard response.status == .ok else { throw BenchmarkError("HTTP \(response.status.code): \(String(buffer: bytes))") }
        return Data(buffer: bytes)
    }
}

struct BenchmarkError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

extension BenchmarkServer {
    /// Sends a request and returns its status and body, whatever the status (for the hostile
    /// scenario, which expects refusals).
    func send(_ method: HTTPMethod = .POST, _ path: String, body: Data?, signedIn: Bool = true) async throws -> (status: Int, body: Data) {
        var request = HTTPClientRequest(url: "\(baseURL)\(path)\(path.contains("?") ? "&" : "?")ckAPIToken=\(apiToken)")
        request.method = method
        if signedIn, !webAuthToken.isEmpty { request.headers.add(name: "Authorization", value: "Bearer \(webAuthToken)") }
        if let body { request.body = .bytes(ByteBuffer(bytes: body)) }
        let response = try await Self.client.execute(request, timeout: .seconds(120))
        let bytes = try await response.body.collect(upTo: 256 * 1024 * 1024)
        return (Int(response.status.code), Data(buffer: bytes))
    }
}
