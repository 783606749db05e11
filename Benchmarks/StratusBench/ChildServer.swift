import ArgumentParser
import Foundation
import ServiceLifecycle
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

    func run() async throws {
        let logger = BenchmarkServer.quietLogger
        var configuration = ServerConfiguration(dataDirectory: URL(fileURLWithPath: data), port: 0)
        configuration.databaseURL = database
        if let pushConnectionsPerUser { configuration.maxPushConnectionsPerUser = pushConnectionsPerUser }
        let server = try await StratusServer(configuration: configuration, logger: logger)
        let apiToken = try await server.ensureContainer(BenchmarkServer.containerID)
        let application = try server.makeApplication { port in
            let ready = ServerReadyLine(url: "http://127.0.0.1:\(port)", container: BenchmarkServer.containerID, ckAPIToken: apiToken)
            FileHandle.standardOutput.write(Data(ready.line.utf8))
        }
        try await ServiceGroup(configuration: .init(services: [application], gracefulShutdownSignals: [.sigterm], logger: logger)).run()
    }
}
