import Foundation
import Logging
import ServiceLifecycle
import StratusServer

/// A ``StratusServer`` serving in this process on a loopback port: the one way ``TestCloud``, the
/// server suite and the benchmarks start a server in-process (``ServerProcess`` starts one as a
/// process of its own).
package struct InProcessServer: Sendable {
    package let server: StratusServer
    /// The port it listens on (the configuration's, or the one picked for port 0).
    package let port: Int
    /// The container's API token.
    package let apiToken: String
    private let group: ServiceGroup
    private let task: Task<Void, any Error>

    /// Where the server answers.
    package var baseURL: String { "http://127.0.0.1:\(port)" }

    /// Opens the store of `configuration`, makes sure `containerID` exists and starts serving;
    /// returns once the server listens.
    package static func start(_ configuration: ServerConfiguration, containerID: String, logger: Logger) async throws -> InProcessServer {
        let server = try await StratusServer(configuration: configuration, logger: logger)
        let apiToken = try await server.ensureContainer(containerID)
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        let group = ServiceGroup(configuration: .init(services: [try server.makeApplication { continuation.yield($0) }], logger: logger))
        let task = Task {
            // A server that cannot start (its port still taken) ends the wait for its port.
            defer { continuation.finish() }
            try await group.run()
        }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else {
            let failure = await task.result
            throw InProcessServerError(description: "the server did not start: \(failure)")
        }
        return InProcessServer(server: server, port: port, apiToken: apiToken, group: group, task: task)
    }

    /// Stops the server gracefully and waits until it has; returns how its services ended.
    @discardableResult
    package func stop() async -> Result<Void, any Error> {
        await group.triggerGracefulShutdown()
        return await task.result
    }

    /// Starts a server, runs `body` with it and stops it, whatever `body` does; an error the
    /// server's services ended with is thrown after `body`'s result.
    package static func with<T: Sendable>(_ configuration: ServerConfiguration, containerID: String, logger: Logger,
                                          _ body: (InProcessServer) async throws -> T) async throws -> T {
        let running = try await start(configuration, containerID: containerID, logger: logger)
        let result: T
        do {
            result = try await body(running)
        } catch {
            await running.stop()
            throw error
        }
        try await running.stop().get()
        return result
    }
}

/// An in-process server could not start.
package struct InProcessServerError: Error, CustomStringConvertible {
    package var description: String
}
