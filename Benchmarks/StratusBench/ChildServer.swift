import ArgumentParser
import Foundation
import Logging
import ServiceLifecycle
import StratusPostgreSQL
import StratusSQLite
import StratusServer

/// `stratus-bench child-server`: the server a benchmark runs in a process of its own, so that its
/// memory can be measured apart from the client's. Prints a ``ServerReadyLine`` as `stratus serve
/// --ready-json` does, runs until SIGTERM.
struct ChildServer: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "child-server", shouldDisplay: false)

    @Option var data: String
    @Option var database: String?
    /// The push benchmark connects a thousand devices of one user.
    @Option var pushConnectionsPerUser: Int?
    /// `info` logs each request to standard output, as `stratus serve` does by default.
    @Option var logLevel = "error"
    /// Requests per second one user may make (the limiter still counts each request).
    @Option var userRequestsPerSecond: Double?
    /// The master key, for a second instance on a database whose key store the first keyed.
    @Option var encryptionKeyFile: String?

    func run() async throws {
        var logger = BenchmarkServer.quietLogger
        logger.logLevel = Logger.Level(rawValue: logLevel) ?? .error
        var configuration = ServerConfiguration(dataDirectory: URL(fileURLWithPath: data), port: 0)
        configuration.storageDrivers = [.sqlite, .postgreSQL]
        configuration.databaseURL = database
        configuration.encryptionKeyFile = encryptionKeyFile
        if let pushConnectionsPerUser { configuration.maxPushConnectionsPerUser = pushConnectionsPerUser }
        if let userRequestsPerSecond { configuration.requestsPerUser = RateRule(burst: userRequestsPerSecond * 4, perSecond: userRequestsPerSecond) }
        let server = try await StratusServer(configuration: configuration, logger: logger)
        let apiToken = try await server.ensureContainer(BenchmarkServer.containerID)
        let application = try server.makeApplication { port in
            let ready = ServerReadyLine(url: "http://127.0.0.1:\(port)", container: BenchmarkServer.containerID, ckAPIToken: apiToken)
            FileHandle.standardOutput.write(Data(ready.line.utf8))
        }
        try await ServiceGroup(configuration: .init(services: [application], gracefulShutdownSignals: [.sigterm], logger: logger)).run()
    }
}
