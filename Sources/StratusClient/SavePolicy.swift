import StratusCore

/// How a save treats the server's copy of a record (CloudKit's `CKModifyRecordsOperation.RecordSavePolicy`).
public enum SavePolicy: Sendable, Hashable {
    /// Save only if the server's record still has the change tag this one is based on; otherwise
    /// fail with ``CloudError/Code-swift.enum/serverRecordChanged``. Sends the changed keys.
    case ifServerRecordUnchanged
    /// Save the changed keys over whatever the server has.
    case changedKeys
    /// Replace the server's record with all of this one's keys.
    case allKeys

    /// The `records/modify` operation that saves `record` under this policy, and the keys it sends.
    func operation(for record: CloudRecord) -> (RecordOperationType, Set<String>?) {
        if record.changeTag == nil {
            return (self == .ifServerRecordUnchanged ? .create : .forceReplace, nil)
        }
        switch self {
        case .ifServerRecordUnchanged: return (.update, record.changedKeys)
        case .changedKeys: return (.forceUpdate, record.changedKeys)
        case .allKeys: return (.forceReplace, nil)
        }
    }
}
