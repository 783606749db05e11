import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import Logging
import NIOCore
import NIOSSL
import ServiceLifecycle
import StratusServer
import Synchronization

/// A webhook receiver on a loopback port (HTTP, or HTTPS with a certificate of the test's): it
/// keeps every delivery it was sent and answers each as ``answer(with:)`` says. Tests, the crash
/// loop and the webhook benchmark deliver to it.
package final class WebhookTestReceiver: Sendable {
    /// One delivery as it arrived.
    package struct Delivery: Sendable {
        package var id: String
        package var timestamp: Int64
        package var signature: String
        package var body: [UInt8]
        /// When it arrived.
        package var arrivedAt: ContinuousClock.Instant

        /// The body's JSON.
        package var json: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any] ?? [:] }
        package var type: String { json["type"] as? String ?? "" }
        package var data: [String: Any] { json["data"] as? [String: Any] ?? [:] }
        /// The event's place in the record log (the last part of its id).
        package var position: Int64? { id.split(separator: "_").last.flatMap { Int64($0) } }

        /// Whether it carries a valid `v1` signature by `secret`.
        package func isSigned(by secret: String) -> Bool {
            WebhookSignature(secret: secret)?.verifies(signature, id: id, timestamp: timestamp, body: body) == true
        }
    }

    /// How to answer: a status and headers, by the delivery's number (0 first).
    package struct Answer: Sendable {
        package var status: HTTPResponse.Status = .noContent
        package var retryAfter: Int?
        /// How long to wait before answering.
        package var delay: Duration?

        package init(status: HTTPResponse.Status = .noContent, retryAfter: Int? = nil, delay: Duration? = nil) {
            self.status = status
            self.retryAfter = retryAfter
            self.delay = delay
        }
    }

    package let port: Int
    package let scheme: String
    private let received = Mutex<[Delivery]>([])
    /// The answering rule, boxed: a closure kept in a `Mutex` directly is re-wrapped in a thunk at each read.
    private final class Answers: Sendable {
        let rule: @Sendable (Int) -> Answer
        init(_ rule: @escaping @Sendable (Int) -> Answer) { self.rule = rule }
    }
    private let answers: Mutex<Answers>
    private let group = Mutex<ServiceGroup?>(nil)
    private let task = Mutex<Task<Void, any Error>?>(nil)

    private init(port: Int, scheme: String, answers: @escaping @Sendable (Int) -> Answer) {
        self.port = port
        self.scheme = scheme
        self.answers = Mutex(Answers(answers))
    }

    /// The URL to register: `http://127.0.0.1:PORT/hook`, or `https://localhost:PORT/hook` with TLS.
    package var url: String { scheme == "https" ? "https://localhost:\(port)/hook" : "http://127.0.0.1:\(port)/hook" }

    package var deliveries: [Delivery] { received.withLock { $0 } }
    /// How many deliveries arrived (cheaper than ``deliveries`` to poll).
    package var count: Int { received.withLock { $0.count } }

    /// Answers from now on as `answers` says.
    package func answer(with answers: @escaping @Sendable (Int) -> Answer) {
        self.answers.withLock { $0 = Answers(answers) }
    }

    /// Waits (at most 60 s) until `count` deliveries arrived; returns them.
    @discardableResult
    package func waitFor(_ count: Int) async throws -> [Delivery] {
        let deadline = ContinuousClock.now + .seconds(60)
        while self.count < count {
            guard ContinuousClock.now < deadline else { throw InProcessServerError(description: "the receiver got \(deliveries.count) deliveries, not \(count)") }
            try await Task.sleep(for: .milliseconds(20))
        }
        return deliveries
    }

    /// Starts a receiver; with `certificate` (PEM files of a certificate chain and its key), over TLS.
    package static func start(certificate: (chain: URL, key: URL)? = nil,
                      answers: @escaping @Sendable (Int) -> Answer = { _ in Answer() }) async throws -> WebhookTestReceiver {
        let router = Router()
        let box = Mutex<WebhookTestReceiver?>(nil)
        router.post("hook") { request, _ -> Response in
            let body = try await request.body.collect(upTo: 1 << 20)
            guard let receiver = box.withLock({ $0 }) else { return Response(status: .serviceUnavailable) }
            let delivery = Delivery(id: request.headers[HTTPField.Name("webhook-id")!] ?? "",
                                    timestamp: Int64(request.headers[HTTPField.Name("webhook-timestamp")!] ?? "") ?? 0,
                                    signature: request.headers[HTTPField.Name("webhook-signature")!] ?? "", body: Array(buffer: body),
                                    arrivedAt: .now)
            let number = receiver.received.withLock { received in
                received.append(delivery)
                return received.count - 1
            }
            let answer = receiver.answers.withLock { $0 }.rule(number)
            if let delay = answer.delay { try await Task.sleep(for: delay) }
            var headers = HTTPFields()
            if let wait = answer.retryAfter { headers[.retryAfter] = String(wait) }
            return Response(status: answer.status, headers: headers)
        }
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        let logger = Logger(label: "webhook-receiver", factory: { _ in SwiftLogNoOpLogHandler() })
        let server: HTTPServerBuilder
        if let certificate {
            let tls = TLSConfiguration.makeServerConfiguration(
                certificateChain: try NIOSSLCertificate.fromPEMFile(certificate.chain.path).map { .certificate($0) },
                privateKey: .privateKey(try NIOSSLPrivateKey(file: certificate.key.path, format: .pem)))
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
        guard let port = await iterator.next() else { throw InProcessServerError(description: "the webhook receiver did not start") }
        let receiver = WebhookTestReceiver(port: port, scheme: certificate == nil ? "http" : "https", answers: answers)
        box.withLock { $0 = receiver }
        receiver.group.withLock { $0 = group }
        receiver.task.withLock { $0 = task }
        return receiver
    }

    package func stop() async {
        await group.withLock { $0 }?.triggerGracefulShutdown()
        _ = await task.withLock { $0 }?.result
    }

    /// Runs `body` with a receiver, stopping it after.
    package static func with<T>(certificate: (chain: URL, key: URL)? = nil, answers: @escaping @Sendable (Int) -> Answer = { _ in Answer() },
                        _ body: (WebhookTestReceiver) async throws -> T) async throws -> T {
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
