import StratusClient

extension SyncEngine {
    /// Fetches the zones changed since the database token, then each changed zone's records
    /// since its token, persisting each page with its token before reporting it. The database
    /// token is stored last, once every changed zone is fetched: a fetch cut short lists the
    /// same zones again next time rather than forgetting those it had not reached.
    ///
    /// The public database has one zone and no database feed: its `_defaultZone`'s feed (what the
    /// user may read there) is the whole of it.
    func fetchOnce() async throws {
        try await ensureAccount()
        try await ensureSubscription()
        try await retrySetAsideAfterAppUpdate()
        phase = .fetching
        await emit(.willFetchChanges)
        if database.scope == .public {
            try await fetchZone(.default)
            try markSynced()
            await emit(.didFetchChanges)
            return
        }
        var token = try state.databaseToken()
        var modified: [ZoneID] = []
        var deleted: [ZoneID] = []
        var reasons: [ZoneID: ZoneDeletionReason] = [:]
        /// The zones known before a listing from the start (no token, or an expired one), which
        /// names only the zones that exist and none deleted before it began: a known zone it does
        /// not name is gone.
        var unseen = try reconciliation(startingFrom: token, known: state.knownZones())
        while true {
            let page: DatabaseChanges
            do {
                page = try await database.databaseChanges(since: token)
            } catch let error as CloudError where decide(error, in: .fetch(fromToken: token != nil), about: "the database's changes") == .restartListing {
                await emit(.changeTokenExpired(nil))
                unseen = try reconciliation(startingFrom: nil, known: state.knownZones())
                token = nil
                continue
            }
            modified += page.modifications
            deleted += page.deletions
            reasons.merge(page.deletionReasons) { $1 }
            token = page.changeToken
            if !page.moreComing { break }
        }
        if let gone = unseen?.subtracting(modified).subtracting(deleted) {
            deleted += gone
            for zoneID in gone { reasons[zoneID] = database.scope == .shared ? .accessEnded : .zoneDeleted }
        }
        let removed = Dictionary(deleted.filter { !modified.contains($0) }.map { ($0, reasons[$0] ?? .zoneDeleted) }, uniquingKeysWith: { $1 })
        // A zone deleted and created again since the token is forgotten too, then fetched anew.
        try state.forgetZones(deleted, removed: removed, handingTo: applier)
        if !modified.isEmpty || !deleted.isEmpty {
            await emit(.fetchedDatabaseChanges(modifications: modified, deletions: deleted))
        }
        if !removed.isEmpty { await emit(.zonesRemoved(removed)) }
        var fetched = Set<ZoneID>()
        for zoneID in modified where fetched.insert(zoneID).inserted {
            try await fetchZone(zoneID)
        }
        if let token { try state.setDatabaseToken(token) }
        try markSynced()
        await emit(.didFetchChanges)
    }

    /// Fetches the changes of the given zones only (a notification named them).
    func fetchZones(_ zones: [ZoneID]) async throws {
        try await ensureAccount()
        phase = .fetching
        await emit(.willFetchChanges)
        for zoneID in zones { try await fetchZone(zoneID) }
        try markSynced()
        await emit(.didFetchChanges)
    }

    /// Fetches one zone's pages in order. The next page is requested as soon as a page arrives,
    /// so the network works while the page is persisted and reported.
    private func fetchZone(_ zoneID: ZoneID) async throws {
        var token = try state.zoneToken(zoneID)
        /// The records known before a listing from the start (no token, or an expired one), which
        /// names every record that exists and no deletion made before it began: a known record
        /// it does not name is gone. Until the listing ends its tokens are not stored, so a crash
        /// restarts it rather than losing the reconciliation.
        var unseen = try reconciliation(startingFrom: token, known: state.knownRecords(in: zoneID))
        var request = requestPage(of: zoneID, since: token)
        defer { request.cancel() }
        while true {
            let page: RecordZoneChanges
            do {
                page = try await request.value
            } catch let error as CloudError {
                let action = decide(error, in: .fetch(fromToken: token != nil), about: "the changes of \(zoneID.zoneName)")
                guard action == .restartListing || action == .forgetZone else { throw error }
                if action == .restartListing {
                    await emit(.changeTokenExpired(zoneID))
                    try state.resetZoneToken(zoneID)
                    unseen = try reconciliation(startingFrom: nil, known: state.knownRecords(in: zoneID))
                    token = nil
                    request = requestPage(of: zoneID, since: nil)
                    continue
                }
                let reason: ZoneDeletionReason = database.scope == .shared ? .accessEnded : .zoneDeleted
                try state.forgetZones([zoneID], removed: [zoneID: reason], handingTo: applier)
                await emit(.fetchedDatabaseChanges(modifications: [], deletions: [zoneID]))
                await emit(.zonesRemoved([zoneID: reason]))
                return
            }
            token = page.changeToken
            if page.moreComing { request = requestPage(of: zoneID, since: token) }
            var listed = page
            for record in page.modifications { unseen?[record.recordID] = nil }
            for deletion in page.deletions { unseen?[deletion.recordID] = nil }
            if !page.moreComing, let unseen {
                listed.deletions += unseen.map { .init(recordID: $0.key, recordType: $0.value) }
            }
            try await applyFetchedPage(listed, storingToken: unseen == nil || !page.moreComing)
            if !page.moreComing { break }
        }
    }

    /// What a fetch starting from `token` must reconcile: the known items when it lists from the
    /// start and the device holds any, otherwise nothing.
    private func reconciliation<Known: Collection>(startingFrom token: ServerChangeToken?, known: @autoclosure () throws -> Known) rethrows -> Known? {
        guard token == nil else { return nil }
        let known = try known()
        return known.isEmpty ? nil : known
    }

    private func requestPage(of zoneID: ZoneID, since token: ServerChangeToken?) -> Task<RecordZoneChanges, any Error> {
        let database = self.database
        let limit = configuration.fetchPageSize
        return Task { try await database.recordZoneChanges(inZoneWith: zoneID, since: token, resultsLimit: limit) }
    }

    /// A fetch's step for each page: stores its records, local data (through the applier) and,
    /// unless told not to, its token in one transaction, then tells the delegate what is new.
    package func applyFetchedPage(_ page: RecordZoneChanges, storingToken: Bool = true) async throws {
        if !page.modifications.isEmpty || !page.deletions.isEmpty { InstalledHarness.reached(.fetchedPageArrived) }
        let (news, deletions) = try state.applyFetched(page, storingToken: storingToken, handingTo: applier)
        await reportSetAside()
        if !news.isEmpty || !deletions.isEmpty {
            InstalledHarness.reached(.fetchedPageCommitted)
            await deliverFetched(news, deletions: deletions)
        }
    }
}
