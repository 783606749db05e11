import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdWebSocket
import Logging
import NIOCore
import StratusCore

/// Push delivery. CloudKit's `tokens/create` (`/device/1/{container}/{environment}/tokens/create`)
/// and its long-poll courier; and, as an *extension*, a WebSocket at
/// `/push/1/{container}/{environment}/websocket` (with `ckAPIToken` and `ckWebAuthToken` in the
/// query, or `Authorization: Bearer`) on which every notification arrives as a text frame.
struct PushRoutes {
    static let courierPath = "/push/1/courier/"
    let push: PushService
    let publicURL: String?

    func register(on router: Router<StratusRequestContext>) {
        router.group("device/1/:container/:environment")
            .add(middleware: DatabaseAuthenticator(auth: push.auth, publicURL: publicURL, scope: .private))
            .post("tokens/create") { request, context in
                let body = try await JSONBody.decode(TokenCreateRequest.self, from: request, limit: 64 * 1024, allowingEmpty: true)
                return try JSONBody.response(try await push.createToken(body, try context.requireAccess()))
            }
        router.get("push/1/courier/:token") { _, context in
            guard let json = try await push.poll(courierToken: try context.parameters.require("token")) else {
                return Response(status: .ok)
            }
            return Response(status: .ok, headers: [.contentType: "application/json; charset=utf-8"],
                            body: .init(byteBuffer: ByteBuffer(string: json)))
        }
    }

    /// The WebSocket upgrade for `/push/1/{container}/{environment}/websocket`; anything else
    /// stays plain HTTP.
    func shouldUpgrade(_ request: HTTPRequest) async throws -> ShouldUpgradeResult<WebSocketDataHandler<HTTP1WebSocketUpgradeChannel.Context>> {
        guard let path = request.path, let components = URLComponents(string: path) else { return .dontUpgrade }
        let segments = components.path.split(separator: "/").map(String.init)
        guard segments.count == 5, segments[0] == "push", segments[1] == "1", segments[4] == "websocket",
              let environment = ContainerEnvironment(rawValue: segments[3]) else { return .dontUpgrade }
        let query = components.queryItems ?? []
        var webAuthToken = query.first { $0.name == "ckWebAuthToken" }?.value
        if webAuthToken == nil, let authorization = request.headerFields[.authorization], authorization.lowercased().hasPrefix("bearer ") {
            webAuthToken = String(authorization.dropFirst(7))
        }
        let listener = try await push.listener(containerID: segments[2], environment: environment,
                                               apiToken: query.first { $0.name == "ckAPIToken" }?.value, webAuthToken: webAuthToken)
        let push = self.push
        return .upgrade([:]) { inbound, outbound, _ in
            try await push.serve(listener, send: { try await outbound.write(.text($0)) }, untilClosed: {
                do { for try await _ in inbound {} } catch {}
            })
        }
    }
}
