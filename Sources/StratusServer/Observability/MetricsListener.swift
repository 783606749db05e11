import Hummingbird
import Logging

/// The metrics listener: a second HTTP server, apart from the API, answering `GET /metrics` with
/// ``ServerMetrics``' registry in Prometheus's text format (and nothing else).
enum MetricsListener {
    static func application(host: String, port: Int, logger: Logger,
                            onRunning: @escaping @Sendable (Int) async -> Void) -> some ApplicationProtocol {
        let router = Router()
        router.get("metrics") { _, _ in
            Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                     body: .init(byteBuffer: ByteBuffer(bytes: ServerMetrics.exposition())))
        }
        return Application(router: router, configuration: .init(address: .hostname(host, port: port), serverName: "Stratus metrics"),
                           onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? 0) }, logger: logger)
    }
}
