import NIOCore
import StratusCore

/// The push connections (WebSockets and couriers) one instance holds, each a ``Mailbox``, by
/// listener, within their limits: `maxConnectionsPerUser` of one user at once, `maxConnections`
/// in all. Past either, a connection is refused with `THROTTLED` and a `retryAfter`.
struct PushConnections {
    let mailboxCapacity: Int
    let maxConnectionsPerUser: Int
    let maxConnections: Int
    private var mailboxes: [NotificationHub.Listener: [ObjectIdentifier: Mailbox]] = [:]
    /// Connections held now.
    private(set) var count = 0

    /// The seconds a refused connection is told to wait.
    static let retryAfter = 30

    init(mailboxCapacity: Int, maxConnectionsPerUser: Int, maxConnections: Int) {
        self.mailboxCapacity = mailboxCapacity
        self.maxConnectionsPerUser = maxConnectionsPerUser
        self.maxConnections = maxConnections
    }

    /// The mailboxes of a listener's connections.
    func mailboxes(of listener: NotificationHub.Listener) -> Dictionary<ObjectIdentifier, Mailbox>.Values? {
        mailboxes[listener]?.values
    }

    /// How many connections the listener holds now.
    func count(of listener: NotificationHub.Listener) -> Int {
        mailboxes[listener]?.count ?? 0
    }

    /// The sessions the connections were opened with.
    var sessionHashes: Set<String> {
        Set(mailboxes.values.flatMap { $0.values.map(\.sessionHash) })
    }

    /// Opens a connection's mailbox; it starts with what `catchUp` makes, the notification that
    /// tells a device to fetch (it may have missed some while it was away), and falls back to a
    /// new one when it overflows.
    mutating func open(_ listener: NotificationHub.Listener, session: StoredSession, catchUp: @escaping @Sendable () -> ByteBuffer) throws(CloudKitError) -> Mailbox {
        guard count < maxConnections else {
            throw CloudKitError(.throttled, "the server holds as many push connections as it may (\(maxConnections)); retry later",
                                retryAfter: Self.retryAfter)
        }
        guard count(of: listener) < maxConnectionsPerUser else {
            throw CloudKitError(.throttled, "a user may hold at most \(maxConnectionsPerUser) push connections; close some first",
                                retryAfter: Self.retryAfter)
        }
        let mailbox = Mailbox(capacity: mailboxCapacity, overflow: catchUp, session: session)
        mailboxes[listener, default: [:]][ObjectIdentifier(mailbox)] = mailbox
        count += 1
        ServerMetrics.pushConnections(count)
        mailbox.post(catchUp(), key: "overflow")
        return mailbox
    }

    mutating func close(_ listener: NotificationHub.Listener, _ mailbox: Mailbox) {
        mailbox.close()
        guard mailboxes[listener]?.removeValue(forKey: ObjectIdentifier(mailbox)) != nil else { return }
        if mailboxes[listener]?.isEmpty == true { mailboxes[listener] = nil }
        count -= 1
        ServerMetrics.pushConnections(count)
    }

    mutating func closeAll(where ends: (Mailbox) -> Bool) {
        for (listener, devices) in mailboxes {
            for mailbox in devices.values where ends(mailbox) { close(listener, mailbox) }
        }
    }
}
