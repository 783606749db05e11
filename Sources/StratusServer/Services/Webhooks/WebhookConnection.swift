import AsyncHTTPClient
import Foundation
import NIOCore
import NIOSSL

/// Why an event could not be delivered without the receiver answering.
enum WebhookDeliveryError: Error, CustomStringConvertible {
    /// The host's address is one delivery refuses (``WebhookAddressPolicy``); nothing was sent.
    case refusedAddress(String)
    /// The host has no address, or could not be reached.
    case unreachable(String)

    var description: String {
        switch self {
        case .refusedAddress(let text), .unreachable(let text): text
        }
    }
}

/// What a receiver answered to one delivery (status 0: it did not answer; ``text`` says why).
struct WebhookAnswer: Sendable {
    var status: Int
    /// The first bytes of the answer (at most ``WebhookConnection/maxAnswerBytes``), or why there was none.
    var text: String
    /// The wait a `429` or `503` asked for (`Retry-After`, in seconds).
    var retryAfter: Duration?
    var latency: Duration

    var succeeded: Bool { (200..<300).contains(status) }
}

/// The connection one round of deliveries to an endpoint uses: its own HTTP client, kept alive
/// between the round's events, connecting to the one address ``WebhookAddressPolicy`` admitted
/// for the host (TLS still checks the host's name). Redirects are not followed, an answer is read
/// up to 64 KB, and a delivery without an answer within the timeout fails.
final class WebhookConnection: Sendable {
    /// The most bytes of an answer read.
    static let maxAnswerBytes = 64 * 1024

    private let client: HTTPClient
    private let url: WebhookURL
    private let timeout: Duration

    /// Finds the address to connect to (throwing ``WebhookDeliveryError`` for one refused) and
    /// prepares the client; nothing is sent yet.
    init(to url: WebhookURL, policy: WebhookAddressPolicy, tls: TLSConfiguration, timeout: Duration) async throws {
        let address = try await policy.address(of: url.host)
        var configuration = HTTPClient.Configuration(tlsConfiguration: tls, redirectConfiguration: .disallow,
                                                     timeout: .init(connect: .seconds(timeout.components.seconds), read: .seconds(timeout.components.seconds)),
                                                     connectionPool: .init(idleTimeout: .seconds(30)), decompression: .disabled)
        if IPAddress(url.host) == nil { configuration.dnsOverride = [url.host: address.description] }
        client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
        self.url = url
        self.timeout = timeout
    }

    /// Posts `body` with `headers`; never throws: a failure is an answer with status 0.
    func post(_ body: [UInt8], headers: [(String, String)]) async -> WebhookAnswer {
        let began = ContinuousClock.now
        var request = HTTPClientRequest(url: url.text)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "User-Agent", value: "Stratus-Webhooks/1")
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        request.body = .bytes(ByteBuffer(bytes: body))
        let (client, timeout, prepared) = (self.client, self.timeout, request)
        do {
            return try await withThrowingTaskGroup(of: WebhookAnswer?.self) { group in
                group.addTask {
                    let response = try await client.execute(prepared, timeout: .seconds(timeout.components.seconds))
                    var answer = [UInt8]()
                    for try await piece in response.body {
                        answer += piece.readableBytesView.prefix(Self.maxAnswerBytes - answer.count)
                        if answer.count >= Self.maxAnswerBytes { break }
                    }
                    let wait = response.headers.first(name: "Retry-After").flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
                    return WebhookAnswer(status: Int(response.status.code), text: String(decoding: answer, as: UTF8.self),
                                         retryAfter: wait.map { .seconds(max(0, $0)) }, latency: ContinuousClock.now - began)
                }
                group.addTask {
                    try await Task.sleep(for: timeout)
                    return nil
                }
                let first = try await group.next() ?? nil
                group.cancelAll()
                return first ?? WebhookAnswer(status: 0, text: "no answer within \(timeout)", latency: ContinuousClock.now - began)
            }
        } catch {
            return WebhookAnswer(status: 0, text: "\(error)", latency: ContinuousClock.now - began)
        }
    }

    /// Closes the client's connections.
    func close() async {
        try? await client.shutdown()
    }
}
