/// A push token from CloudKit's `tokens/create`: the APNs token and environment, and the
/// `webcourierURL` a client without APNs long-polls for the signed-in user's notifications.
public struct PushToken: Sendable, Equatable {
    public var apnsEnvironment: String
    public var apnsToken: String
    /// Each GET answers with one notification, or with an empty body after a while.
    public var webcourierURL: String
}
