import StratusClient

extension SyncEngine {
    /// Sends queued zone changes, then queued record changes batch by batch until none is left.
    func sendOnce() async throws {
        try await ensureAccount()
        let zoneChanges = try state.pendingDatabaseChanges()
        let pendingRecords = try state.pendingRecordCount()
        guard !zoneChanges.isEmpty || pendingRecords > 0 else { return }
        status = .sending
        emit(.willSendChanges)
        if !zoneChanges.isEmpty { try await sendZoneChanges(zoneChanges) }
        var stalled = 0
        while true {
            let batch = try state.nextPendingBatch(limit: batchSize)
            if batch.isEmpty { break }
            if try await sendBatch(batch) {
                stalled = 0
            } else {
                stalled += 1
                if stalled >= 3 { throw CloudError(.serviceUnavailable, "records keep conflicting; will try again later") }
            }
        }
        try markSynced()
        emit(.didSendChanges)
    }

    private func sendZoneChanges(_ changes: [PendingDatabaseChange]) async throws {
        let saving = changes.compactMap { if case .saveZone(let id) = $0 { id } else { nil } }
        let deleting = changes.compactMap { if case .deleteZone(let id) = $0 { id } else { nil } }
        let result = try await database.modifyRecordZones(saving: saving, deleting: deleting)
        var failed: [ZoneID: CloudError] = [:]
        for change in changes {
            let outcome = switch change {
            case .saveZone(let id): result.saveResults[id].map { $0.map { _ in () } }
            case .deleteZone(let id): result.deleteResults[id]
            }
            switch outcome {
            case .success?, nil: try state.removePendingZone(change)
            case .failure(let error)?:
                if error.isTransient { throw error }
                if error.code == .zoneNotFound, case .deleteZone = change { try state.removePendingZone(change); continue }
                failed[change.zoneID] = error
                try state.removePendingZone(change)
            }
        }
        emit(.sentDatabaseChanges(saved: saving.filter { failed[$0] == nil }, deleted: deleting.filter { failed[$0] == nil }, failed: failed))
    }

    /// Sends one batch (one zone) and records its outcome; returns whether anything was settled.
    private func sendBatch(_ batch: [SyncStateStore.QueuedRecordChange]) async throws -> Bool {
        let zoneID = batch[0].change.recordID.zoneID
        let known = try state.serverVersions(batch.map(\.change.recordID))
        var outcome = SyncStateStore.SendOutcome()
        var sent = SentRecordZoneChanges(batch: batch.map(\.change))
        var saves: [(SyncStateStore.QueuedRecordChange, CloudRecord)] = []
        var deletes: [SyncStateStore.QueuedRecordChange] = []
        for queued in batch {
            let id = queued.change.recordID
            guard case .saveRecord = queued.change else { deletes.append(queued); continue }
            guard let local = await configuration.recordProvider(id) else {
                outcome.dropped.append((id, queued.version))
                continue
            }
            saves.append((queued, local.edit(of: known[id]?.systemFields, serverFields: known[id]?.fields)))
        }

        var deferredError: CloudError?
        for round in 0..<4 where !saves.isEmpty || !deletes.isEmpty {
            let result: ModifyRecordsResult
            do {
                result = try await database.modifyRecords(saving: saves.map(\.1), deleting: deletes.map(\.change.recordID), atomically: false)
            } catch let error as CloudError where round == 0 {
                return try await recover(from: error, batch: batch, zoneID: zoneID, outcome: &outcome, sent: &sent)
            }
            var again: [(SyncStateStore.QueuedRecordChange, CloudRecord)] = []
            for (queued, record) in saves {
                let id = record.recordID
                switch result.saveResults[id] ?? .failure(CloudError(.internalError, "no result")) {
                case .success(let saved):
                    outcome.saved.append((saved, queued.version))
                    sent.savedRecords.append(saved)
                case .failure(let error):
                    switch error.code {
                    case .serverRecordChanged where error.serverRecord != nil:
                        let server = error.serverRecord!
                        let resolved = configuration.resolver(for: record.recordType).resolve(local: record, server: server, ancestor: error.ancestorRecord)
                        if resolved.changedKeys.isEmpty {
                            outcome.saved.append((server, queued.version))
                            sent.savedRecords.append(server)
                        } else {
                            outcome.rebased.append(server)
                            again.append((queued, resolved))
                        }
                    case .zoneNotFound:
                        try await database.save(zone: zoneID)
                    case .unknownItem:
                        outcome.forgotten.append(id)
                    case .batchRequestFailed:
                        break
                    case _ where error.isTransient, .notAuthenticated, .quotaExceeded:
                        deferredError = error
                    default:
                        outcome.setAside.append((queued, error.description))
                        sent.failedRecordSaves[id] = error
                    }
                }
            }
            for queued in deletes {
                let id = queued.change.recordID
                switch result.deleteResults[id] ?? .failure(CloudError(.internalError, "no result")) {
                case .success:
                    outcome.deleted.append((id, queued.version))
                    sent.deletedRecordIDs.append(id)
                case .failure(let error) where error.code == .unknownItem:
                    outcome.deleted.append((id, queued.version))
                    sent.deletedRecordIDs.append(id)
                case .failure(let error) where error.isTransient || error.code == .batchRequestFailed:
                    deferredError = error.isTransient ? error : deferredError
                case .failure(let error):
                    outcome.setAside.append((queued, error.description))
                    sent.failedRecordDeletes[id] = error
                }
            }
            saves = again
            deletes = []
        }
        let requeued = try state.apply(outcome)
        sent.savedRecords.removeAll { requeued.contains($0.recordID) }
        emit(.sentRecordZoneChanges(sent))
        if let deferredError { throw deferredError }
        return !(outcome.saved.isEmpty && outcome.deleted.isEmpty && outcome.setAside.isEmpty && outcome.dropped.isEmpty
                 && outcome.forgotten.isEmpty)
    }

    /// The error table for a batch the server refused as a whole.
    private func recover(from error: CloudError, batch: [SyncStateStore.QueuedRecordChange], zoneID: ZoneID,
                         outcome: inout SyncStateStore.SendOutcome, sent: inout SentRecordZoneChanges) async throws -> Bool {
        switch error.code {
        case .limitExceeded where batch.count > 1, .invalidArguments where batch.count > 1:
            batchSize = max(1, batch.count / 2)
            return true
        case .limitExceeded, .invalidArguments:
            let queued = batch[0]
            outcome.setAside.append((queued, error.description))
            if case .saveRecord(let id) = queued.change { sent.failedRecordSaves[id] = error } else { sent.failedRecordDeletes[queued.change.recordID] = error }
            try state.apply(outcome)
            emit(.sentRecordZoneChanges(sent))
            return true
        case .zoneNotFound:
            try await database.save(zone: zoneID)
            return true
        default:
            try state.apply(outcome)
            throw error
        }
    }
}
