import StratusCore

/// What one write transaction changed, zone by zone, and the versions it gave.
///
/// Every writer versions what it changes here (a record's change sequence and change tag, a
/// zone's sequence, a shared database's entry) and reports the change (record saves, share
/// operations, zone deletions, subscription changes, schema resets, account deletion). Before the
/// transaction commits, the set moves each changed zone's sequence; after, it is published once
/// (``StratusStorage/write(publishingTo:_:)``): to push connections, the console's activity feed,
/// APNs and other instances. It is the only producer of ``CommittedChanges`` and of change
/// sequences.
package final class ChangeSet {
    /// The transaction whose changes these are.
    let transaction: any StorageTransaction
    /// The changes, one entry per zone of a database, in the order they were first reported.
    private(set) var commits: [CommittedChanges] = []
    /// Where each zone's entry is, and where each of its records is in it.
    private var positions: [Place: (entry: Int, records: [String: Int])] = [:]

    /// Zones whose records changed, in the order they were first reported.
    private var changedZones: [Int64] = []
    /// Databases whose subscriptions were created, changed or deleted.
    private(set) var subscriptionDatabases: Set<Int64> = []

    private struct Place: Hashable {
        var databaseID: Int64
        var zoneRowID: Int64
    }

    init(transaction: any StorageTransaction) {
        self.transaction = transaction
    }

    // MARK: Versions

    /// The next change sequence. Every change takes one (a record's version, a zone created or
    /// deleted, a zone coming into or leaving a shared database), and change tokens are positions
    /// in this sequence.
    func nextSequence() async throws -> Int64 {
        try await transaction.nextChangeSequence()
    }

    /// Gives `record` a new version: the next change sequence, and the change tag made of it.
    /// Report the change with ``recordsChanged(_:zone:database:zoneIsShared:)`` once it stands.
    @inline(__always)   // into each write of a record: an `async` call asks the task for its executor
    func version(_ record: inout StoredRecord) async throws {
        record.sequence = try await transaction.nextChangeSequence()
        record.changeTag = StoredRecord.derivedChangeTag(of: record.sequence)
    }

    /// Moves the change sequence of every zone whose records changed to the transaction's last,
    /// so database change feeds list them. Runs once, before the transaction commits.
    fileprivate func seal() async throws {
        guard !changedZones.isEmpty else { return }
        let last = try await transaction.currentChangeSequence()
        for zoneRowID in changedZones {
            try await transaction.setZoneChangeSequence(rowID: zoneRowID, sequence: last)
        }
    }

    // MARK: Changes

    /// Records of `zone` in its owner's `database` were saved or deleted; `zoneIsShared` when the
    /// zone had shares (a zone without any has no participant to tell, and publishing reads none).
    /// A record reported again keeps one entry with its latest fields: created, if it was created
    /// in this transaction and not deleted since.
    func recordsChanged(_ changes: [RecordChange], zone: StoredZone, database: DatabaseKey, zoneIsShared: Bool) {
        guard !changes.isEmpty else { return }
        let place = Place(databaseID: zone.databaseID, zoneRowID: zone.rowID)
        let entry = entry(place, database: database, zoneName: zone.zoneName)
        if !changedZones.contains(zone.rowID) { changedZones.append(zone.rowID) }
        if zoneIsShared { commits[entry].zoneIsShared = true }
        // Taken out while it grows, so that it is not copied, and each name is hashed once.
        var records = positions[place]?.records ?? [:]
        positions[place]?.records = [:]
        defer { positions[place]?.records = records }
        records.reserveCapacity(records.count + changes.count)
        commits[entry].records.reserveCapacity(commits[entry].records.count + changes.count)
        for change in changes {
            if let index = records.updateValue(commits[entry].records.count, forKey: change.recordName) {
                records[change.recordName] = index
                let created = commits[entry].records[index].trigger == .create && change.trigger != .delete
                commits[entry].records[index] = change
                if created { commits[entry].records[index].trigger = .create }
            } else {
                commits[entry].records.append(change)
            }
        }
    }

    /// A write in `zone` of its owner's `database` raised the loss alarm.
    func lossAlarmRaised(_ alarm: LossAlarm, zone: StoredZone, database: DatabaseKey) {
        commits[entry(Place(databaseID: zone.databaseID, zoneRowID: zone.rowID), database: database, zoneName: zone.zoneName)].lossAlarm = alarm
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

    /// Subscriptions of the database whose row is `databaseID` were created, changed or deleted:
    /// every instance forgets what it cached of them before the changes are published.
    func subscriptionsChanged(databaseID: Int64) {
        subscriptionDatabases.insert(databaseID)
    }

    private func entry(_ place: Place, database: DatabaseKey, zoneName: String) -> Int {
        if let known = positions[place] { return known.entry }
        commits.append(CommittedChanges(database: database, databaseID: place.databaseID, zoneRowID: place.zoneRowID, zoneName: zoneName))
        positions[place] = (commits.count - 1, [:])
        return commits.count - 1
    }
}

extension StratusStorage {
    /// Runs `body` in one write transaction with the ``ChangeSet`` its writers version with and
    /// report to, seals the set before the commit, and publishes it through `hub` once the
    /// transaction has committed (nothing, if it failed): each instance first forgets the
    /// subscriptions that changed, then hears of the records and zones.
    func write<T: Sendable>(publishingTo hub: NotificationHub,
                            _ body: @escaping @Sendable (any StorageTransaction, ChangeSet) async throws -> T) async throws -> T {
        try await write(publishingTo: hub, body, carrying: { $0 })
    }

    /// As ``write(publishingTo:_:)``, and turns the body's value into the request's answer with
    /// `answer`. With `whileCommitting`, in a task of its own that starts as soon as the body
    /// returns: the answer is made while the transaction commits (its fsync keeps the writer
    /// waiting, not working), and is returned only once the commit is durable; when the
    /// transaction fails, the answer made is dropped. Handing the answer to another thread and
    /// back costs about 0.05 ms here, more than a small answer takes to make.
    func write<T: Sendable, Answer: Sendable>(publishingTo hub: NotificationHub, answering answer: @escaping @Sendable (T) throws -> Answer,
                                              whileCommitting: Bool,
                                              _ body: @escaping @Sendable (any StorageTransaction, ChangeSet) async throws -> T) async throws -> Answer {
        guard whileCommitting else { return try answer(try await write(publishingTo: hub, body)) }
        let answering = try await write(publishingTo: hub, body) { value in
            // Not on the connection's thread: the commit keeps that one.
            Task(executorPreference: globalConcurrentExecutor) { try answer(value) }
        }
        return try await answering.value
    }

    /// The transaction and its publishing, once: `carry` takes the body's value on the
    /// connection's thread, before the set is sealed and the transaction commits.
    private func write<T: Sendable, Carried: Sendable>(publishingTo hub: NotificationHub,
                                                       _ body: @escaping @Sendable (any StorageTransaction, ChangeSet) async throws -> T,
                                                       carrying carry: @escaping @Sendable (T) -> Carried) async throws -> Carried {
        let (carried, commits, subscriptionDatabases) = try await write { transaction in
            let changes = ChangeSet(transaction: transaction)
            let carried = carry(try await body(transaction, changes))
            try await changes.seal()
            return (carried, changes.commits, changes.subscriptionDatabases)
        }
        for databaseID in subscriptionDatabases { await hub.subscriptionsChanged(databaseID: databaseID) }
        await hub.publish(commits)
        return carried
    }
}
