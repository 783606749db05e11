import Foundation
import StratusClient
import StratusCore
import StratusSync

/// A device's local data in tests: records by ID, kept in a file so it survives a device restart,
/// changed by the app and by the engine's events as an app would (it is the engine's delegate).
public actor DeviceRecordStore: SyncEngineDelegate {
    private let file: URL
    /// The device's records, as it last saved or applied them.
    public private(set) var records: [RecordID: CloudRecord] = [:]

    init(file: URL) {
        self.file = file
        if let data = try? Data(contentsOf: file), let stored = try? JSONDecoder().decode([StoredRecord].self, from: data) {
            for entry in stored {
                records[entry.id] = CloudRecord(recordType: entry.type, recordID: entry.id, fields: entry.fields.compactMapValues { $0.value })
            }
        }
    }

    /// One of the device's records.
    public func record(_ id: RecordID) -> CloudRecord? { records[id] }

    /// Keeps a record locally; nothing is queued (an edit the app makes without telling the engine).
    package func put(_ record: CloudRecord) {
        records[record.recordID] = record
        persist()
    }

    func remove(_ id: RecordID) {
        records[id] = nil
        persist()
    }

    public func record(for recordID: RecordID, syncEngine: SyncEngine) -> CloudRecord? { records[recordID] }

    /// Applies what the engine reports: fetched and saved records replace local ones; deletions
    /// and deleted zones remove them.
    public func handleEvent(_ event: SyncEngine.Event, syncEngine: SyncEngine) {
        switch event {
        case .fetchedRecordZoneChanges(let modifications, let deletions):
            for record in modifications { records[record.recordID] = record }
            for deletion in deletions { records[deletion.recordID] = nil }
        case .sentRecordZoneChanges(let sent):
            for record in sent.savedRecords { records[record.recordID] = record }
            // A new record the user may not write (a share's read-only participant, or one
            // removed): the app discards it, as it was never the server's.
            for (id, error) in sent.failedRecordSaves where error.code == .permissionFailure || error.code == .zoneNotFound {
                if records[id]?.changeTag == nil { records[id] = nil }
            }
        case .fetchedDatabaseChanges(_, let deletions):
            let zones = Set(deletions)
            records = records.filter { !zones.contains($0.key.zoneID) }
        case .accountChange:
            break
        default:
            return
        }
        persist()
    }

    private func persist() {
        let stored = records.values.map { StoredRecord(id: $0.recordID, type: $0.recordType, fields: $0.fields.mapValues { RecordField($0) }) }
        try? JSONEncoder().encode(stored).write(to: file, options: .atomic)
    }

    private struct StoredRecord: Codable {
        var id: RecordID
        var type: String
        var fields: [String: RecordField]
    }
}
