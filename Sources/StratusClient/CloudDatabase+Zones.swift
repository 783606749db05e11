import StratusCore

extension CloudDatabase {
    /// Creates and deletes record zones (CloudKit's `modifyRecordZones(saving:deleting:)`).
    /// Creating a zone that exists succeeds.
    public func modifyRecordZones(saving: [ZoneID], deleting: [ZoneID] = []) async throws
        -> (saveResults: ItemResults<ZoneID, Zone>, deleteResults: ItemResults<ZoneID, Void>) {
        let operations = saving.map { ZonesModifyRequest.Operation(.create, $0) } + deleting.map { ZonesModifyRequest.Operation(.delete, $0) }
        let answers = try await post("zones/modify", ZonesModifyRequest(operations: operations), as: ZonesResponse.self).zones
        var saved: ItemResults<ZoneID, Zone> = [:]
        var deleted: ItemResults<ZoneID, Void> = [:]
        for (index, answer) in answers.enumerated() where index < operations.count {
            let outcome: Result<Zone, CloudError> = answer.zone.map { .success($0) } ?? .failure(Self.zoneError(answer.error))
            if index < saving.count {
                saved[saving[index]] = outcome
            } else {
                deleted[deleting[index - saving.count]] = outcome.map { _ in () }
            }
        }
        return (saved, deleted)
    }

    /// Creates a zone (or finds it existing) and returns it.
    @discardableResult
    public func save(zone zoneID: ZoneID) async throws -> Zone {
        guard let outcome = try await modifyRecordZones(saving: [zoneID]).saveResults[zoneID] else {
            throw CloudError(.internalError, "no result for zone \(zoneID.zoneName)")
        }
        return try outcome.get()
    }

    /// Deletes a zone and every record in it.
    public func deleteRecordZone(withID zoneID: ZoneID) async throws {
        try await modifyRecordZones(saving: [], deleting: [zoneID]).deleteResults[zoneID]?.get()
    }

    /// Every zone of the database.
    public func allRecordZones() async throws -> [Zone] {
        try await get("zones/list", as: ZonesResponse.self).zones.compactMap(\.zone).map { zone in
            var zone = zone
            zone.zoneID = normalized(zone.zoneID)
            return zone
        }
    }

    static func zoneError(_ error: ZoneError?) -> CloudError {
        guard let error else { return CloudError(.internalError, "empty zone result") }
        return CloudError(server: error.serverErrorCode, reason: error.reason, retryAfter: nil)
    }
}
