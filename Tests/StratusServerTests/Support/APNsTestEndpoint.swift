import Crypto
import Foundation
import Hummingbird
import HummingbirdHTTP2
import Logging
import NIOSSL
import ServiceLifecycle
import StratusServer

/// A local APNs provider endpoint for tests: HTTP/2 over TLS with a certificate made at test time,
/// checking each push as Apple's does — the provider token's ES256 signature, key and team IDs and
/// age; the topic, push type, priority and expiration headers; the payload's size — and recording
/// what it accepted. Device tokens listed in ``unregistered`` are answered 410 `Unregistered`.
actor APNsTestEndpoint {
    /// A push as the endpoint received it.
    struct Received: Sendable {
        var deviceToken: String
        var authority: String
        var headers: [String: String]
        var payload: [String: Any] { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:] }
        var body: Data
    }

    let key = P256.Signing.PrivateKey()
    let keyID = "ABC123DEFG"
    let teamID = "TEAM123456"
    let topic = "dev.stratus.notes"
    private(set) var received: [Received] = []
    /// Requests refused, with why.
    private(set) var refusals: [String] = []
    private var unregistered: Set<String> = []

    func unregister(_ token: String) { unregistered.insert(token) }

    /// Receives a push, or says why APNs would refuse it.
    func handle(token: String, authority: String, headers: HTTPFields, body: Data) -> (status: HTTPResponse.Status, reason: String?) {
        var named: [String: String] = [:]
        for field in headers { named[field.name.canonicalName] = field.value }
        func refuse(_ status: HTTPResponse.Status, _ reason: String) -> (HTTPResponse.Status, String?) {
            refusals.append(reason)
            return (status, reason)
        }
        guard let authorization = named["authorization"], authorization.hasPrefix("bearer "),
              verify(jwt: String(authorization.dropFirst(7))) else { return refuse(.forbidden, "InvalidProviderToken") }
        guard named["apns-topic"] == topic else { return refuse(.badRequest, "BadTopic") }
        let type = named["apns-push-type"]
        guard type == "background" || type == "alert" else { return refuse(.badRequest, "InvalidPushType") }
        guard named["apns-priority"] == (type == "alert" ? "10" : "5") else { return refuse(.badRequest, "BadPriority") }
        guard let expiration = named["apns-expiration"].flatMap(Int64.init), expiration > Int64(Date().timeIntervalSince1970) else {
            return refuse(.badRequest, "BadExpirationDate")
        }
        if let collapse = named["apns-collapse-id"], collapse.utf8.count > 64 { return refuse(.badRequest, "BadCollapseId") }
        guard !body.isEmpty, body.count <= 4096, (try? JSONSerialization.jsonObject(with: body)) != nil else {
            return refuse(.contentTooLarge, "PayloadTooLarge")
        }
        guard token.count >= 16, token.allSatisfy(\.isHexDigit) else { return refuse(.badRequest, "BadDeviceToken") }
        if unregistered.contains(token) { return (.gone, "Unregistered") }
        received.append(Received(deviceToken: token, authority: authority, headers: named, body: body))
        return (.ok, nil)
    }

    /// An ES256 JWT signed by our key, naming our key and team, made within the hour.
    private func verify(jwt: String) -> Bool {
        let parts = jwt.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, let headerData = Self.base64URL(parts[0]), let claimsData = Self.base64URL(parts[1]),
              let signatureData = Self.base64URL(parts[2]),
              let header = try? JSONSerialization.jsonObject(with: headerData) as? [String: Any],
              let claims = try? JSONSerialization.jsonObject(with: claimsData) as? [String: Any],
              let signature = try? P256.Signing.ECDSASignature(rawRepresentation: signatureData) else { return false }
        guard header["alg"] as? String == "ES256", header["kid"] as? String == keyID, claims["iss"] as? String == teamID,
              let issuedAt = claims["iat"] as? Int, abs(Int(Date().timeIntervalSince1970) - issuedAt) < 3600 else { return false }
        return key.publicKey.isValidSignature(signature, for: Data("\(parts[0]).\(parts[1])".utf8))
    }

    private static func base64URL(_ text: String) -> Data? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        return Data(base64Encoded: base64)
    }

    /// The `.p8` of the key, as Apple hands it out.
    nonisolated var p8: String { key.pemRepresentation }

    /// Runs an endpoint on a free loopback port with a new self-signed certificate (made by
    /// `openssl`); `body` gets the endpoint, its port and the certificate's PEM file.
    static func with<T: Sendable>(_ body: @Sendable (APNsTestEndpoint, Int, URL) async throws -> T) async throws -> T {
        let files = try TestCertificate.make()
        defer { files.remove() }
        let (certificate, privateKey) = (files.certificate, files.privateKey)

        let endpoint = APNsTestEndpoint()
        let router = Router()
        router.post("3/device/:token") { request, context -> Response in
            let bytes = try await request.body.collect(upTo: 64 * 1024)
            let (status, reason) = await endpoint.handle(token: try context.parameters.require("token"),
                                                         authority: request.head.authority ?? "", headers: request.headers,
                                                         body: Data(buffer: bytes))
            let json = reason.map { #"{"reason":"\#($0)"}"# } ?? ""
            return Response(status: status, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: json)))
        }
        let tls = TLSConfiguration.makeServerConfiguration(
            certificateChain: try NIOSSLCertificate.fromPEMFile(certificate.path).map { .certificate($0) },
            privateKey: .privateKey(try NIOSSLPrivateKey(file: privateKey.path, format: .pem)))
        let (ports, portContinuation) = AsyncStream.makeStream(of: Int.self)
        var logger = Logger(label: "apns-test-endpoint")
        logger.logLevel = .critical
        let application = Application(router: router, server: try .http2Upgrade(tlsConfiguration: tls),
                                      configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                                      onServerRunning: { portContinuation.yield($0.localAddress?.port ?? 0) }, logger: logger)
        let services = ServiceGroup(configuration: .init(services: [application], logger: logger))
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await services.run() }
            defer { Task { await services.triggerGracefulShutdown() } }
            var iterator = ports.makeAsyncIterator()
            guard let port = await iterator.next() else { throw TestFailure("the APNs endpoint did not start") }
            let result = try await body(endpoint, port, certificate)
            await services.triggerGracefulShutdown()
            try await group.waitForAll()
            return result
        }
    }
}
