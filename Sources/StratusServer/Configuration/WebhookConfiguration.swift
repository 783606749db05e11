import Foundation

/// How the server delivers webhooks (``WebhookCourier``, docs/webhooks.md).
public struct WebhookConfiguration: Sendable {
    /// Whether `http://` URLs and loopback, private, link-local, CGNAT and metadata addresses are
    /// allowed (`--webhook-allow-private`: tests and local development). Off, `webhook add`
    /// refuses `http://` and delivery refuses those addresses after resolving the host.
    public var allowsPrivateAddresses = false
    /// A PEM file of certificate authorities trusted besides the system's (`--webhook-ca-file`).
    public var caFile: String?
    /// How long an event waits for endpoints that have not passed it (`--webhook-backlog-days`),
    /// whatever history keeps.
    public var backlog: Duration = .seconds(7 * 24 * 3600)
    /// How long a receiver has to answer.
    public var timeout: Duration = .seconds(15)
    /// The wait before the second try of an event; each further failure doubles it (with
    /// jitter), up to ``longestRetryWait``.
    public var firstRetryWait: Duration = .seconds(5)
    /// The longest wait between two tries.
    public var longestRetryWait: Duration = .seconds(10 * 3600)
    /// How long an event is retried before its endpoint is marked failing.
    public var giveUpAfter: Duration = .seconds(3 * 24 * 3600)
    /// How long an instance holds an endpoint without renewing it: another instance takes over
    /// this long after the holder died.
    public var lease: Duration = .seconds(30)
    /// How often the courier looks for due retries and other instances' work without being told.
    public var pollInterval: Duration = .seconds(1)
    /// Finds endpoint hosts' addresses; nil asks the system. Tests inject their own.
    package var resolver: (any WebhookResolver)?

    public init() {}
}
