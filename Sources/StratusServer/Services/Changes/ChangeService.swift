import StratusCore

/// Change feeds: `changes/zone` (and the older `records/changes`) and `changes/database`.
///
/// The public database has a zone feed too (an extension; CloudKit has none): its `_defaultZone`'s
/// changes that the caller may read now, each page scanning at most `maxPublicFeedScan` changes
/// (``readableChanges(zoneRowID:after:horizon:limit:maxScan:maxBytes:recordTypes:permissions:in:)``).
///
/// Every change has a number from one monotonic sequence; a token is "after number N". Fetching
/// reads only the rows changed after N through the (zone, sequence) index, so its cost follows the
/// number of changes, never the size of the zone. A first fetch (no token) leaves out deletions
/// made before it began: the device never had what they deleted.
package struct ChangeService: Sendable {
    let storage: any StratusStorage
    let directory: DatabaseDirectory
    let maxResultsLimit: Int
    let maxZonesPerRequest: Int
    let maxResponseBytes: Int
    /// The changes one page of the public feed looks at, readable or not.
    let maxPublicFeedScan: Int
    let tombstoneRetention: Duration
    let signer: AssetURLSigner
    let readAhead: ChangeReadAhead
    /// Opens encrypted fields for the answer (``SealedFields``); pages, and the read-ahead, keep
    /// them sealed until then.
    let keys: KeyVault
    let clock: ServerClock

    /// Changes of each requested zone; a zone that fails gets an error entry of its own.
    ///
    /// All zones share one response budget: once it is spent, the remaining zones answer with
    /// the records that fit (possibly none) and `moreComing`, and their tokens resume there.
    package func zoneChanges(_ request: ZoneChangesRequest, _ access: DatabaseAccess) async throws -> ZoneChangesPages {
        try checkZoneFeedAvailable(access)
        guard request.zones.count <= maxZonesPerRequest else {
            throw CloudKitError.limitExceeded("at most \(maxZonesPerRequest) zones per request")
        }
        var named = Set<ZoneID>()
        for query in request.zones where !named.insert(query.zoneID).inserted {
            throw CloudKitError.badRequest("zone '\(query.zoneID.zoneName)' appears more than once; name each zone once")
        }
        let maxResponseBytes = self.maxResponseBytes
        // An owner's request for one zone may find its page read already, and reads the next one
        // ahead (``ChangeReadAhead``).
        let readAheadKey = request.zones.count == 1 ? readAheadKey(request.zones[0], of: request, access) : nil
        let kept = if let readAheadKey { await readAhead.take(readAheadKey) } else { ChangeReadAhead.Page?.none }
        var pages = try await directory.read(for: access) { databaseID, transaction in
            var budget = ResponseBudget(bytes: maxResponseBytes)
            var pages: [Result<ZoneChangesPage, ZoneError>] = []
            for query in request.zones {
                do {
                    try await pages.append(.success(changes(
                        of: query.zoneID, after: query.syncToken, limit: query.resultsLimit ?? request.resultsLimit,
                        desiredKeys: query.desiredKeys ?? request.desiredKeys,
                        recordTypes: query.desiredRecordTypes ?? request.desiredRecordTypes,
                        databaseID: databaseID, access: access, budget: &budget, readAhead: readAheadKey, kept: kept, in: transaction)))
                } catch let error as CloudKitError {
                    pages.append(.failure(ZoneError(zoneID: query.zoneID, error: error)))
                }
            }
            return ZoneChangesPages(zones: pages)
        }
        try await pages.openFields(with: keys)
        return pages
    }

    /// What a page of `query` is kept under when read ahead: only an owner's pages are.
    private func readAheadKey(_ query: ZoneChangesRequest.ZoneQuery, of request: ZoneChangesRequest, _ access: DatabaseAccess) -> ChangeReadAhead.Key? {
        guard access.scope == .private, let user = access.userRecordName else { return nil }
        return ChangeReadAhead.Key(user: user, syncToken: query.syncToken ?? "", resultsLimit: query.resultsLimit ?? request.resultsLimit,
                                   recordTypes: query.desiredRecordTypes ?? request.desiredRecordTypes)
    }

    /// The older single-zone feed, `records/changes`.
    package func recordChanges(_ request: RecordsChangesRequest, _ access: DatabaseAccess) async throws -> RecordChangesPage {
        try checkZoneFeedAvailable(access)
        let maxResponseBytes = self.maxResponseBytes
        var page = try await directory.read(for: access) { databaseID, transaction in
            var budget = ResponseBudget(bytes: maxResponseBytes)
            return try await RecordChangesPage(page: changes(
                of: request.zoneID ?? .default, after: request.syncToken, limit: request.resultsLimit,
                desiredKeys: request.desiredKeys, recordTypes: nil, databaseID: databaseID, access: access,
                budget: &budget, readAhead: nil, kept: nil, in: transaction))
        }
        try await page.page.openFields(with: keys)
        return page
    }

    /// Zones created, changed or deleted after the token.
    package func databaseChanges(_ request: DatabaseChangesRequest, _ access: DatabaseAccess) async throws -> DatabaseChangesResponse {
        if access.scope == .public {
            throw CloudKitError.badRequest("the public database has no database feed; fetch its _defaultZone's changes with changes/zone")
        }
        _ = try access.requireUser()
        let limit = try resultsLimit(request.resultsLimit)
        return try await directory.read(for: access) { databaseID, transaction in
            var after: Int64 = 0
            var horizon = try await transaction.currentChangeSequence()
            if let text = request.syncToken {
                let token = try ChangeToken(decoding: text, as: .database)
                guard token.epoch == transaction.storeEpoch else { throw Self.expired }
                // Before the owner: a container loaded from an archive into a store that had
                // data got new row ids, and sequences past every token of the archive's store.
                if try await token.sequence < (transaction.databasePurgedSequence(databaseID: databaseID)) {
                    throw Self.expired
                }
                guard token.ownerID == databaseID, try await token.sequence <= (transaction.currentChangeSequence()) else {
                    throw CloudKitError.badRequest("syncToken belongs to another database")
                }
                after = token.sequence
                horizon = token.firstSyncHorizon
            }
            if access.scope == .shared {
                return try await Self.sharedDatabaseChanges(after: after, horizon: horizon, limit: limit, databaseID: databaseID,
                                                      access: access, in: transaction)
            }
            let zones = try await transaction.zonesChanged(databaseID: databaseID, after: after, skippingDeletionsThrough: horizon, limit: limit + 1)
            let moreComing = zones.count > limit
            let page = zones.prefix(limit)
            let sequence = try await moreComing ? page.last!.changeSequence : max(after, transaction.currentChangeSequence())
            return DatabaseChangesResponse(
                zones: page.map { DatabaseDirectory.wireZone($0, access: access, in: transaction) },
                syncToken: ChangeToken(kind: .database, ownerID: databaseID, sequence: sequence, firstSyncHorizon: horizon,
                                       epoch: transaction.storeEpoch).encoded,
                moreComing: moreComing)
        }
    }

    /// The shared database's changes: owners' zones that entered or left the caller's view, or
    /// whose records changed, after `after` (those that left at or before `horizon` left out).
    private static func sharedDatabaseChanges(after: Int64, horizon: Int64, limit: Int, databaseID: Int64, access: DatabaseAccess,
                                              in transaction: any StorageTransaction) async throws -> DatabaseChangesResponse {
        let entries = try await transaction.sharedZoneChanges(user: try access.requireUser(), after: after,
                                                        skippingDeparturesThrough: horizon, limit: limit + 1)
        let moreComing = entries.count > limit
        let page = entries.prefix(limit)
        var zones: [Zone] = []
        for entry in page {
            guard let zone = try await transaction.zone(rowID: entry.zoneRowID),
                  let owner = try await transaction.databaseKey(id: zone.databaseID)?.ownerRecordName,
                  !(zone.deleted && zone.changeSequence <= horizon) else { continue }
            zones.append(entry.active && !zone.deleted ? DatabaseDirectory.wireZone(zone, owner: owner, in: transaction)
                                                       : Zone(zoneID: ZoneID(zoneName: zone.zoneName, ownerRecordName: owner), deleted: true,
                                                              deletionReason: zone.deleted ? .zoneDeleted : .accessEnded))
        }
        let sequence = try await moreComing ? page.last!.sequence : max(after, transaction.currentChangeSequence())
        let token = ChangeToken(kind: .database, ownerID: databaseID, sequence: sequence, firstSyncHorizon: horizon,
                                epoch: transaction.storeEpoch)
        return DatabaseChangesResponse(zones: zones, syncToken: token.encoded, moreComing: moreComing)
    }

    /// Purges tombstones older than the retention; tokens that predate them then expire.
    @discardableResult
    package func purgeTombstones() async throws -> Int {
        let cutoff = clock.milliseconds - tombstoneRetention.milliseconds
        return try await storage.write { try await $0.purgeTombstones(before: cutoff) }
    }

    // MARK: - Helpers

    static let expired = CloudKitError(.changeTokenExpired, "the change token has expired; fetch again without a token")

    /// Zone feeds: the public database's for any caller it admits (what they read is theirs to
    /// see), the others' for a signed-in user.
    private func checkZoneFeedAvailable(_ access: DatabaseAccess) throws(CloudKitError) {
        if access.scope != .public { _ = try access.requireUser() }
    }

    private func resultsLimit(_ requested: Int?) throws(CloudKitError) -> Int {
        try ResultsLimit.resolve(requested, maximum: maxResultsLimit)
    }

    private func changes(of zoneID: ZoneID, after tokenText: String?, limit requestedLimit: Int?, desiredKeys: [String]?,
                         recordTypes: [String]?, databaseID: Int64, access: DatabaseAccess, budget: inout ResponseBudget,
                         readAhead key: ChangeReadAhead.Key?, kept: ChangeReadAhead.Page?,
                         in transaction: any StorageTransaction) async throws -> ZoneChangesPage {
        let limit = try resultsLimit(requestedLimit)
        let grant = try await DatabaseDirectory.grant(zoneID, databaseID: databaseID, access: access, in: transaction)
        let zone = grant.zone
        // In the public database, what the caller may read, and its fingerprint for the token.
        var permissions = access.scope == .public ? PublicPermissions(access, in: transaction) : nil
        let rights = try await permissions?.feedRights()
        var after: Int64 = 0
        var horizon = zone.changeSequence
        if let tokenText {
            let token = try ChangeToken(decoding: tokenText, as: .zone)
            guard token.epoch == transaction.storeEpoch else { throw Self.expired }
            // Before the owner, as for database tokens.
            if token.sequence < zone.purgedSequence { throw Self.expired }
            if token.ownerID != zone.rowID {
                // A token of an earlier zone of the same name: that zone was deleted (and maybe
                // purged since, leaving no row), start over.
                guard let earlier = try await transaction.zone(rowID: token.ownerID) else { throw Self.expired }
                if earlier.databaseID == zone.databaseID, earlier.zoneName == zone.zoneName, earlier.deleted {
                    throw Self.expired
                }
                throw CloudKitError.badRequest("syncToken belongs to another zone")
            }
            guard token.sequence <= zone.changeSequence else {
                throw CloudKitError.badRequest("syncToken is not a token this zone issued")
            }
            // Issued under other rights: what they hid may be readable now, or the reverse.
            if token.rights != rights?.fingerprint { throw Self.expired }
            after = token.sequence
            horizon = token.firstSyncHorizon
        }
        // Read no further than the budget can answer (plus one row, to know whether more come),
        // unless the page was read ahead (with the whole budget) and the zone has not changed since.
        let read: [StoredRecord]
        // Where a public page stopped scanning short of its end without filling up.
        var scannedThrough: Int64?
        if var filter = permissions, rights?.readsEverything == false {
            (read, scannedThrough) = try await Self.readableChanges(
                zoneRowID: zone.rowID, after: after, horizon: horizon, limit: limit, maxScan: maxPublicFeedScan, maxBytes: budget.remaining,
                recordTypes: recordTypes, permissions: &filter, in: transaction)
        } else if budget.remaining == maxResponseBytes, let keptRows = readAhead.rows(of: kept, zoneRowID: zone.rowID, zoneSequence: zone.changeSequence) {
            read = keptRows
        } else {
            read = try await transaction.recordChanges(zoneRowID: zone.rowID, after: after, skippingDeletionsThrough: horizon,
                                                       limit: limit + 1, maxBytes: budget.remaining, recordTypes: recordTypes)
        }
        // The page is the rows that fit, left where they were read (a copy of each costs a retain
        // of its every string, and a release when the rows go).
        var fitting = 0
        while fitting < min(read.count, limit), budget.take(read[fitting]) { fitting += 1 }
        var page = read[..<fitting]
        let cutShort = read.count > fitting
        let moreComing = cutShort || scannedThrough != nil
        let sequence = cutShort ? page.last?.sequence ?? after : scannedThrough ?? zone.changeSequence
        let syncToken = ChangeToken(kind: .zone, ownerID: zone.rowID, sequence: sequence, firstSyncHorizon: horizon,
                                    epoch: transaction.storeEpoch, rights: rights?.fingerprint).encoded
        if var key, moreComing {
            key.syncToken = syncToken
            readAhead.start(key, zoneRowID: zone.rowID, after: sequence, horizon: horizon, limit: limit, maxBytes: maxResponseBytes)
        }
        if grant.sharing != nil {
            // A participant sees only what their shares cover.
            page = try await ArraySlice(page.asyncFilter { try await grant.permission(forRecord: $0.recordName, in: transaction).canRead })
        }
        var changes = ZoneChangesPage(
            zoneID: ZoneID(zoneName: zone.zoneName, ownerRecordName: access.scope == .shared ? grant.owner : access.zoneOwnerName),
            syncToken: syncToken,
            moreComing: moreComing, records: page, desiredKeys: desiredKeys,
            links: AssetLinks(signer: signer, access: access))
        changes.shares = try await ShareKeysView.keys(forShareRecords: page, zoneRowID: zone.rowID, owner: grant.owner,
                                                caller: access.userRecordName, origin: access.origin, in: transaction)
        return changes
    }

    /// The public feed's changes after `after` that the caller may read, oldest first: up to
    /// `limit` and one more (to know whether more come), from at most `maxScan` changes, so that a
    /// page costs what it scans however few of the changes the caller may read. The scan reads the
    /// changes' positions (type and creator, no fields) a chunk at a time, `limit + 1` first and
    /// twice as many each time after, so a caller who reads most of them costs one chunk.
    /// `scannedThrough` is the last change scanned when the scan stopped at `maxScan` short of
    /// the zone's end without finding more than `limit`: the page resumes after it, with
    /// `moreComing`, even when it holds no record.
    static func readableChanges(zoneRowID: Int64, after: Int64, horizon: Int64, limit: Int, maxScan: Int, maxBytes: Int, recordTypes: [String]?,
                                permissions: inout PublicPermissions,
                                in transaction: any StorageTransaction) async throws -> (records: [StoredRecord], scannedThrough: Int64?) {
        var readable: [Int64] = []
        var cursor = after, scanned = 0, chunk = limit + 1, atEnd = false
        scanning: while readable.count <= limit, scanned < maxScan, !atEnd {
            let size = min(chunk, maxScan - scanned)
            let positions = try await transaction.changePositions(zoneRowID: zoneRowID, after: cursor, skippingDeletionsThrough: horizon,
                                                                  limit: size, recordTypes: recordTypes)
            atEnd = positions.count < size
            scanned += positions.count
            chunk *= 2
            for position in positions {
                cursor = position.sequence
                guard try await permissions.permissions(on: position.recordType, createdBy: position.creator).contains(.read) else { continue }
                readable.append(position.sequence)
                if readable.count > limit { break scanning }
            }
        }
        let scannedThrough = readable.count <= limit && !atEnd ? cursor : nil
        return (try await transaction.records(zoneRowID: zoneRowID, sequences: readable, maxBytes: maxBytes), scannedThrough)
    }
}
