import StratusCore
import Synchronization

/// Reads a zone's next page of changes while its owner is still reading the page before.
///
/// A device syncing a zone from scratch asks for page after page, each request sent once the
/// last answer is read and applied. When a page answers with `moreComing`, the feed starts
/// reading the next one at once, in a read transaction of its own, and keeps its rows for the
/// request that brings the page's token back. That request checks the token and the caller's
/// access as any request does, and uses the kept rows only if they are of the zone it reads and
/// the zone's change sequence is the one they were read at: every write to a record of the zone
/// moves it, in the write's own transaction, so the answer is the one a read of its own would
/// give. Only an owner's pages are read ahead (a participant's depend on their shares).
///
/// Bounded, as every caller may be hostile: at most ``maxPages`` pages are kept or being read,
/// one per user and zone; each is taken once, and dropped after ``lifetime``.
final class ChangeReadAhead: Sendable {
    /// What a kept page was read for: a request must match all of it to take the page.
    struct Key: Hashable, Sendable {
        var user: String
        var syncToken: String
        var resultsLimit: Int?
        var recordTypes: [String]?
    }

    /// Rows read ahead, the zone they are of, and its change sequence when they were read.
    struct Page: Sendable {
        var rows: [StoredRecord]
        var zoneRowID: Int64
        var zoneSequence: Int64
    }

    private struct Entry {
        var key: Key
        var zoneRowID: Int64
        var started: ContinuousClock.Instant
        var read: Task<Page?, Never>
    }

    /// Most pages kept or being read at once, for all users.
    static let maxPages = 8
    /// How long a page is kept for its request.
    static let lifetime = Duration.seconds(30)

    let storage: any StratusStorage
    private let entries = Mutex<[Entry]>([])
    private let outcomes = Mutex((used: 0, stale: 0))

    init(storage: any StratusStorage) {
        self.storage = storage
    }

    /// Kept pages a request used, and those it read again because the zone had changed, since
    /// the server started.
    var statistics: (used: Int, stale: Int) { outcomes.withLock { $0 } }

    /// Starts reading the page `key` names: at most `limit` rows of the zone after `after` and
    /// one more (to tell whether more come), within `maxBytes`, leaving out deletions up to
    /// `horizon` (as the token says). A page kept for the same user and zone is dropped first;
    /// when ``maxPages`` are kept, nothing is read.
    func start(_ key: Key, zoneRowID: Int64, after: Int64, horizon: Int64, limit: Int, maxBytes: Int) {
        let now = ContinuousClock.now
        entries.withLock { entries in
            entries.removeAll { $0.started + Self.lifetime < now || ($0.key.user == key.user && $0.zoneRowID == zoneRowID) }
            guard entries.count < Self.maxPages else { return }
            let storage = self.storage
            let read = Task<Page?, Never>.detached {
                try? await storage.read { transaction in
                    // The zone first: a write between the two reads then makes the page stale,
                    // never a page newer than its sequence says (PostgreSQL reads each
                    // statement at its own moment).
                    guard let zone = try await transaction.zone(rowID: zoneRowID) else { return nil }
                    let rows = try await transaction.recordChanges(zoneRowID: zoneRowID, after: after, skippingDeletionsThrough: horizon,
                                                                   limit: limit + 1, maxBytes: maxBytes, recordTypes: key.recordTypes)
                    return Page(rows: rows, zoneRowID: zoneRowID, zoneSequence: zone.changeSequence)
                }
            }
            entries.append(Entry(key: key, zoneRowID: zoneRowID, started: now, read: read))
        }
    }

    /// Takes the page kept for `key`, waiting for its read if it is still going on.
    func take(_ key: Key) async -> Page? {
        let now = ContinuousClock.now
        let entry = entries.withLock { entries -> Entry? in
            guard let index = entries.firstIndex(where: { $0.key == key }) else { return nil }
            return entries.remove(at: index)
        }
        guard let entry, entry.started + Self.lifetime >= now else { return nil }
        return await entry.read.value
    }

    /// The rows of `page` if they answer a read of zone `zoneRowID` now at `zoneSequence`: nil
    /// when there is no page, it is another zone's, or the zone has changed since it was read.
    func rows(of page: Page?, zoneRowID: Int64, zoneSequence: Int64) -> [StoredRecord]? {
        guard let page, page.zoneRowID == zoneRowID else { return nil }
        let used = page.zoneSequence == zoneSequence
        outcomes.withLock { if used { $0.used += 1 } else { $0.stale += 1 } }
        ServerMetrics.changePageReadAhead(used ? .used : .stale)
        return used ? page.rows : nil
    }

    /// Returns once every page being read has been read (tests wait for it).
    func settled() async {
        for read in entries.withLock({ $0.map(\.read) }) { _ = await read.value }
    }
}
