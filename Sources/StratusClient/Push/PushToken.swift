/// A push token from CloudKit's `tokens/create`: the APNs token and environment, and the
/// `webcourierURL` a client without APNs long-polls for the signed-in user's notifications.
public struct PushToken: Sendable, Equatable {
    /// The APNs environment the token is for: `development` or `production`.
    public var apnsEnvironment: String
    /// The token to register for APNs delivery.
    public var apnsToken: String
    /// Each GET answers with one notification, or with an empty body after a while.
    public var webcourierURL: String
}
