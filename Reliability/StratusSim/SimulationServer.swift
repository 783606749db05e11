import Foundation
import StratusServer
import StratusTesting

/// The server a scenario runs against: in this process (fast, and its tombstones can be purged on
/// demand), or a real `stratus serve` process that the scenario kills with `SIGKILL`.
protocol SimulationServer: Sendable {
    var baseURL: String { get async }
    var apiToken: String { get async }
    var containerID: String { get }
    /// Kills the server with `SIGKILL` and starts it again on the same files and port.
    func killAndRestart() async throws
    /// Purges every tombstone, whatever its age, so change tokens from before expire.
    func purgeTombstones() async throws
    /// The server's time now, as a moment to restore to: every change made after this returns is
    /// later than it (the server's clock has moved past its millisecond).
    func moment() async throws -> Date
    /// Replaces the container's development schema with a schema file, as `stratus schema import` does.
    func importSchema(_ file: URL) async throws
    func shutdown() async
}

/// The real server in this process, through ``TestCloud``.
struct InProcessServer: SimulationServer {
    let cloud: TestCloud

    /// How long tombstones are kept: a purge moves the server's clock past it.
    static let tombstoneRetention: Duration = .seconds(3600)

    init(clock: SimulatedClock) async throws {
        cloud = TestCloud(clock: clock, configure: { $0.tombstoneRetention = Self.tombstoneRetention })
        try await cloud.startServer()
    }

    var baseURL: String { get async { await cloud.baseURL } }
    var apiToken: String { get async { await cloud.apiToken } }
    var containerID: String { TestCloud.containerID }

    func killAndRestart() async throws {
        throw SimulationError("an in-process server cannot be killed; kill scenarios run a stratus process")
    }

    /// Purges every tombstone so far: the server's clock moves past their retention, and only
    /// the purge runs (no other maintenance falls due in an hour).
    func purgeTombstones() async throws {
        cloud.serverClock.advance(by: Self.tombstoneRetention + .seconds(1))
        _ = try await cloud.server?.services.changes.purgeTombstones()
    }

    func moment() async throws -> Date {
        let now = cloud.serverClock.date
        cloud.serverClock.advance(by: .milliseconds(2))
        return now
    }

    func importSchema(_ file: URL) async throws {
        try await cloud.server?.importSchema(String(contentsOf: file, encoding: .utf8), container: containerID)
    }

    func shutdown() async { await cloud.shutdown() }
}

/// A real `stratus serve` process over a temporary directory (the crash harness's).
struct ProcessServer: SimulationServer {
    let process: ServerProcess
    let directory: URL

    init(executable: URL) async throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("stratus-sim-\(UUID().uuidString)")
        process = ServerProcess(executable: executable, dataDirectory: directory.appendingPathComponent("data"))
        try await process.start()
    }

    var baseURL: String { process.baseURL }
    var apiToken: String { process.apiToken }
    var containerID: String { ServerProcess.containerID }

    func killAndRestart() async throws {
        process.kill()
        try await process.start()
    }

    func purgeTombstones() async throws {
        throw SimulationError("tombstones are purged in in-process scenarios only")
    }

    func moment() async throws -> Date {
        let now = Date()
        try await Task.sleep(for: .milliseconds(2))
        return now
    }

    func importSchema(_ file: URL) async throws {
        try await process.importSchema(file, container: containerID)
    }

    func shutdown() async {
        await process.stop()
        try? FileManager.default.removeItem(at: directory)
    }
}
