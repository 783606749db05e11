import Foundation
import Logging
import StratusClient
import StratusSQLite
import StratusServer

/// The real Stratus server in this process, on an ephemeral loopback port over a temporary data
/// directory, for tests: users, devices, and switches to restart the server or break the network.
/// With `STRATUS_TEST_POSTGRES` set to a PostgreSQL server's URL (`postgres://user@host:port`),
/// each cloud keeps its data in a database of its own there, made with `psql`, and its server
/// runs as a child `stratus serve` (built next to the tests): this target links the SQLite
/// driver only. A child server is given what `stratus serve`'s options can say of the
/// configuration (see ``runsServerInProcess`` for what needs the server in process).
///
/// ```swift
/// try await TestCloud.with { cloud in
///     let alice = try await cloud.signUp("alice")
///     let note = try await alice.privateCloudDatabase.save(CloudRecord(recordType: "Note", recordID: RecordID(recordName: "n")))
/// }
/// ```
public actor TestCloud {
    /// The container every test cloud serves.
    public static let containerID = "iCloud.test.stratus"

    /// Everything of this cloud lives under it: the server's data and the devices' state.
    public nonisolated let root: URL
    /// The server's data directory; it survives ``restartServer()``.
    public nonisolated var dataDirectory: URL { root.appendingPathComponent("server") }
    /// The clock of the cloud's devices: their engines' send delays, backoff and `retryAfter`
    /// waits, and their transports' injected delays, run on it.
    public nonisolated let clock: any Clock<Duration>
    /// The server's wall clock (sessions, codes, URLs and tombstones expire by it); it survives
    /// ``restartServer()``. Move it with ``advanceServerClock(by:)``.
    public nonisolated let serverClock = ServerClock()
    private let configure: @Sendable (inout ServerConfiguration) -> Void
    private let logger: Logger
    private var running: InProcessServer?
    private var child: ServerProcess?
    /// Where the server answers; it stays the same across restarts.
    public private(set) var baseURL = ""
    /// The container's API token, known once the server has started.
    public private(set) var apiToken = ""
    private var port = 0

    /// Starts a cloud, runs `body`, and shuts the server down and removes its data, whatever happens.
    public static func with<T: Sendable>(clock: any Clock<Duration> = ContinuousClock(),
                                         configure: @escaping @Sendable (inout ServerConfiguration) -> Void = { _ in },
                                         _ body: (TestCloud) async throws -> T) async throws -> T {
        let cloud = TestCloud(clock: clock, configure: configure)
        do {
            try await cloud.startServer()
            let result = try await body(cloud)
            await cloud.shutdown()
            return result
        } catch {
            await cloud.shutdown()
            throw error
        }
    }

    /// A test cloud whose devices wait on `clock`; `configure` adjusts the server's configuration.
    public init(clock: any Clock<Duration> = ContinuousClock(), configure: @escaping @Sendable (inout ServerConfiguration) -> Void = { _ in }) {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("stratus-testcloud-\(UUID().uuidString)")
        self.clock = clock
        self.configure = configure
        var logger = Logger(label: "stratus-testcloud")
        logger.logLevel = ProcessInfo.processInfo.environment["LOG_LEVEL"].flatMap { Logger.Level(rawValue: $0) } ?? .critical
        self.logger = logger
    }

    /// The transport a cloud's containers use unless given one: `Container.defaultTransport`, or
    /// `URLSessionTransport` with `STRATUS_TEST_TRANSPORT=urlsession` (how the tests run the
    /// client over URLSession where it is not the default).
    public static var defaultTransport: any Transport {
        ProcessInfo.processInfo.environment["STRATUS_TEST_TRANSPORT"] == "urlsession" ? URLSessionTransport() : Container.defaultTransport
    }

    /// Whether a cloud's server runs in this process: on SQLite. On PostgreSQL it runs as a child
    /// process, and what reaches past HTTP — ``server``, ``advanceServerClock(by:)``, limits no
    /// `serve` option sets — is not there: tests of it run where this is true.
    public static var runsServerInProcess: Bool { TestDatabase.postgresURL == nil }

    /// Starts the server (on the port it had before, after a restart).
    public func startServer() async throws {
        guard running == nil, child?.processIdentifier == nil else { return }
        var configuration = ServerConfiguration(dataDirectory: dataDirectory, host: "127.0.0.1", port: port)
        configuration.passwordHashLog2Cost = 10
        configuration.clock = serverClock
        configuration.storageDrivers = [.sqlite]
        configure(&configuration)
        if let base = TestDatabase.postgresURL { return try await startChild(configuration, onPostgreSQL: base) }
        let started: InProcessServer
        do {
            started = try await InProcessServer.start(configuration, containerID: Self.containerID, logger: logger)
        } catch let error as InProcessServerError {
            throw CloudError(.internalError, "the test server did not start: \(error)")
        }
        apiToken = started.apiToken
        port = started.port
        baseURL = started.baseURL
        running = started
    }

    /// Starts the server as a child `stratus serve` on its database of the PostgreSQL server at
    /// `base` (the same process, database and port after a restart).
    private func startChild(_ configuration: ServerConfiguration, onPostgreSQL base: String) async throws {
        let process: ServerProcess
        if let child {
            process = child
        } else {
            let database = try await TestDatabase.url(for: dataDirectory, base: base)
            process = try ServerProcess(executable: ServerProcess.siblingExecutable, dataDirectory: dataDirectory,
                                        arguments: ["--database", database] + ChildServerOptions.arguments(for: configuration, containerID: Self.containerID),
                                        logLevel: ProcessInfo.processInfo.environment["LOG_LEVEL"] ?? "critical")
            child = process
        }
        let ready = try await process.start()
        apiToken = ready.ckAPIToken
        baseURL = process.baseURL
    }

    /// Stops the server gracefully; requests fail with `networkUnavailable` until it starts again.
    public func stopServer() async {
        if let child, child.processIdentifier != nil {
            await child.stop()
            return
        }
        guard let running else { return }
        self.running = nil
        await running.stop()
    }

    /// Stops and starts the server on the same data directory and port.
    public func restartServer() async throws {
        await stopServer()
        try await startServer()
    }

    /// The running server, for what tests reach past HTTP for (maintenance); nil when it runs as
    /// a child process.
    public var server: StratusServer? { running?.server }

    /// Replaces the container's development schema with `text` (the schema language), in the
    /// server or, for a child server, with `stratus schema import` on its store.
    public func importSchema(_ text: String) async throws {
        if let running { return try await running.server.importSchema(text, container: Self.containerID) }
        guard let child else { throw CloudError(.internalError, "the server is not running") }
        let file = root.appendingPathComponent("schema-\(UUID().uuidString).ckdb")
        try text.write(to: file, atomically: true, encoding: .utf8)
        try await child.importSchema(file, container: Self.containerID)
    }

    /// Moves the server's clock forward by `duration` and, when the server runs, runs the
    /// maintenance that fell due (tombstone and upload purges, expired sessions, due mails) before
    /// it returns: as if that much time had passed, without waiting for it.
    public func advanceServerClock(by duration: Duration) async {
        precondition(Self.runsServerInProcess, "a child server's clock cannot be moved: run this test where TestCloud.runsServerInProcess")
        serverClock.advance(by: duration)
        await running?.server.runDueMaintenance()
    }

    /// Makes a user's encrypted fields unreadable, as a reset of their keychain does in iCloud: the
    /// server forgets their data key, so reads of what it sealed answer `zoneNotFound` with
    /// `CloudError.userDidResetEncryptedDataKey`, and new writes are sealed with a new key. An app
    /// tests its recovery with it (delete the zone, upload its records again).
    public func resetEncryptedDataKey(of userRecordName: String) async throws {
        precondition(Self.runsServerInProcess, "a child server's keys cannot be reset: run this test where TestCloud.runsServerInProcess")
        try await running?.server.services.keys.destroyKey(of: .user(userRecordName))
    }

    /// Stops the server and deletes its data and the devices' state.
    public func shutdown() async {
        await stopServer()
        try? FileManager.default.removeItem(at: root)
    }

    /// A container for this cloud, not signed in. `transport` lets a test put faults in its way.
    public func container(deviceID: String = "device", transport: any Transport = TestCloud.defaultTransport, assetCacheDirectory: URL? = nil) -> Container {
        Container(baseURL: baseURL, containerIdentifier: Self.containerID, apiToken: apiToken, transport: transport,
                  deviceID: deviceID, assetCacheDirectory: assetCacheDirectory)
    }

    /// A new user (a unique username from `name`), signed in on a new container.
    public func signUp(_ name: String, deviceID: String = "device", transport: any Transport = TestCloud.defaultTransport,
                       assetCacheDirectory: URL? = nil) async throws -> Container {
        let container = container(deviceID: deviceID, transport: transport, assetCacheDirectory: assetCacheDirectory)
        try await container.signUp(username: "\(name)-\(UUID().uuidString.prefix(8))", password: "password-\(name)")
        return container
    }
}
