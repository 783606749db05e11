/// Tells the webhook courier that something may be waiting: a commit here or on another
/// instance, or an endpoint changed. Rings coalesce; the courier also looks on its own every
/// ``WebhookConfiguration/pollInterval``.
package final class WebhookBell: Sendable {
    let rings: AsyncStream<Void>
    private let ringer: AsyncStream<Void>.Continuation

    init() {
        (rings, ringer) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    func ring() {
        ringer.yield()
    }
}
