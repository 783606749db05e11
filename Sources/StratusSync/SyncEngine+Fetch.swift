import StratusClient

extension SyncEngine {
    /// Fetches the zones changed since the database token, then each changed zone's records
    /// since its token, persisting each page with its token before reporting it.
    func fetchOnce() async throws {
        try await ensureAccount()
        try await ensureSubscription()
        status = .fetching
        emit(.willFetchChanges)
        var token = try state.databaseToken()
        var modified: [ZoneID] = []
        var deleted: [ZoneID] = []
        var reasons: [ZoneID: ZoneDeletionReason] = [:]
        /// After an expired token: the zones known before, to find those deleted meanwhile (a
        /// listing from the start names only the zones that exist).
        var unseen: Set<ZoneID>?
        while true {
            let page: DatabaseChanges
            do {
                page = try await database.databaseChanges(since: token)
            } catch let error as CloudError where error.code == .changeTokenExpired && token != nil {
                emit(.changeTokenExpired(nil))
                try state.applyDatabaseChanges(deletedZones: [], token: nil)
                unseen = try state.knownZones()
                token = nil
                continue
            }
            try state.applyDatabaseChanges(deletedZones: page.deletions, token: page.changeToken)
            modified += page.modifications
            deleted += page.deletions
            reasons.merge(page.deletionReasons) { $1 }
            token = page.changeToken
            if !page.moreComing { break }
        }
        if let gone = unseen?.subtracting(modified).subtracting(deleted), !gone.isEmpty {
            try state.applyDatabaseChanges(deletedZones: Array(gone), token: token)
            deleted += gone
            for zoneID in gone { reasons[zoneID] = database.scope == .shared ? .accessEnded : .zoneDeleted }
        }
        if !modified.isEmpty || !deleted.isEmpty {
            emit(.fetchedDatabaseChanges(modifications: modified, deletions: deleted))
        }
        let removed = deleted.filter { !modified.contains($0) }
        if !removed.isEmpty {
            emit(.zonesRemoved(Dictionary(removed.map { ($0, reasons[$0] ?? .zoneDeleted) }, uniquingKeysWith: { $1 })))
        }
        var fetched = Set<ZoneID>()
        for zoneID in modified where fetched.insert(zoneID).inserted {
            try await fetchZone(zoneID)
        }
        try markSynced()
        emit(.didFetchChanges)
    }

    /// Fetches the changes of the given zones only (a notification named them).
    func fetchZones(_ zones: [ZoneID]) async throws {
        try await ensureAccount()
        status = .fetching
        emit(.willFetchChanges)
        for zoneID in zones { try await fetchZone(zoneID) }
        try markSynced()
        emit(.didFetchChanges)
    }

    /// Fetches one zone's pages in order. The next page is requested as soon as a page arrives,
    /// so the network works while the page is persisted and reported.
    private func fetchZone(_ zoneID: ZoneID) async throws {
        var token = try state.zoneToken(zoneID)
        /// After an expired token: the records known before, to find those deleted meanwhile.
        var unseen: [RecordID: String]?
        var request = requestPage(of: zoneID, since: token)
        defer { request.cancel() }
        while true {
            let page: RecordZoneChanges
            do {
                page = try await request.value
            } catch let error as CloudError where error.code == .changeTokenExpired && token != nil {
                emit(.changeTokenExpired(zoneID))
                try state.resetZoneToken(zoneID)
                unseen = try state.knownRecords(in: zoneID)
                token = nil
                request = requestPage(of: zoneID, since: nil)
                continue
            } catch let error as CloudError where error.code == .zoneNotFound {
                try state.applyDatabaseChanges(deletedZones: [zoneID], token: try state.databaseToken())
                emit(.fetchedDatabaseChanges(modifications: [], deletions: [zoneID]))
                emit(.zonesRemoved([zoneID: database.scope == .shared ? .accessEnded : .zoneDeleted]))
                return
            }
            token = page.changeToken
            if page.moreComing { request = requestPage(of: zoneID, since: token) }
            let (news, deletions) = try state.applyFetched(page)
            for record in page.modifications { unseen?[record.recordID] = nil }
            if !news.isEmpty || !deletions.isEmpty {
                emit(.fetchedRecordZoneChanges(modifications: news, deletions: deletions))
            }
            if !page.moreComing { break }
        }
        if let unseen, !unseen.isEmpty {
            try state.forget(Array(unseen.keys))
            emit(.fetchedRecordZoneChanges(modifications: [], deletions: unseen.map { .init(recordID: $0.key, recordType: $0.value) }))
        }
    }

    private func requestPage(of zoneID: ZoneID, since token: ServerChangeToken?) -> Task<RecordZoneChanges, any Error> {
        let database = self.database
        let limit = configuration.fetchPageSize
        return Task { try await database.recordZoneChanges(inZoneWith: zoneID, since: token, resultsLimit: limit) }
    }
}
