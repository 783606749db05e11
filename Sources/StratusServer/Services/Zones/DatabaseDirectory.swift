import StratusCore

/// Finds the database and zone a request addresses, making a database (with its default zone) the
/// first time it is used.
struct DatabaseDirectory: Sendable {
    let storage: any StratusStorage
    let hub: NotificationHub

    /// The database's row id, created with its default zone on first use. The shared database
    /// has no zones of its own, so it gets no default zone.
    func databaseID(for access: DatabaseAccess) async throws -> Int64 {
        let key = try access.databaseKey()
        if let id = try await storage.read({ try await $0.databaseID(key, create: false) }) { return id }
        return try await storage.write(publishingTo: hub) { _, changes in
            try await Self.databaseID(key, in: changes)
        }
    }

    /// Runs `body` in one read transaction with the row ID of the database `access` names,
    /// looked up in that same transaction (one read where a lookup and then a read took two); a
    /// database that does not exist yet is made first, then read.
    func read<T: Sendable>(for access: DatabaseAccess,
                           _ body: @escaping @Sendable (_ databaseID: Int64, any StorageTransaction) async throws -> T) async throws -> T {
        let key = try access.databaseKey()
        let found = try await storage.read { transaction -> Found<T> in
            guard let databaseID = try await transaction.databaseID(key, create: false) else { return .missing }
            return .value(try await body(databaseID, transaction))
        }
        if case .value(let value) = found { return value }
        let databaseID = try await databaseID(for: access)
        return try await storage.read { try await body(databaseID, $0) }
    }

    /// What ``read(for:_:)`` found in its first transaction.
    private enum Found<T: Sendable>: Sendable {
        case missing
        case value(T)
    }

    /// The same, inside a write transaction.
    static func databaseID(_ key: DatabaseKey, in changes: ChangeSet) async throws -> Int64 {
        let transaction = changes.transaction
        if let id = try await transaction.databaseID(key, create: false) { return id }
        guard let id = try await transaction.databaseID(key, create: true) else {
            throw CloudKitError(.internalError, "database could not be created")
        }
        if key.scope != .shared {
            _ = try await transaction.insertZone(databaseID: id, zoneName: ZoneID.defaultZoneName, sequence: try changes.nextSequence())
        }
        return id
    }

    /// The live zone `zoneID` names in the database, or `ZONE_NOT_FOUND`.
    static func zone(_ zoneID: ZoneID?, databaseID: Int64, access: DatabaseAccess,
                     in transaction: any StorageTransaction) async throws -> StoredZone {
        let zoneID = zoneID ?? .default
        try access.checkOwner(of: zoneID)
        if access.scope == .public && !zoneID.isDefaultZone {
            throw CloudKitError.zoneNotFound(zoneID.zoneName)
        }
        guard let zone = try await transaction.liveZone(databaseID: databaseID, zoneName: zoneID.zoneName) else {
            throw CloudKitError.zoneNotFound(zoneID.zoneName)
        }
        return zone
    }

    /// The zone a request addresses and the caller's rights there. In the shared database the
    /// zone ID names its owner (`ownerRecordName`); the zone must hold a share the caller
    /// accepted, else it is `ZONE_NOT_FOUND`.
    static func grant(_ zoneID: ZoneID?, databaseID: Int64, access: DatabaseAccess,
                      in transaction: any StorageTransaction) async throws -> ZoneGrant {
        guard access.scope == .shared else {
            let zone = try await zone(zoneID, databaseID: databaseID, access: access, in: transaction)
            return ZoneGrant(zone: zone, owner: try access.databaseKey().ownerRecordName, sharing: nil)
        }
        let user = try access.requireUser()
        let zoneID = zoneID ?? .default
        guard let owner = zoneID.ownerRecordName, owner != ZoneID.defaultOwnerName, owner != user,
              let ownerDatabase = try await transaction.databaseID(
                DatabaseKey(containerID: access.containerID, environment: access.environment, scope: .private, ownerRecordName: owner), create: false),
              let zone = try await transaction.liveZone(databaseID: ownerDatabase, zoneName: zoneID.zoneName),
              let grant = try await sharedGrant(zone, owner: owner, user: user, in: transaction) else {
            throw CloudKitError.zoneNotFound(zoneID.zoneName)
        }
        return grant
    }

    /// A participant's rights in an owner's live zone: nil unless the zone holds a share the user
    /// accepted.
    static func sharedGrant(_ zone: StoredZone, owner: String, user: String, in transaction: any StorageTransaction) async throws -> ZoneGrant? {
        let shares = try await transaction.acceptedShares(zoneRowID: zone.rowID, user: user)
        return shares.isEmpty ? nil : ZoneGrant(zone: zone, owner: owner, sharing: ShareAccess(user: user, shares: shares))
    }

    /// The wire form of a stored zone, with its current sync token.
    static func wireZone(_ zone: StoredZone, access: DatabaseAccess, in transaction: any StorageTransaction) -> Zone {
        wireZone(zone, owner: access.zoneOwnerName, in: transaction)
    }

    /// The same, for a zone of `owner` (a shared zone, in a participant's shared database).
    static func wireZone(_ zone: StoredZone, owner: String, in transaction: any StorageTransaction) -> Zone {
        let zoneID = ZoneID(zoneName: zone.zoneName, ownerRecordName: owner)
        if zone.deleted { return Zone(zoneID: zoneID, deleted: true, deletionReason: .zoneDeleted) }
        let token = ChangeToken(kind: .zone, ownerID: zone.rowID, sequence: zone.changeSequence, epoch: transaction.storeEpoch)
        return Zone(zoneID: zoneID, syncToken: token.encoded, atomic: !zone.isDefaultZone)
    }
}
