import StratusCore

/// `zones/list`, `zones/lookup` and `zones/modify`. Custom zones exist only in private databases.
package struct ZoneService: Sendable {
    let storage: any StratusStorage
    let directory: DatabaseDirectory
    let maxOperations: Int
    let hub: NotificationHub
    let clock: ServerClock
    /// Whether a deleted zone's records keep their last versions in the record log, by container.
    let historyRetention: HistoryRetention

    package func list(_ access: DatabaseAccess) async throws -> ZonesResponse {
        if access.scope == .shared {
            let user = try access.requireUser()
            return try await storage.read { transaction in
                ZonesResponse(zones: try await transaction.activeSharedZones(user: user).asyncCompactMap { entry in
                    guard let zone = try await transaction.zone(rowID: entry.zoneRowID), !zone.deleted,
                          let owner = try await transaction.databaseKey(id: zone.databaseID)?.ownerRecordName else { return nil }
                    return .success(DatabaseDirectory.wireZone(zone, owner: owner, in: transaction))
                })
            }
        }
        let databaseID = try await directory.databaseID(for: access)
        return try await storage.read { transaction in
            try await ZonesResponse(zones: transaction.liveZones(databaseID: databaseID).map {
                .success(DatabaseDirectory.wireZone($0, access: access, in: transaction))
            })
        }
    }

    package func lookup(_ request: ZonesLookupRequest, _ access: DatabaseAccess) async throws -> ZonesResponse {
        guard request.zones.count <= maxOperations else {
            throw CloudKitError.limitExceeded("at most \(maxOperations) zones per request")
        }
        guard access.scope != .shared else {
            return ZonesResponse(zones: request.zones.map { .failure(ZoneError(zoneID: $0, error: .zoneNotFound($0.zoneName))) })
        }
        let databaseID = try await directory.databaseID(for: access)
        return try await storage.read { transaction in
            ZonesResponse(zones: try await request.zones.asyncMap { zoneID in
                do {
                    let zone = try await DatabaseDirectory.zone(zoneID, databaseID: databaseID, access: access, in: transaction)
                    return .success(DatabaseDirectory.wireZone(zone, access: access, in: transaction))
                } catch let error as CloudKitError {
                    return .failure(ZoneError(zoneID: zoneID, error: error))
                }
            })
        }
    }

    /// Creates and deletes custom zones. Creating an existing zone returns it unchanged; deleting a
    /// zone deletes its records and reports the zone as deleted in `changes/database`.
    package func modify(_ request: ZonesModifyRequest, _ access: DatabaseAccess) async throws -> ZonesResponse {
        guard access.scope == .private else {
            throw CloudKitError.badRequest("zones can be created and deleted only in the private database")
        }
        guard request.operations.count <= maxOperations else {
            throw CloudKitError.limitExceeded("at most \(maxOperations) zone operations per request")
        }
        let key = try access.databaseKey()
        let keepsHistory = try await historyRetention.keepsHistory(in: access.containerID)
        return try await storage.write(publishingTo: hub) { transaction, changes in
            let databaseID = try await DatabaseDirectory.databaseID(key, in: changes)
            return ZonesResponse(zones: try await request.operations.asyncMap { operation in
                let zoneID = operation.zone.zoneID
                do {
                    return .success(try await transaction.withSavepoint {
                        try await apply(operation.operationType, zoneID, databaseID: databaseID, of: key, access: access, at: clock.milliseconds,
                                        keepsHistory: keepsHistory, in: changes)
                    })
                } catch let error as CloudKitError {
                    return .failure(ZoneError(zoneID: zoneID, error: error))
                }
            })
        }
    }

    private func apply(_ type: ZonesModifyRequest.Operation.OperationType, _ zoneID: ZoneID, databaseID: Int64, of owner: DatabaseKey,
                              access: DatabaseAccess, at time: Int64, keepsHistory: Bool, in changes: ChangeSet) async throws -> Zone {
        let transaction = changes.transaction
        try NameRules.validateZoneName(zoneID.zoneName)
        try access.checkOwner(of: zoneID)
        switch type {
        case .create:
            if let existing = try await transaction.liveZone(databaseID: databaseID, zoneName: zoneID.zoneName) {
                return DatabaseDirectory.wireZone(existing, access: access, in: transaction)
            }
            guard !zoneID.zoneName.hasPrefix("_") else {
                throw CloudKitError.badRequest("zone names starting with '_' are reserved")
            }
            let zone = try await transaction.insertZone(databaseID: databaseID, zoneName: zoneID.zoneName, sequence: try changes.nextSequence())
            if keepsHistory {
                try await transaction.logZoneCreation(zoneRowID: zone.rowID, sequence: zone.changeSequence,
                                                      stamp: RecordStamp(timestamp: time, userRecordName: try access.requireUser(), deviceID: access.deviceID))
            }
            return DatabaseDirectory.wireZone(zone, access: access, in: transaction)
        case .delete:
            guard !zoneID.isDefaultZone else { throw CloudKitError.badRequest("the default zone cannot be deleted") }
            guard let zone = try await transaction.liveZone(databaseID: databaseID, zoneName: zoneID.zoneName) else {
                throw CloudKitError.zoneNotFound(zoneID.zoneName)
            }
            let stamp = keepsHistory ? RecordStamp(timestamp: time, userRecordName: try access.requireUser(), deviceID: access.deviceID) : nil
            return DatabaseDirectory.wireZone(try await Self.delete(zone, of: owner, at: time, loggingAs: stamp, in: changes), access: access,
                                              in: transaction)
        }
    }

    /// Deletes a zone of `owner`'s private database: it leaves every participant's shared
    /// database with its shares, and becomes a tombstone without records. The owner's subscribers
    /// and each participant whose shared database it left hear of it. Returns the tombstone.
    ///
    /// With `stamp`, each live record's deletion is logged with its version (``RecordLogStore``),
    /// stamped so; without, the zone's history goes with it (its account or environment is
    /// being deleted).
    static func delete(_ zone: StoredZone, of owner: DatabaseKey, at time: Int64, loggingAs stamp: RecordStamp?,
                       in changes: ChangeSet) async throws -> StoredZone {
        let transaction = changes.transaction
        var zone = zone
        let members = try await transaction.sharedZoneMembers(zoneRowID: zone.rowID)
        for member in members {
            try await transaction.setSharedZone(user: member, zoneRowID: zone.rowID, active: false, sequence: try changes.nextSequence())
        }
        for share in try await transaction.shares(zoneRowID: zone.rowID) {
            try await transaction.deleteShare(zoneRowID: zone.rowID, recordName: share.recordName)
        }
        zone.changeSequence = try await changes.nextSequence()
        zone.deleted = true
        if let stamp {
            try await transaction.logZoneDeletion(zoneRowID: zone.rowID, sequence: zone.changeSequence, stamp: stamp)
        } else {
            try await transaction.purgeZoneHistory(zoneRowID: zone.rowID)
        }
        try await transaction.deleteZone(rowID: zone.rowID, sequence: zone.changeSequence, at: time)
        changes.zoneDeleted(zoneRowID: zone.rowID, zoneName: zone.zoneName, database: owner, databaseID: zone.databaseID)
        for member in members {
            let shared = DatabaseKey(containerID: owner.containerID, environment: owner.environment, scope: .shared, ownerRecordName: member)
            guard let databaseID = try await transaction.databaseID(shared, create: false) else { continue }
            changes.sharedZoneChanged(zone, owner: owner.ownerRecordName, database: shared, databaseID: databaseID)
        }
        return zone
    }
}
