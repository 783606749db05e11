import Foundation

/// How the server reaches Apple's push service. The credentials (key, team, bundle ID) are each
/// container's, set with `stratus apns set`.
public struct APNsConfiguration: Sendable {
    /// The host for device tokens registered with `apnsEnvironment` `production`.
    public var productionURL = "https://api.push.apple.com"
    /// The host for tokens registered with `apnsEnvironment` `development`.
    public var sandboxURL = "https://api.sandbox.push.apple.com"
    /// A PEM file of certificates trusted besides the system's, for a host of one's own (a relay,
    /// or a test endpoint). Nil: the system's trust store only.
    public var additionalTrustRoots: URL?
    /// How long APNs keeps trying to reach a device that is offline (`apns-expiration`).
    public var expiration: Duration = .seconds(24 * 3600)
    /// Device tokens one user may register in an environment; a newer one displaces the oldest.
    public var maxTokensPerUser = 20
    /// Pushes being sent at once; past it, new notifications are dropped (a notification is a
    /// hint: the device fetches by change token when it next syncs).
    public var maxInFlight = 1_000

    public init() {}
}
