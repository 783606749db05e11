import Foundation
import Synchronization
import StratusCore

/// The changes this server committed lately, for the console's activity page: the newest
/// ``capacity`` kept, and each one handed as it commits to the pages watching (at most
/// ``maxWatchers``, each with a bounded queue that drops its oldest entries when the page falls
/// behind).
package final class ActivityFeed: Sendable {
    /// One record (or zone) change.
    package struct Entry: Sendable, Equatable {
        package var time: Int64
        package var containerID: String
        package var environment: ContainerEnvironment
        package var scope: DatabaseScope
        /// The database's owner ("" for the public database).
        package var owner: String
        package var zone: String
        /// The record's name, or nil when the zone itself was deleted.
        package var recordName: String?
        package var recordType: String?
        /// `create`, `update`, `delete`, or `loss alarm` (``LossAlarm``).
        package var change: String
        /// For a loss alarm: who deleted how much from which device, and the moment to restore the zone to.
        package var lossAlarm: LossAlarm? = nil
    }

    package static let capacity = 100
    package static let maxWatchers = 32

    private struct State {
        var recent: [Entry] = []
        var watchers: [UUID: AsyncStream<Entry>.Continuation] = [:]
    }

    private let state = Mutex(State())

    /// What entries are stamped with.
    private let clock: ServerClock

    package init(clock: ServerClock) {
        self.clock = clock
    }

    /// Notes what one request committed.
    func record(_ changes: CommittedChanges) {
        let base = Entry(time: clock.milliseconds, containerID: changes.database.containerID, environment: changes.database.environment,
                         scope: changes.database.scope, owner: changes.database.ownerRecordName, zone: changes.zoneName, recordName: nil, recordType: nil, change: "delete")
        var entries = changes.records.map { record in
            var entry = base
            entry.recordName = record.recordName
            entry.recordType = record.recordType
            entry.change = record.trigger.rawValue
            return entry
        }
        if changes.zoneDeleted { entries.append(base) }
        if let alarm = changes.lossAlarm {
            var entry = base
            entry.change = "loss alarm"
            entry.lossAlarm = alarm
            entries.append(entry)
        }
        guard !entries.isEmpty else { return }
        let watchers = state.withLock { state in
            state.recent.append(contentsOf: entries)
            if state.recent.count > Self.capacity { state.recent.removeFirst(state.recent.count - Self.capacity) }
            return Array(state.watchers.values)
        }
        for watcher in watchers {
            for entry in entries { watcher.yield(entry) }
        }
    }

    /// The kept entries, newest first.
    package var recent: [Entry] {
        state.withLock { $0.recent.reversed() }
    }

    /// The entries committed from now on, until the stream is dropped; nil when
    /// ``maxWatchers`` pages watch already.
    package func watch() -> AsyncStream<Entry>? {
        let id = UUID()
        let (stream, continuation) = AsyncStream.makeStream(of: Entry.self, bufferingPolicy: .bufferingNewest(Self.capacity))
        let added = state.withLock { state in
            guard state.watchers.count < Self.maxWatchers else { return false }
            state.watchers[id] = continuation
            return true
        }
        guard added else { return nil }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.watchers.removeValue(forKey: id) }
        }
        return stream
    }
}
