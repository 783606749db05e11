import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdWebSocket
import Logging
import NIOCore
import ServiceLifecycle
import StratusCore

/// Push delivery. CloudKit's `tokens/create` and its long-poll courier, and `tokens/register` for
/// APNs, each at Apple's documented `/database/1/{container}/{environment}/tokens/…` and at the
/// `/device/1/…` path some clients use; and, as an *extension*, a WebSocket at
/// `/push/1/{container}/{environment}/websocket` (with `ckAPIToken` and `ckWebAuthToken` in the
/// query, or `Authorization: Bearer`) on which every notification arrives as a text frame.
struct PushRoutes {
    static let courierPath = "/push/1/courier/"
    let push: PushService
    let apns: APNsProvider
    let origin: ServerOrigin
    /// The web origins whose pages may open the WebSocket (``CrossOriginPolicy``); a request
    /// without `Origin` (an app, not a browser) or from the server's public URL is always let in.
    let allowedOrigins: Set<String>
    /// Where the WebSockets' notifications are written, one per event loop.
    let outboxes = WebSocketOutboxes()

    func register(on router: Router<StratusRequestContext>) {
        for prefix in ["device/1/:container/:environment", "database/1/:container/:environment"] {
            router.group(RouterPath(prefix))
                .add(middleware: DatabaseAuthenticator(auth: push.auth, origin: origin, scope: .private))
                .post("tokens/create") { request, context in
                    let body = try await JSONBody.decode(TokenCreateRequest.self, from: request, limit: 64 * 1024, allowingEmpty: true)
                    return try JSONBody.response(try await push.createToken(body, try context.requireAccess()))
                }
                .post("tokens/register") { request, context in
                    let body = try await JSONBody.decode(TokenRegisterRequest.self, from: request, limit: 64 * 1024)
                    try await apns.register(body, try context.requireAccess())
                    return try JSONBody.response([String: String]())
                }
        }
        router.get("push/1/courier/:token") { _, context in
            // Nothing arrived within the wait: 204, and the client polls again.
            guard let json = try await push.poll(courierToken: try context.parameters.require("token")) else {
                return Response(status: .noContent)
            }
            return Response(status: .ok, headers: [.contentType: "application/json; charset=utf-8"], body: .init(byteBuffer: json))
        }
    }

    /// The WebSocket upgrade for `/push/1/{container}/{environment}/websocket`; anything else
    /// stays plain HTTP.
    ///
    /// A browser cannot read the status of a refused upgrade, so a request that fails
    /// authentication or a bound is upgraded anyway and answered with CloudKit's error
    /// dictionary as one text frame, then closed with code 4000 + the error's HTTP status
    /// (4401 `AUTHENTICATION_FAILED`, 4421 `AUTHENTICATION_REQUIRED`, 4413 `LIMIT_EXCEEDED`…).
    ///
    /// Notifications are written on the connection's `channel` directly, through its event
    /// loop's ``WebSocketOutbox``: at a thousand devices a change, a task and an async writer
    /// per connection cost more than the write itself.
    func shouldUpgrade(_ request: HTTPRequest, channel: any Channel) async throws -> ShouldUpgradeResult<WebSocketDataHandler<HTTP1WebSocketUpgradeChannel.Context>> {
        guard let path = request.path, let components = URLComponents(string: path) else { return .dontUpgrade }
        let segments = components.path.split(separator: "/").map(String.init)
        guard segments.count == 5, segments[0] == "push", segments[1] == "1", segments[4] == "websocket" else { return .dontUpgrade }
        let query = components.queryItems ?? []
        let webAuthToken = DatabaseAuthenticator.webAuthToken(query: { name in query.first { $0.name == name }?.value },
                                                              authorization: request.headerFields[.authorization])
        let push = self.push
        let connection: PushService.Connection
        do {
            guard CrossOriginPolicy.admitsUpgrade(origin: request.headerFields[.origin], allowed: allowedOrigins, publicURL: origin.publicURL) else {
                throw CloudKitError.accessDenied("pages of this origin may not open the push WebSocket (serve --cors-origin, --public-url)")
            }
            guard let environment = ContainerEnvironment(rawValue: segments[3]) else {
                throw CloudKitError.badRequest("unknown environment '\(segments[3])'; use development or production")
            }
            connection = try await push.connection(containerID: segments[2], environment: environment,
                                                   apiToken: query.first { $0.name == "ckAPIToken" }?.value, webAuthToken: webAuthToken)
        } catch {
            return .upgrade([:]) { inbound, outbound, _ in try await Self.refuse(error, inbound, outbound) }
        }
        return .upgrade([:]) { inbound, outbound, _ in
            do {
                let outbox = outboxes.outbox(for: channel.eventLoop)
                let delivery = Mailbox.Delivery(send: { json, completion in outbox.write(json, on: channel, completion: completion) },
                                                end: { try? await outbound.close(.normalClosure, reason: "session ended") })
                try await push.serve(connection, through: delivery, untilClosed: {
                    // Until the client closes, or the server stops: then the connection's input
                    // is closed, which ends the reading, the handler returns, and the close
                    // handshake waits for the client at most the close timeout (a client that
                    // never answers would otherwise hold the shutdown for ever). A handler, not
                    // `cancelWhenGracefulShutdown`, whose two tasks cost an idle connection 4.5 KB.
                    await withGracefulShutdownHandler {
                        do { for try await _ in inbound {} } catch {}
                    } onGracefulShutdown: {
                        channel.close(mode: .input, promise: nil)
                    }
                })
            } catch let error as CloudKitError {
                try await Self.refuse(error, inbound, outbound)
            }
        }
    }

    static let refusalDelay: Duration = .milliseconds(100)

    /// Sends CloudKit's error dictionary for `error` and closes the WebSocket, reading the
    /// client's side until its close frame answers ours.
    private static func refuse(_ error: any Error, _ inbound: WebSocketInboundStream, _ outbound: WebSocketOutboundWriter) async throws {
        let cloudKitError = CloudKitErrorMiddleware.cloudKitError(for: error)
        let dictionary = ErrorDictionary(cloudKitError, uuid: SecretGenerator.uuid())
        let json = String(decoding: try JSONEncoder().encode(dictionary), as: UTF8.self)
        // Some clients (swift-websocket's among them) lose everything that arrives in one read
        // with the 101 response when the FIN is part of it (frames and end of input both), and
        // then wait on a half-closed socket; a refusal waits a moment so that the 101 is read
        // alone. It also slows a client that reconnects in a tight loop.
        try await Task.sleep(for: Self.refusalDelay)
        try await outbound.write(.text(json))
        try await outbound.close(.unknown(UInt16(4000 + cloudKitError.code.httpStatus)), reason: cloudKitError.code.rawValue)
        for try await _ in inbound {}
    }
}
