import StratusCore

/// What one write transaction changed, zone by zone.
///
/// Every writer reports here (record saves, share operations, zone deletions, account deletion),
/// and the set is published once, after the transaction commits
/// (``StratusStorage/write(publishingTo:_:)``): to push connections, the console's activity feed,
/// APNs and other instances. It is the only producer of ``CommittedChanges``.
package final class ChangeSet {
    /// The changes, one entry per zone of a database, in the order they were first reported.
    private(set) var commits: [CommittedChanges] = []
    /// Where each zone's entry is, and where each of its records is in it.
    private var positions: [Place: (entry: Int, records: [String: Int])] = [:]

    private struct Place: Hashable {
        var databaseID: Int64
        var zoneRowID: Int64
    }

    /// Records of `zone` in its owner's `database` were saved or deleted; `zoneIsShared` when the
    /// zone had shares (a zone without any has no participant to tell, and publishing reads none).
    /// A record reported again keeps one entry with its latest fields: created, if it was created
    /// in this transaction and not deleted since.
    func recordsChanged(_ changes: [RecordChange], zone: StoredZone, database: DatabaseKey, zoneIsShared: Bool) {
        guard !changes.isEmpty else { return }
        let place = Place(databaseID: zone.databaseID, zoneRowID: zone.rowID)
        let entry = entry(place, database: database, zoneName: zone.zoneName)
        if zoneIsShared { commits[entry].zoneIsShared = true }
        for change in changes {
            if let index = positions[place]?.records[change.recordName] {
                let created = commits[entry].records[index].trigger == .create && change.trigger != .delete
                commits[entry].records[index] = change
                if created { commits[entry].records[index].trigger = .create }
            } else {
                positions[place]?.records[change.recordName] = commits[entry].records.count
                commits[entry].records.append(change)
            }
        }
    }

    /// A zone of `database` was deleted, with its records.
    func zoneDeleted(zoneRowID: Int64, zoneName: String, database: DatabaseKey, databaseID: Int64) {
        commits[entry(Place(databaseID: databaseID, zoneRowID: zoneRowID), database: database, zoneName: zoneName)].zoneDeleted = true
    }

    /// The owner's `zone` came into, or left, a participant's shared database (`database`, whose
    /// row is `databaseID`): they accepted a share of it, or left or lost the last one.
    func sharedZoneChanged(_ zone: StoredZone, owner: String, database: DatabaseKey, databaseID: Int64) {
        let entry = entry(Place(databaseID: databaseID, zoneRowID: zone.rowID), database: database, zoneName: zone.zoneName)
        commits[entry].zoneOwner = owner
    }

    private func entry(_ place: Place, database: DatabaseKey, zoneName: String) -> Int {
        if let known = positions[place] { return known.entry }
        commits.append(CommittedChanges(database: database, databaseID: place.databaseID, zoneRowID: place.zoneRowID, zoneName: zoneName))
        positions[place] = (commits.count - 1, [:])
        return commits.count - 1
    }
}

extension StratusStorage {
    /// Runs `body` in one write transaction with the ``ChangeSet`` its writers report to, and
    /// publishes the set through `hub` once the transaction has committed (nothing, if it failed).
    func write<T: Sendable>(publishingTo hub: NotificationHub,
                            _ body: @escaping @Sendable (any StorageTransaction, ChangeSet) async throws -> T) async throws -> T {
        let (value, commits) = try await write { transaction in
            let changes = ChangeSet()
            let value = try await body(transaction, changes)
            return (value, changes.commits)
        }
        await hub.publish(commits)
        return value
    }
}
