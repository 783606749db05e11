import StratusCore

/// Finds the database and zone a request addresses, making a database (with its default zone) the
/// first time it is used.
struct DatabaseDirectory: Sendable {
    let storage: any StratusStorage

    /// The database's row id, created with its default zone on first use. The shared database
    /// has no zones of its own, so it gets no default zone.
    func databaseID(for access: DatabaseAccess) async throws -> Int64 {
        let key = try access.databaseKey()
        if let id = try await storage.read({ try $0.databaseID(key, create: false) }) { return id }
        return try await storage.write { transaction in
            try Self.databaseID(key, in: transaction)
        }
    }

    /// The same, inside a write transaction.
    static func databaseID(_ key: DatabaseKey, in transaction: any StorageTransaction) throws -> Int64 {
        if let id = try transaction.databaseID(key, create: false) { return id }
        guard let id = try transaction.databaseID(key, create: true) else {
            throw CloudKitError(.internalError, "database could not be created")
        }
        if key.scope != .shared {
            _ = try transaction.insertZone(databaseID: id, zoneName: ZoneID.defaultZoneName, sequence: try transaction.nextChangeSequence())
        }
        return id
    }

    /// The live zone `zoneID` names in the database, or `ZONE_NOT_FOUND`.
    static func zone(_ zoneID: ZoneID?, databaseID: Int64, access: DatabaseAccess,
                     in transaction: any StorageTransaction) throws -> StoredZone {
        let zoneID = zoneID ?? .default
        try access.checkOwner(of: zoneID)
        if access.scope == .public && !zoneID.isDefaultZone {
            throw CloudKitError.zoneNotFound(zoneID.zoneName)
        }
        guard let zone = try transaction.liveZone(databaseID: databaseID, zoneName: zoneID.zoneName) else {
            throw CloudKitError.zoneNotFound(zoneID.zoneName)
        }
        return zone
    }

    /// The wire form of a stored zone, with its current sync token.
    static func wireZone(_ zone: StoredZone, access: DatabaseAccess) -> Zone {
        let zoneID = ZoneID(zoneName: zone.zoneName, ownerRecordName: access.zoneOwnerName)
        if zone.deleted { return Zone(zoneID: zoneID, deleted: true) }
        return Zone(zoneID: zoneID, syncToken: ChangeToken(kind: .zone, ownerID: zone.rowID, sequence: zone.changeSequence).encoded,
                    atomic: !zone.isDefaultZone)
    }
}
