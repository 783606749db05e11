import Crypto
import StratusCore

/// A zone's history (Stratus extensions): `zones/deleted`, the deleted zones whose records' versions
/// are kept, and `zones/restore`, the zone brought back to what it was at a moment as forward changes
/// — changed records saved back, deleted ones undeleted, later creations deleted, a deleted zone
/// made again under the same zone ID — a step at a time.
///
/// Each step is one transaction over at most ``zoneRestoreStep`` record names (in name order) and
/// answers the marker of the next; it changes only records whose current version differs from
/// the one then, so a step run twice (a lost answer, a crash) changes nothing more and any size
/// of zone can be restored. Shares stay as they are now. Only the zone's owner may, in the private
/// database.
extension HistoryService {
    /// The record names one `zones/restore` step decides.
    static let zoneRestoreStep = 200

    /// The caller's deleted zones whose records' versions are kept.
    package func deletedZones(_ request: DeletedZonesRequest, _ access: DatabaseAccess) async throws -> DeletedZonesResponse {
        try Self.requireZoneOwner(access)
        let limit = try ResultsLimit.resolve(request.resultsLimit, maximum: Self.maxResultsLimit)
        return try await directory.read(for: access) { databaseID, transaction in
            DeletedZonesResponse(zones: try await transaction.deletedZones(databaseID: databaseID, limit: limit).map { entry in
                .init(zoneID: ZoneID(zoneName: entry.zone.zoneName), deleted: entry.deletedAt)
            })
        }
    }

    /// One step of restoring a zone to what it was at `request.timestamp`.
    package func restoreZone(_ request: ZoneRestoreRequest, _ access: DatabaseAccess) async throws -> ZoneRestoreResponse {
        let user = try Self.requireZoneOwner(access)
        let now = clock.milliseconds
        let kept = try await retention.retention(of: access.containerID)
        guard kept > .zero, request.timestamp >= now - kept.milliseconds else {
            throw CloudKitError.badRequest("timestamp is older than the history kept (\(kept.components.seconds / 86_400) days)")
        }
        guard request.timestamp <= now else { throw CloudKitError.badRequest("timestamp is in the future") }
        let marker = try request.continuationMarker.map { try ZoneRestoreMarker(unsealing: $0, with: markerKey) }
        if let marker, marker.zoneName != request.zoneID.zoneName || marker.timestamp != request.timestamp {
            throw CloudKitError.badRequest("continuationMarker belongs to another zone's or moment's restore")
        }
        do {
            return try await restoreStep(request, access, user: user, after: marker?.after, sealer: keys.cachedSealer(for: .user(user)))
        } catch let needed as SealedFields.KeyNeeded {
            return try await restoreStep(request, access, user: user, after: marker?.after, sealer: keys.sealer(for: .user(needed.owner)))
        }
    }

    private func restoreStep(_ request: ZoneRestoreRequest, _ access: DatabaseAccess, user: String, after: String?,
                             sealer: Sealer?) async throws -> ZoneRestoreResponse {
        let key = try access.databaseKey()
        let context = WriteContext(access: access, user: user, now: clock.milliseconds)
        let (zoneName, moment) = (request.zoneID.zoneName, request.timestamp)
        return try await storage.write(publishingTo: hub) { transaction, changes in
            let databaseID = try await DatabaseDirectory.databaseID(key, in: changes)
            let rows = try await transaction.zones(databaseID: databaseID, zoneName: zoneName)
            // The zone then: the first of its name not deleted by that moment (zones of one name follow each other).
            guard let source = rows.first(where: { $0.deletedAt.map { $0 > moment } ?? true })?.zone else {
                throw CloudKitError.zoneNotFound(zoneName)
            }
            let target = if let live = rows.last(where: { !$0.zone.deleted })?.zone {
                live
            } else {
                try await Self.recreate(zoneName, databaseID: databaseID, stamp: context.stamp, in: changes)
            }
            let sharing = ShareOperations(changes: changes, grant: ZoneGrant(zone: target, owner: user, sharing: nil), access: access)
            try await sharing.readShares()
            let writer = RecordWriter(changes: changes, grant: ZoneGrant(zone: target, owner: user, sharing: nil), context: context, sealer: sealer,
                                      maxRecordBytes: maxRecordBytes, maxBatchBytes: maxBatchBytes, keepsHistory: true)
            let zoneRowIDs = source.rowID == target.rowID ? [source.rowID] : [source.rowID, target.rowID]
            let names = try await transaction.recordNames(zoneRowIDs: zoneRowIDs, after: after, limit: Self.zoneRestoreStep)
            var restored: [String] = [], deleted: [String] = [], errors: [RecordError] = []
            for name in names {
                let then: StoredRecord?
                switch try await transaction.recordState(zoneRowID: source.rowID, recordName: name, at: moment) {
                case .unchanged:
                    // Unchanged in the zone that is still live: nothing to do. A deleted zone's
                    // records were each logged as they went, so unchanged there means absent.
                    if source.rowID == target.rowID { continue }
                    then = nil
                case .absent: then = nil
                case .version(let version): then = version
                }
                let now = try await transaction.record(zoneRowID: target.rowID, recordName: name).flatMap { $0.deleted ? nil : $0 }
                // A zone's restore leaves its shares as they are.
                if [then, now].contains(where: { $0.map { ShareKeys.isShareType($0.recordType) } ?? false }) { continue }
                if let then {
                    if let now, try writer.sameContent(now, then) { continue }
                    switch try await writer.restoreAlone(then, expectedCurrentChangeTag: nil, bringingBackCascade: false) {
                    case .success: restored.append(name)
                    case .failure(let failure): errors.append(RecordError(recordName: name, error: failure.error))
                    }
                } else if now != nil {
                    switch try await writer.deleteAlone(name) {
                    case .success: deleted.append(name)
                    case .failure(let failure): errors.append(RecordError(recordName: name, error: failure.error))
                    }
                }
            }
            if !writer.history.isEmpty { try await transaction.appendRecordLog(writer.history) }
            changes.recordsChanged(writer.changeLog, zone: target, database: key, zoneIsShared: sharing.zoneHadShares)
            let next = names.count == Self.zoneRestoreStep ? names.last.map {
                ZoneRestoreMarker(zoneName: zoneName, timestamp: moment, after: $0).sealed(with: markerKey)
            } : nil
            return ZoneRestoreResponse(zoneID: ZoneID(zoneName: zoneName), restoredRecords: restored, deletedRecords: deleted, errors: errors,
                                       continuationMarker: next)
        }
    }

    /// The caller, who must be asking of their own private database.
    @discardableResult
    private static func requireZoneOwner(_ access: DatabaseAccess) throws -> String {
        let user = try access.requireUser()
        guard access.scope == .private else {
            throw CloudKitError.badRequest("zones are restored by their owner, in the private database")
        }
        return user
    }

    /// Makes a deleted zone again under its zone ID, logged as the zone's creation.
    private static func recreate(_ zoneName: String, databaseID: Int64, stamp: RecordStamp, in changes: ChangeSet) async throws -> StoredZone {
        let zone = try await changes.transaction.insertZone(databaseID: databaseID, zoneName: zoneName, sequence: try changes.nextSequence())
        try await changes.transaction.logZoneCreation(zoneRowID: zone.rowID, sequence: zone.changeSequence, stamp: stamp)
        return zone
    }
}

/// Where the next step of a zone's restore starts: after the record name `after`.
struct ZoneRestoreMarker: SealedMarker {
    var zoneName: String
    var timestamp: Int64
    var after: String

    init(zoneName: String, timestamp: Int64, after: String) {
        self.zoneName = zoneName
        self.timestamp = timestamp
        self.after = after
    }
}
