import StratusClient

extension SyncEngine {
    /// Sends queued zone changes, then queued record changes batch by batch until none is left.
    ///
    /// Batches are pipelined two deep: while one request is with the server, the next batch is
    /// built (the app asked for its records) and sent, and the previous outcome is recorded.
    func sendOnce() async throws {
        try await ensureAccount()
        try await ensureSubscription()
        let zoneChanges = try state.pendingDatabaseChanges()
        let pendingRecords = try state.pendingRecordCount()
        guard !zoneChanges.isEmpty || pendingRecords > 0 else { return }
        phase = .sending
        await emit(.willSendChanges)
        if !zoneChanges.isEmpty { try await sendZoneChanges(zoneChanges) }
        var stalled = 0
        var cursor: Int64 = 0
        var inFlight: (PreparedBatch, Task<ModifyRecordsResult, any Error>)?
        while true {
            var next: (PreparedBatch, Task<ModifyRecordsResult, any Error>)?
            let batch = try state.nextPendingBatch(limit: batchSize, after: cursor)
            if let last = batch.last {
                cursor = last.version
                let prepared = try await prepare(batch)
                next = (prepared, transmit(prepared))
            }
            if let (prepared, request) = inFlight {
                switch try await settle(prepared, await request.result) {
                case .progressed: stalled = 0
                case .stalled:
                    stalled += 1
                    if stalled >= 3 { throw CloudError(.serviceUnavailable, "records keep conflicting; will try again later") }
                case .retryFromStart:
                    cursor = 0
                }
            }
            guard let next else {
                // The end of a pass. Changes kept pending by it (conflicts, a recreated record)
                // are older than the cursor: another pass from the start sends them.
                if cursor == 0 && inFlight == nil { break }
                if try state.pendingRecordCount() == 0 { break }
                cursor = 0
                inFlight = nil
                continue
            }
            inFlight = next
        }
        try markSynced()
        await emit(.didSendChanges)
    }

    private func sendZoneChanges(_ changes: [SyncEngine.PendingDatabaseChange]) async throws {
        let saving = changes.compactMap { if case .saveZone(let id) = $0 { id } else { nil } }
        let deleting = changes.compactMap { if case .deleteZone(let id) = $0 { id } else { nil } }
        let result = try await database.modifyRecordZones(saving: saving, deleting: deleting)
        var failed: [ZoneID: CloudError] = [:]
        for change in changes {
            let outcome = switch change {
            case .saveZone(let id): result.saveResults[id].map { $0.map { _ in () } }
            case .deleteZone(let id): result.deleteResults[id]
            }
            guard case .failure(let error)? = outcome else {
                try state.removePendingZone(change)
                continue
            }
            switch decide(error, in: .zoneChange(deleting: change.isDeletion), about: "\(change.zoneID.zoneName)") {
            case .done:
                try state.removePendingZone(change)
            case .setAside:
                failed[change.zoneID] = error
                try state.removePendingZone(change)
            default:
                throw error
            }
        }
        await emit(.sentDatabaseChanges(saved: saving.filter { failed[$0] == nil }, deleted: deleting.filter { failed[$0] == nil }, failed: failed))
    }

    /// A batch ready to send: the app's current records as edits of their known server versions.
    struct PreparedBatch: Sendable {
        var batch: [SyncStateStore.QueuedRecordChange]
        var zoneID: ZoneID
        var saves: [(SyncStateStore.QueuedRecordChange, CloudRecord)] = []
        var deletes: [SyncStateStore.QueuedRecordChange] = []
        /// Pending saves of records the app no longer has.
        var dropped: [(id: RecordID, version: Int64)] = []
    }

    enum BatchOutcome {
        case progressed
        case stalled
        /// The batch must be sent again from the oldest pending change (split, zone created).
        case retryFromStart
    }

    private func prepare(_ batch: [SyncStateStore.QueuedRecordChange]) async throws -> PreparedBatch {
        let known = try state.serverVersions(batch.map(\.change.recordID))
        var prepared = PreparedBatch(batch: batch, zoneID: batch[0].change.recordID.zoneID)
        for queued in batch {
            let id = queued.change.recordID
            guard case .saveRecord = queued.change else { prepared.deletes.append(queued); continue }
            guard let local = try await requireDelegate().record(for: id, syncEngine: self) else {
                prepared.dropped.append((id, queued.version))
                continue
            }
            prepared.saves.append((queued, local.edit(of: known[id]?.systemFields, serverFields: known[id]?.fields)))
        }
        return prepared
    }

    private func transmit(_ prepared: PreparedBatch) -> Task<ModifyRecordsResult, any Error> {
        let database = self.database
        let saves = prepared.saves.map(\.1)
        let deletes = prepared.deletes.map(\.change.recordID)
        var createKeys: [RecordID: String] = [:]
        for (queued, record) in prepared.saves where record.changeTag == nil {
            createKeys[record.recordID] = state.createKey(of: queued)
        }
        return Task { [createKeys] in
            try await database.modifyRecords(saving: saves, deleting: deletes, atomically: false, echoingFields: false,
                                             createKeys: createKeys)
        }
    }

    /// Records a sent batch's outcome — resolving conflicts and sending their resolutions — and
    /// reports it.
    private func settle(_ prepared: PreparedBatch, _ first: Result<ModifyRecordsResult, any Error>) async throws -> BatchOutcome {
        let zoneID = prepared.zoneID
        var outcome = SyncStateStore.SendOutcome()
        outcome.dropped = prepared.dropped
        var sent = SyncEngine.Event.SentRecordZoneChanges(batch: prepared.batch.map(\.change))
        var saves = prepared.saves
        var deletes = prepared.deletes
        var deferredError: CloudError?
        for round in 0..<4 where !saves.isEmpty || !deletes.isEmpty {
            let result: ModifyRecordsResult
            do {
                result = round == 0 ? try first.get()
                    : try await database.modifyRecords(saving: saves.map(\.1), deleting: deletes.map(\.change.recordID),
                                                       atomically: false, echoingFields: false)
            } catch let error as CloudError where round == 0 {
                return try await recover(from: error, batch: prepared.batch, zoneID: zoneID, outcome: &outcome, sent: &sent)
            }
            var again: [(SyncStateStore.QueuedRecordChange, CloudRecord)] = []
            for (queued, record) in saves {
                let id = record.recordID
                switch result.saveResults[id] ?? .failure(CloudError(.internalError, "no result")) {
                case .success(let saved):
                    outcome.saved.append((saved, queued.version))
                    sent.savedRecords.append(saved)
                case .failure(let error):
                    switch decide(error, in: .recordSave(create: record.changeTag == nil), about: id.recordName) {
                    case .resolveConflict:
                        // The server's version with its files (as a fetch brings them), so that whatever wins is applied whole.
                        let server: CloudRecord
                        do {
                            server = InstalledHarness.restores(.partialConflictApply)
                                ? error.serverRecord! : try await database.downloadingAssets(of: error.serverRecord!)
                        } catch {
                            deferredError = (error as? CloudError) ?? CloudError(.networkFailure, "could not download the server's version of \(id.recordName): \(error)")
                            continue
                        }
                        let resolved = configuration.resolver(for: record.recordType).resolve(local: record, server: server, ancestor: error.ancestorRecord)
                        if resolved.changedKeys.isEmpty {
                            outcome.saved.append((server, queued.version))
                            sent.savedRecords.append(server)
                        } else {
                            outcome.rebased.append(server)
                            again.append((queued, resolved))
                        }
                    case .createZone:
                        try await database.save(zone: zoneID)
                    case .reportDeletion:
                        outcome.deletedSinceCreated.append((.init(recordID: id, recordType: record.recordType), queued.version))
                    case .forgetServerRecord:
                        outcome.forgotten.append(id)
                    case .sendAgain:
                        break
                    case .setAside:
                        outcome.setAside.append((queued, error.description))
                        sent.failedRecordSaves[id] = error
                    default:
                        deferredError = error
                    }
                }
            }
            for queued in deletes {
                let id = queued.change.recordID
                switch result.deleteResults[id] ?? .failure(CloudError(.internalError, "no result")) {
                case .success:
                    outcome.deleted.append((id, queued.version))
                    sent.deletedRecordIDs.append(id)
                case .failure(let error):
                    switch decide(error, in: .recordDelete, about: id.recordName) {
                    case .done:
                        outcome.deleted.append((id, queued.version))
                        sent.deletedRecordIDs.append(id)
                    case .sendAgain:
                        break
                    case .setAside:
                        outcome.setAside.append((queued, error.description))
                        sent.failedRecordDeletes[id] = error
                    default:
                        deferredError = error
                    }
                }
            }
            saves = again
            deletes = []
        }
        InstalledHarness.reached(.sentBatchAnswered)
        let requeued = try state.apply(outcome, handingTo: applier)
        await reportSetAside()
        sent.savedRecords.removeAll { requeued.contains($0.recordID) }
        let deletedSinceCreated = outcome.deletedSinceCreated.map(\.deletion).filter { !requeued.contains($0.recordID) }
        await deliverFetched([], deletions: deletedSinceCreated)
        await emit(.sentRecordZoneChanges(sent))
        if let deferredError { throw deferredError }
        let progressed = !(outcome.saved.isEmpty && outcome.deleted.isEmpty && outcome.setAside.isEmpty && outcome.dropped.isEmpty
                           && outcome.forgotten.isEmpty && outcome.deletedSinceCreated.isEmpty)
        return progressed ? .progressed : .stalled
    }

    /// What to do about a batch the server refused as a whole.
    private func recover(from error: CloudError, batch: [SyncStateStore.QueuedRecordChange], zoneID: ZoneID,
                         outcome: inout SyncStateStore.SendOutcome, sent: inout SyncEngine.Event.SentRecordZoneChanges) async throws -> BatchOutcome {
        switch decide(error, in: .batch(size: batch.count), about: "a batch of \(batch.count) in \(zoneID.zoneName)") {
        case .splitBatch:
            batchSize = max(1, batch.count / 2)
            return .retryFromStart
        case .setAside:
            // A batch of one the server still refuses, or a zone no longer shared with the user.
            return try await setAside(batch[...], error, outcome: &outcome, sent: &sent)
        case .createZone:
            try await database.save(zone: zoneID)
            return .retryFromStart
        default:
            try state.apply(outcome, handingTo: applier)
            throw error
        }
    }

    /// Sets changes aside that the server refused for good, and reports them.
    private func setAside(_ changes: ArraySlice<SyncStateStore.QueuedRecordChange>, _ error: CloudError,
                          outcome: inout SyncStateStore.SendOutcome, sent: inout SyncEngine.Event.SentRecordZoneChanges) async throws -> BatchOutcome {
        for queued in changes {
            outcome.setAside.append((queued, error.description))
            if case .saveRecord(let id) = queued.change { sent.failedRecordSaves[id] = error } else { sent.failedRecordDeletes[queued.change.recordID] = error }
        }
        try state.apply(outcome, handingTo: applier)
        await emit(.sentRecordZoneChanges(sent))
        return .retryFromStart
    }
}
