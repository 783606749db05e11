import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import Logging
import NIOCore
import NIOSSL
import ServiceLifecycle
@testable import StratusServer
import Synchronization

/// A webhook receiver on a loopback port (HTTP, or HTTPS with a test certificate): it keeps every
/// delivery it was sent and answers each as ``answer`` says.
final class WebhookReceiver: Sendable {
    /// One delivery as it arrived.
    struct Delivery: Sendable {
        var id: String
        var timestamp: Int64
        var signature: String
        var body: [UInt8]

        /// The body's JSON.
        var json: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any] ?? [:] }
        var type: String { json["type"] as? String ?? "" }
        var data: [String: Any] { json["data"] as? [String: Any] ?? [:] }
    }

    /// How to answer: a status and headers, by the delivery's number (0 first).
    struct Answer: Sendable {
        var status: HTTPResponse.Status = .noContent
        var retryAfter: Int?
    }

    let port: Int
    let scheme: String
    private let received = Mutex<[Delivery]>([])
    private let answers: Mutex<@Sendable (Int) -> Answer>
    private let group = Mutex<ServiceGroup?>(nil)
    private let task = Mutex<Task<Void, any Error>?>(nil)

    private init(port: Int, scheme: String, answers: @escaping @Sendable (Int) -> Answer) {
        self.port = port
        self.scheme = scheme
        self.answers = Mutex(answers)
    }

    /// The URL to register: `http://127.0.0.1:PORT/hook`, or `https://localhost:PORT/hook` with TLS.
    var url: String { scheme == "https" ? "https://localhost:\(port)/hook" : "http://127.0.0.1:\(port)/hook" }

    var deliveries: [Delivery] { received.withLock { $0 } }

    /// Answers from now on as `answers` says.
    func answer(with answers: @escaping @Sendable (Int) -> Answer) {
        self.answers.withLock { $0 = answers }
    }

    /// Waits (at most 60 s) until `count` deliveries arrived; returns them.
    @discardableResult
    func waitFor(_ count: Int) async throws -> [Delivery] {
        let deadline = ContinuousClock.now + .seconds(60)
        while deliveries.count < count {
            guard ContinuousClock.now < deadline else { throw TestFailure("the receiver got \(deliveries.count) deliveries, not \(count)") }
            try await Task.sleep(for: .milliseconds(20))
        }
        return deliveries
    }

    /// Starts a receiver; with `certificate`, over TLS.
    static func start(certificate: TestCertificate? = nil,
                      answers: @escaping @Sendable (Int) -> Answer = { _ in Answer() }) async throws -> WebhookReceiver {
        let router = Router()
        let box = Mutex<WebhookReceiver?>(nil)
        router.post("hook") { request, _ -> Response in
            let body = try await request.body.collect(upTo: 1 << 20)
            guard let receiver = box.withLock({ $0 }) else { return Response(status: .serviceUnavailable) }
            let delivery = Delivery(id: request.headers[HTTPField.Name("webhook-id")!] ?? "",
                                    timestamp: Int64(request.headers[HTTPField.Name("webhook-timestamp")!] ?? "") ?? 0,
                                    signature: request.headers[HTTPField.Name("webhook-signature")!] ?? "", body: Array(buffer: body))
            let number = receiver.received.withLock { received in
                received.append(delivery)
                return received.count - 1
            }
            let answer = receiver.answers.withLock { $0 }(number)
            var headers = HTTPFields()
            if let wait = answer.retryAfter { headers[.retryAfter] = String(wait) }
            return Response(status: answer.status, headers: headers)
        }
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        let logger = Logger(label: "webhook-receiver", factory: { _ in SwiftLogNoOpLogHandler() })
        let server: HTTPServerBuilder
        if let certificate {
            let tls = TLSConfiguration.makeServerConfiguration(
                certificateChain: try NIOSSLCertificate.fromPEMFile(certificate.certificate.path).map { .certificate($0) },
                privateKey: .privateKey(try NIOSSLPrivateKey(file: certificate.privateKey.path, format: .pem)))
            server = try .tls(.http1(), tlsConfiguration: tls)
        } else {
            server = .http1()
        }
        let application = Application(router: router, server: server, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                                      onServerRunning: { continuation.yield($0.localAddress?.port ?? 0) }, logger: logger)
        let group = ServiceGroup(configuration: .init(services: [application], logger: logger))
        let task = Task {
            defer { continuation.finish() }
            try await group.run()
        }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else { throw TestFailure("the webhook receiver did not start") }
        let receiver = WebhookReceiver(port: port, scheme: certificate == nil ? "http" : "https", answers: answers)
        box.withLock { $0 = receiver }
        receiver.group.withLock { $0 = group }
        receiver.task.withLock { $0 = task }
        return receiver
    }

    func stop() async {
        await group.withLock { $0 }?.triggerGracefulShutdown()
        _ = await task.withLock { $0 }?.result
    }

    /// Runs `body` with a receiver, stopping it after.
    static func with<T>(certificate: TestCertificate? = nil, answers: @escaping @Sendable (Int) -> Answer = { _ in Answer() },
                        _ body: (WebhookReceiver) async throws -> T) async throws -> T {
        let receiver = try await start(certificate: certificate, answers: answers)
        do {
            let result = try await body(receiver)
            await receiver.stop()
            return result
        } catch {
            await receiver.stop()
            throw error
        }
    }
}
