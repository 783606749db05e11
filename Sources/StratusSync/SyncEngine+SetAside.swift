import StratusClient

/// How to settle a change the engine set aside (``SyncEngine/State/setAsideChanges``).
public enum SetAsideResolution: Sendable {
    /// Try again: a change the server refused is queued to be sent again; a server version this
    /// device could not apply is fetched and applied again.
    case retry
    /// Keep the server's version: this device's change is dropped, and what the server has now
    /// is fetched and applied (or, if the server no longer has the record, its row deleted).
    case keepServerVersion
    /// Keep this device's version: the local record is queued to be sent over the server's.
    case keepLocalVersion
}

extension SyncEngine {
    /// Settles a change set aside. A server version that still cannot be applied stays set
    /// aside, with the new reason; a change sent again that the server refuses again is set
    /// aside again.
    public func resolveSetAside(_ recordID: RecordID, _ resolution: SetAsideResolution) async throws {
        guard let entry = try state.setAsideChanges().first(where: { $0.change.recordID == recordID }) else { return }
        switch (resolution, entry.notApplied) {
        case (.retry, false):
            try state.addPending([entry.change])
        case (.keepLocalVersion, _):
            try state.addPending([entry.notApplied ? .saveRecord(recordID) : entry.change])
        case (.retry, true), (.keepServerVersion, _):
            try await applyServerVersion(of: recordID)
        }
        await emit(.stateUpdate)
    }

    /// Retries every change set aside, once, when the app's version
    /// (``SyncEngine/Configuration/appVersion``) is not the one the engine last ran with: a new version of
    /// the app may take what the old one refused.
    func retrySetAsideAfterAppUpdate() async throws {
        guard let version = configuration.appVersion, try state.meta("appVersion") != version else { return }
        for entry in try state.setAsideChanges() {
            try await resolveSetAside(entry.change.recordID, .retry)
        }
        try state.setMeta("appVersion", version)
    }

    /// Fetches the server's current version of a record and applies it in place of whatever is
    /// pending or set aside for it here.
    private func applyServerVersion(of id: RecordID) async throws {
        let server: CloudRecord?
        do {
            server = try await database.record(for: id)
        } catch let error as CloudError where error.code == .unknownItem {
            server = nil
        }
        let knownType = try state.serverVersions([id])[id]?.recordType
        let deletion = server == nil ? knownType.map { [RecordZoneChanges.Deletion(recordID: id, recordType: $0)] } ?? [] : []
        try state.takeServerVersion(server, deleting: deletion, handingTo: applier)
        await reportSetAside()
        await deliverFetched(server.map { [$0] } ?? [], deletions: deletion)
    }

    /// Reports the server versions the app could not apply since the last report.
    func reportSetAside() async {
        let refused = refusals.take()
        if !refused.isEmpty { await emit(.serverVersionsSetAside(refused)) }
    }
}
