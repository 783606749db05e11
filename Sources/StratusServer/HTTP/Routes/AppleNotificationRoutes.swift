import Hummingbird
import StratusCore

/// *Extension* endpoint Apple posts Sign in with Apple's server-to-server notifications to:
/// `POST /auth/1/{container}/{environment}/apple/notifications` with `{"payload": JWS}`
/// (``AppleNotifications``). Apple sends no API token: the JWS, signed by Apple for one of the
/// container's client IDs, is the proof. The operator registers this URL (over HTTPS) for the
/// app's primary App ID in Apple's developer site. Every event handled, repeated or of an
/// unknown type answers `200 {}`.
struct AppleNotificationRoutes {
    let notifications: AppleNotifications

    func register(on router: Router<StratusRequestContext>) {
        router.post("auth/1/:container/:environment/apple/notifications") { request, context in
            let (containerID, _) = try DatabaseAuthenticator.containerAndEnvironment(context)
            let notification = try await JSONBody.decode(AppleNotifications.Notification.self, from: request,
                                                         limit: AppleNotifications.maxRequestBytes)
            try await notifications.receive(notification, containerID: containerID)
            return try JSONBody.response([String: String]())
        }
    }
}
