// The names of the previous release, kept for one release: `Query` and `Subscription` clash with
// SwiftData's and Combine's in an app that imports them too.

/// The previous name of ``CloudQuery``.
@available(*, deprecated, renamed: "CloudQuery")
public typealias Query = CloudQuery

/// The previous name of ``CloudSubscription``.
@available(*, deprecated, renamed: "CloudSubscription")
public typealias Subscription = CloudSubscription
