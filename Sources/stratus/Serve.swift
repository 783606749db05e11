import ArgumentParser
import Foundation
import Hummingbird
import Logging
import ServiceLifecycle
import StratusServer

/// `stratus serve`: runs the server until SIGINT or SIGTERM, then shuts down gracefully.
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Run the Stratus server (embedded SQLite, no configuration needed).")

    @Option(help: "The data directory.") var data = "./stratus-data"
    @Option(help: "The address to listen on.") var host = "127.0.0.1"
    @Option(help: "The port to listen on (0 picks a free one).") var port = 8080
    @Option(help: "The container created on first start.") var container = "iCloud.dev.stratus"
    @Option(help: "Log level: trace, debug, info, notice, warning, error, critical.") var logLevel = "info"
    @Option(help: "Days a signed-in session (ckWebAuthToken) stays valid.") var sessionDays = 14
    @Option(help: "Days tombstones are kept; change tokens older than a purged tombstone expire.") var tombstoneDays = 90
    @Option(help: "Largest asset file accepted, in MB.") var assetLimitMb = 50
    @Option(help: "The URL clients reach the server at, used in asset upload and download URLs (default: http:// and the request's Host).")
    var publicUrl: String?

    func run() async throws {
        var logger = Logger(label: "stratus")
        logger.logLevel = Logger.Level(rawValue: logLevel) ?? .info
        guard sessionDays > 0, tombstoneDays > 0, assetLimitMb > 0 else {
            throw ValidationError("--session-days, --tombstone-days and --asset-limit-mb must be positive")
        }
        var configuration = ServerConfiguration(dataDirectory: URL(fileURLWithPath: data), host: host, port: port)
        configuration.sessionLifetime = .seconds(sessionDays * 24 * 3600)
        configuration.tombstoneRetention = .seconds(tombstoneDays * 24 * 3600)
        configuration.maxAssetBytes = Int64(assetLimitMb) * 1024 * 1024
        configuration.publicURL = publicUrl
        let server = try StratusServer(configuration: configuration, logger: logger)
        let apiToken = try await server.ensureContainer(container)
        let host = self.host
        let container = self.container
        let application = server.makeApplication { port in
            let banner = "Stratus is running at http://\(host):\(port)\ncontainer: \(container)\nckAPIToken: \(apiToken)\n"
            FileHandle.standardOutput.write(Data(banner.utf8))
        }
        let serviceGroup = ServiceGroup(configuration: .init(
            services: [application], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        try await serviceGroup.run()
    }
}
