import StratusClient

extension SyncEngine {
    /// Fetches the zones changed since the database token, then each changed zone's records
    /// since its token, persisting each page with its token before reporting it.
    func fetchOnce() async throws {
        try await ensureAccount()
        status = .fetching
        emit(.willFetchChanges)
        var token = try state.databaseToken()
        var modified: [ZoneID] = []
        var deleted: [ZoneID] = []
        while true {
            let page: DatabaseChanges
            do {
                page = try await database.databaseChanges(since: token)
            } catch let error as CloudError where error.code == .changeTokenExpired && token != nil {
                emit(.changeTokenExpired(nil))
                try state.applyDatabaseChanges(deletedZones: [], token: nil)
                token = nil
                continue
            }
            try state.applyDatabaseChanges(deletedZones: page.deletions, token: page.changeToken)
            modified += page.modifications
            deleted += page.deletions
            token = page.changeToken
            if !page.moreComing { break }
        }
        if !modified.isEmpty || !deleted.isEmpty {
            emit(.fetchedDatabaseChanges(modifications: modified, deletions: deleted))
        }
        var fetched = Set<ZoneID>()
        for zoneID in modified where fetched.insert(zoneID).inserted {
            try await fetchZone(zoneID)
        }
        try markSynced()
        emit(.didFetchChanges)
    }

    private func fetchZone(_ zoneID: ZoneID) async throws {
        var token = try state.zoneToken(zoneID)
        /// After an expired token: the records known before, to find those deleted meanwhile.
        var unseen: [RecordID: String]?
        while true {
            let page: RecordZoneChanges
            do {
                page = try await database.recordZoneChanges(inZoneWith: zoneID, since: token, resultsLimit: configuration.fetchPageSize)
            } catch let error as CloudError where error.code == .changeTokenExpired && token != nil {
                emit(.changeTokenExpired(zoneID))
                try state.resetZoneToken(zoneID)
                unseen = try state.knownRecords(in: zoneID)
                token = nil
                continue
            } catch let error as CloudError where error.code == .zoneNotFound {
                try state.applyDatabaseChanges(deletedZones: [zoneID], token: try state.databaseToken())
                emit(.fetchedDatabaseChanges(modifications: [], deletions: [zoneID]))
                return
            }
            let pending = try state.isPending(page.modifications.map(\.recordID) + page.deletions.map(\.recordID))
            var settled = page
            settled.modifications = page.modifications.filter { !pending.contains($0.recordID) }
            settled.deletions = page.deletions.filter { !pending.contains($0.recordID) }
            let known = try state.serverVersions(settled.modifications.map(\.recordID))
            try state.applyFetched(settled)
            for record in page.modifications { unseen?[record.recordID] = nil }
            let news = settled.modifications.filter { known[$0.recordID]?.changeTag != $0.changeTag }
            if !news.isEmpty || !settled.deletions.isEmpty {
                emit(.fetchedRecordZoneChanges(modifications: news, deletions: settled.deletions))
            }
            token = page.changeToken
            if !page.moreComing { break }
        }
        if let unseen, !unseen.isEmpty {
            try state.forget(Array(unseen.keys))
            emit(.fetchedRecordZoneChanges(modifications: [], deletions: unseen.map { .init(recordID: $0.key, recordType: $0.value) }))
        }
    }
}
