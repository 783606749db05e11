import StratusCore

/// What a participant may do in an owner's zone, from the shares there they accepted: a zone-wide
/// share covers every record; a record share covers its root, the root's descendants (through
/// `parent`) and the share record itself.
struct ShareAccess: Sendable {
    let user: String
    let shares: [StoredShare]

    /// The user's permission in one share.
    func permission(in share: StoredShare) -> SharePermission {
        share.participants.first { $0.userRecordName == user && $0.status == .accepted }?.permission ?? .none
    }

    /// The permission on a record of the zone (walking up its parents); `.none` when no share covers it.
    func permission(forRecord name: String, zoneRowID: Int64, in transaction: any StorageTransaction) async throws -> SharePermission {
        var best = SharePermission.none
        for share in shares where share.isZoneWide || share.recordName == name {
            best = Self.max(best, permission(in: share))
        }
        let roots = shares.filter { !$0.isZoneWide }
        guard !roots.isEmpty else { return best }
        var current: String? = name
        var visited = Set<String>()
        while let recordName = current, visited.insert(recordName).inserted, visited.count < 1000 {
            for share in roots where share.rootRecordName == recordName { best = Self.max(best, permission(in: share)) }
            current = try await transaction.record(zoneRowID: zoneRowID, recordName: recordName)?.parent
        }
        return best
    }

    /// The zone's change sequence when the user first accepted one of its shares: from then on
    /// they see records' versions (0 for an acceptance older than history).
    var historyHorizon: Int64 {
        shares.compactMap { share in share.participants.first { $0.userRecordName == user && $0.status == .accepted } }
            .map { $0.acceptedSequence ?? 0 }.min() ?? 0
    }

    private static func max(_ a: SharePermission, _ b: SharePermission) -> SharePermission {
        a == .readWrite || b == .readWrite ? .readWrite : (a == .readOnly || b == .readOnly ? .readOnly : .none)
    }
}

/// A zone a request works in, and on whose behalf: the caller's own (or the public database's),
/// or an owner's zone reached through the shared database with the caller's share access.
struct ZoneGrant: Sendable {
    let zone: StoredZone
    /// The zone's owner: the private database's user ("" for the public database).
    let owner: String
    /// Set when the caller reaches the zone as a participant.
    let sharing: ShareAccess?

    /// The caller's permission on a record: everything for the owner.
    func permission(forRecord name: String, in transaction: any StorageTransaction) async throws -> SharePermission {
        guard let sharing else { return .readWrite }
        return try await sharing.permission(forRecord: name, zoneRowID: zone.rowID, in: transaction)
    }
}
