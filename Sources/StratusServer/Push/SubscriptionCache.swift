/// Each database's subscriptions, as the notification hub matches commits against them: kept in
/// memory while they fit ``maxBytes`` in all (in bytes as sent), forgotten when they change. Past
/// the budget the cache starts again; a database's larger than it are read at each commit.
struct SubscriptionCache {
    static let maxBytes = 64 * 1024 * 1024
    private var entries: [Int64: (list: [StoredSubscription], bytes: Int)] = [:]
    private var bytes = 0

    /// The database's subscriptions, if they are kept.
    func subscriptions(of databaseID: Int64) -> [StoredSubscription]? {
        entries[databaseID]?.list
    }

    /// Keeps a database's subscriptions as just read, if they fit.
    mutating func keep(_ list: [StoredSubscription], of databaseID: Int64) {
        let size = list.reduce(0) { $0 + $1.subscription.sentSize }
        guard size <= Self.maxBytes else { return }
        if bytes + size > Self.maxBytes {
            entries = [:]
            bytes = 0
        }
        forget(databaseID)
        entries[databaseID] = (list, size)
        bytes += size
    }

    mutating func forget(_ databaseID: Int64) {
        bytes -= entries.removeValue(forKey: databaseID)?.bytes ?? 0
    }
}
