import AsyncHTTPClient
import Foundation
import HummingbirdWSClient
import Logging
import NIOCore
import NIOSSL
import Testing
import StratusCore
import StratusServer

/// `serve --tls-cert/--tls-key`: the server speaks HTTPS, and the URLs it hands out say so.
@Suite struct TLSTests {
    @Test func theServerSpeaksHTTPSAndHandsOutHTTPSURLs() async throws {
        let files = try TestCertificate.make()
        defer { files.remove() }
        try await TestServer.with(configure: {
            $0.tls = TLSFiles(certificateChain: files.certificate, privateKey: files.privateKey)
        }) { server in
            var tls = TLSConfiguration.makeClientConfiguration()
            tls.additionalTrustRoots = [.certificates(try NIOSSLCertificate.fromPEMFile(files.certificate.path))]
            let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .init(tlsConfiguration: tls, redirectConfiguration: .disallow))
            let base = server.endpoint.baseURL.replacingOccurrences(of: "http://", with: "https://")
            let token = server.endpoint.apiToken
            func post(_ path: String, _ body: some Encodable, webAuthToken: String? = nil) async throws -> (UInt, Data) {
                var request = HTTPClientRequest(url: "\(base)\(path)?ckAPIToken=\(token)" + (webAuthToken.map { "&ckWebAuthToken=\(Caller.percentEncode($0))" } ?? ""))
                request.method = .POST
                request.body = .bytes(ByteBuffer(bytes: try JSONEncoder().encode(body)))
                let response = try await client.execute(request, timeout: .seconds(30))
                return (response.status.code, Data(buffer: try await response.body.collect(upTo: 1 << 20)))
            }
            do {
                let (status, body) = try await post("/auth/1/\(TestServer.containerID)/development/signup",
                                                    Credentials(username: "tls-user", password: "password-tls"))
                #expect(status == 200)
                let session = try JSONDecoder().decode(SignInResponse.self, from: body)
                let (uploadStatus, uploadBody) = try await post(
                    "/database/1/\(TestServer.containerID)/development/private/assets/upload",
                    AssetUploadRequest(tokens: [.init(recordType: "Note", fieldName: "file")]), webAuthToken: session.ckWebAuthToken)
                #expect(uploadStatus == 200)
                let upload = try JSONDecoder().decode(AssetUploadResponse.self, from: uploadBody)
                #expect(upload.tokens.first?.url.hasPrefix(base + "/assets/1/upload/") == true, "upload URLs name https")

                // The push WebSocket over wss://: the catch-up notification arrives.
                let socketURL = base.replacingOccurrences(of: "https://127.0.0.1", with: "wss://localhost")
                    + "/push/1/\(TestServer.containerID)/development/websocket?ckAPIToken=\(token)&ckWebAuthToken=\(Caller.percentEncode(session.ckWebAuthToken))"
                let first = FirstMessage()
                var logger = Logger(label: "tls-test")
                logger.logLevel = .critical
                _ = try await WebSocketClient.connect(url: socketURL, tlsConfiguration: tls, logger: logger) { inbound, outbound, _ in
                    for try await message in inbound.messages(maxSize: 1 << 20) {
                        if case .text(let text) = message { await first.set(text) }
                        try await outbound.close(.normalClosure, reason: nil)
                    }
                }
                #expect(await first.text?.contains("\"ck\"") == true)

                // Over TLS the console's session cookie is Secure too.
                try await server.server.services.admin.createAdministrator(username: "root", password: "console password")
                var signIn = HTTPClientRequest(url: "\(base)/console/signin")
                signIn.method = .POST
                signIn.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
                signIn.body = .bytes(ByteBuffer(string: "username=root&password=console+password"))
                let signedIn = try await client.execute(signIn, timeout: .seconds(30))
                #expect(signedIn.status == .seeOther)
                #expect(signedIn.headers["Set-Cookie"].first?.contains("Secure") == true, "\(signedIn.headers)")

                // Plain HTTP to the TLS port gets no answer.
                await #expect(throws: (any Error).self) {
                    _ = try await HTTPClient.shared.execute(HTTPClientRequest(url: server.endpoint.baseURL + "/healthz"), timeout: .seconds(5))
                }
            } catch {
                try await client.shutdown()
                throw error
            }
            try await client.shutdown()
        }
    }
}

private actor FirstMessage {
    var text: String?
    func set(_ value: String) { if text == nil { text = value } }
}
