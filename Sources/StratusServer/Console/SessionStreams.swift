import Foundation
import Synchronization

/// The open answers that last only as long as their session (the console's activity streams),
/// ended the moment the session ends: ``NotificationHub/endSessions(_:)`` ends them here and, through
/// the instance bus, on every other instance, as it closes push connections.
package final class SessionStreams: Sendable {
    private let open = Mutex<[String: [UUID: @Sendable () -> Void]]>([:])

    /// Registers `end`, to be called once when the session of `sessionHash` ends; returns what
    /// ``remove(_:sessionHash:)`` takes when the stream ends by itself first.
    func add(sessionHash: String, end: @escaping @Sendable () -> Void) -> UUID {
        let id = UUID()
        open.withLock { $0[sessionHash, default: [:]][id] = end }
        return id
    }

    func remove(_ id: UUID, sessionHash: String) {
        open.withLock { open in
            open[sessionHash]?[id] = nil
            if open[sessionHash]?.isEmpty == true { open[sessionHash] = nil }
        }
    }

    /// Ends every stream of these sessions.
    func end(_ sessionHashes: Set<String>) {
        let ending = open.withLock { open in sessionHashes.flatMap { open.removeValue(forKey: $0)?.values.map { $0 } ?? [] } }
        for end in ending { end() }
    }
}
