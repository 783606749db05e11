import Synchronization

/// The note a console change leaves for the page it redirects to ("The key is revoked."), kept
/// with the session that made the change, never in the URL: no link can make the console show
/// someone else's text. The next page the session opens shows it once.
///
/// Kept in this process's memory and bounded (one note per session, at most ``capacity``
/// sessions, each note cut to ``maxBytes``); behind a load balancer the redirected page may land
/// on another instance and show none.
final class ConsoleNotices: Sendable {
    static let capacity = 1_000
    static let maxBytes = 1_024

    private let notes = Mutex<[String: String]>([:])

    /// Leaves `note` for the session's next page.
    func leave(_ note: String, for session: String) {
        var note = note
        while note.utf8.count > Self.maxBytes { note.removeLast() }
        notes.withLock { notes in
            if notes[session] == nil, notes.count >= Self.capacity { notes.removeAll() }
            notes[session] = note
        }
    }

    /// The note left for the session, once.
    func take(for session: String) -> String? {
        notes.withLock { $0.removeValue(forKey: session) }
    }
}
