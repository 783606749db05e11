import Foundation
import Hummingbird
import NIOCore
import Logging
import ServiceLifecycle

/// A Hummingbird application of a test stand-in (``AppleTestIssuer``, ``OpenIDTestProvider``),
/// quiet, on a free loopback port, running until ``stop()``.
struct LoopbackApplication: Sendable {
    /// The port it listens on.
    let port: Int
    private let group: ServiceGroup
    private let task: Task<Void, any Error>

    /// Starts `router`'s application and returns once it listens; `label` names it in errors.
    static func start(_ router: Router<BasicRequestContext>, label: String) async throws -> LoopbackApplication {
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        let application = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                                      onServerRunning: { continuation.yield($0.localAddress?.port ?? 0) },
                                      logger: Logger(label: label, factory: { _ in SwiftLogNoOpLogHandler() }))
        let group = ServiceGroup(configuration: .init(services: [application], logger: Logger(label: label)))
        let task = Task {
            defer { continuation.finish() }
            try await group.run()
        }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else { throw InProcessServerError(description: "the \(label) did not start") }
        return LoopbackApplication(port: port, group: group, task: task)
    }

    /// Stops it.
    func stop() async {
        await group.triggerGracefulShutdown()
        _ = await task.result
    }

    /// A JSON response of `object` (a JSONSerialization object), keys sorted.
    static func json(_ object: Any, status: HTTPResponse.Status = .ok) throws -> Response {
        Response(status: status, headers: [.contentType: "application/json"],
                 body: .init(byteBuffer: ByteBuffer(data: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]))))
    }

    /// The fields of an `application/x-www-form-urlencoded` body.
    static func form(_ text: String) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in text.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map { String($0).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String($0) }
            fields[parts[0]] = parts.count == 2 ? parts[1] : ""
        }
        return fields
    }
}
