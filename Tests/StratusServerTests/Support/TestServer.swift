import AsyncHTTPClient
import Foundation
import Hummingbird
import Logging
import StratusCore
import StratusPostgreSQL
import StratusSQLite
import StratusServer
import StratusTesting

/// The real Stratus server, in-process, on an ephemeral loopback port over a temporary data
/// directory, for the duration of `body`.
struct TestServer: Sendable {
    static let containerID = "iCloud.test.stratus"

    let endpoint: ServerEndpoint
    let server: StratusServer

    var apiToken: String { endpoint.apiToken }
    /// The loopback port the server listens on.
    var port: Int { Int(endpoint.baseURL.split(separator: ":").last!)! }
    var anonymous: Caller { endpoint.anonymous }
    func signUp(_ name: String = "user", environment: String = "development") async throws -> Caller {
        try await endpoint.signUp(name, environment: environment)
    }

    /// Moves the server's clock forward by `duration` and runs the maintenance that fell due, as
    /// if that much time had passed.
    func advanceClock(by duration: Duration) async {
        server.configuration.clock.advance(by: duration)
        await server.runDueMaintenance()
    }

    /// The server's clock, to move without running maintenance (to call one job and count what it did).
    var clock: ServerClock { server.configuration.clock }

    /// The server's time now, in milliseconds since 1970.
    var now: Int64 { server.configuration.clock.milliseconds }

    /// The PostgreSQL server the suite runs against (`STRATUS_TEST_POSTGRES`, set by
    /// `scripts/test-postgres.sh`), or nil on SQLite.
    static let postgresURL = TestDatabase.postgresURL
    static var runsOnPostgres: Bool { postgresURL != nil }

    /// Starts a server (on `dataDirectory`, or a fresh temporary one), runs `body`, stops it.
    /// With `onSQLite`, the data directory's SQLite file holds the data even in the PostgreSQL run.
    @discardableResult
    static func with<T: Sendable>(
        dataDirectory: URL? = nil,
        onSQLite: Bool = false,
        configure: @Sendable (inout ServerConfiguration) -> Void = { _ in },
        _ body: @Sendable (TestServer) async throws -> T
    ) async throws -> T {
        let directory = dataDirectory ?? temporaryDirectory()
        var configuration = ServerConfiguration(dataDirectory: directory, host: "127.0.0.1", port: 0)
        configuration.passwordHashLog2Cost = 10
        configuration.storageDrivers = [.sqlite, .postgreSQL]
        configure(&configuration)
        if !onSQLite { try await TestDatabase.place(&configuration) }
        return try await InProcessServer.with(configuration, containerID: containerID, logger: logger) { running in
            try await body(TestServer(endpoint: ServerEndpoint(baseURL: running.baseURL, apiToken: running.apiToken), server: running.server))
        }
    }

    /// Quiet unless `LOG_LEVEL` asks for more.
    static let logger: Logger = {
        var logger = Logger(label: "stratus-test")
        logger.logLevel = ProcessInfo.processInfo.environment["LOG_LEVEL"].flatMap { Logger.Level(rawValue: $0) } ?? .critical
        return logger
    }()

    static func temporaryDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("stratus-test-\(UUID().uuidString)")
    }
}

/// Where a Stratus server answers over HTTP, and its container's API token.
struct ServerEndpoint: Sendable {
    let baseURL: String
    let apiToken: String

    /// A caller with only the API token (no user).
    var anonymous: Caller { Caller(server: self, webAuthToken: nil, userRecordName: nil) }

    /// Signs up a new user with a unique name and returns a caller acting as that user.
    func signUp(_ name: String = "user", environment: String = "development") async throws -> Caller {
        let credentials = Credentials(username: "\(name)-\(UUID().uuidString.prefix(8))", password: "password-\(name)")
        let response = try await anonymous.post("/auth/1/\(TestServer.containerID)/\(environment)/signup", credentials)
        let signIn = try response.decode(SignInResponse.self)
        return Caller(server: self, webAuthToken: signIn.ckWebAuthToken, userRecordName: signIn.userRecordName, environment: environment,
                      username: credentials.username)
    }
}

struct TestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
