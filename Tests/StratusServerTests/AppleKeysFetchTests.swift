import AsyncHTTPClient
import NIOCore
import NIOPosix
import Synchronization
import Testing
import StratusCore
import StratusTesting
@testable import StratusServer

/// Fetching Apple's keys survives a connection that closes under the request: the server asks
/// once more on a new connection before it answers `TRY_AGAIN_LATER`.
@Suite struct AppleKeysFetchTests {
    /// A keys endpoint that closes its first connection as soon as the request arrives, and serves
    /// `document` on the others.
    final class DroppingFirstConnection: ChannelInboundHandler, Sendable {
        typealias InboundIn = ByteBuffer
        typealias OutboundOut = ByteBuffer
        let document: ByteBuffer
        /// Connections that sent a request so far.
        let connections = Mutex(0)

        init(document: ByteBuffer) {
            self.document = document
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let number = connections.withLock { count in
                count += 1
                return count
            }
            guard number > 1 else {
                context.close(promise: nil)
                return
            }
            var answer = ByteBuffer(string: "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(document.readableBytes)\r\nConnection: close\r\n\r\n")
            answer.writeImmutableBuffer(document)
            context.writeAndFlush(wrapOutboundOut(answer)).whenComplete { _ in context.close(promise: nil) }
        }
    }

    @Test func aConnectionClosedUnderTheRequestIsRetriedOnce() async throws {
        try await AppleTestIssuer.with { apple in
            let published = try await HTTPClient.shared.execute(HTTPClientRequest(url: apple.keysURL), timeout: .seconds(30))
            let document = try await published.body.collect(upTo: 1 << 20)
            let handler = DroppingFirstConnection(document: document)
            let endpoint = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .childChannelInitializer { channel in channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(handler) } }
                .bind(host: "127.0.0.1", port: 0).get()
            defer { endpoint.close(promise: nil) }
            let port = try #require(endpoint.localAddress?.port)
            try await TestServer.with(configure: { configuration in
                apple.configure(&configuration)
                configuration.appleSignIn.baseURL = "http://127.0.0.1:\(port)"
            }) { server in
                let answer = try await AppleSignInTests.signIn(server, try await apple.token(subject: "001.retried"))
                #expect(answer.status == 200, "\(answer.text)")
                #expect(handler.connections.withLock { $0 } == 2)
            }
        }
    }
}
