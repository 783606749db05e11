import Foundation
import StratusClient

/// Decides what to save when the server's record changed since the version a local edit was based
/// on. It gets the local record, the server's, and their common ancestor (when known), and returns
/// the fields to save on top of the server's version.
public struct ConflictResolver: Sendable {
    private let resolveFields: @Sendable (_ local: CloudRecord, _ server: CloudRecord, _ ancestor: CloudRecord?) -> [String: FieldValue]

    /// A resolver from a closure returning the fields to keep.
    public init(_ resolve: @escaping @Sendable (_ local: CloudRecord, _ server: CloudRecord, _ ancestor: CloudRecord?) -> [String: FieldValue]) {
        resolveFields = resolve
    }

    /// The record to send: the resolved fields as an edit of the server's version.
    func resolve(local: CloudRecord, server: CloudRecord, ancestor: CloudRecord?) -> CloudRecord {
        let fields = resolveFields(local, server, ancestor)
        var resolved = CloudRecord(recordType: server.recordType, recordID: server.recordID, fields: fields)
        resolved.encryptedKeys = local.encryptedKeys.union(server.encryptedKeys).intersection(fields.keys)
        // A local file the resolution kept is still to be uploaded.
        for (key, file) in local.assetFiles where fields[key] == local.fields[key] { resolved.setAsset(fileURL: file, forKey: key) }
        return resolved.edit(of: server.systemFields, serverFields: server.fields)
    }

    /// The server's record stays as it is; the local edit is dropped.
    public static let serverWins = ConflictResolver { _, server, _ in server.fields }

    /// The local record overwrites the server's.
    public static let clientWins = ConflictResolver { local, _, _ in local.fields }

    /// The record whose TIMESTAMP `field` is later wins whole — a modification time the app sets
    /// on each edit, so an offline edit compares by when it was made, not when it was sent. The
    /// server wins a tie or when the local record lacks the field.
    public static func latestModified(field: String) -> ConflictResolver {
        ConflictResolver { local, server, _ in
            guard case .timestamp(let localTime)? = local[field] else { return server.fields }
            guard case .timestamp(let serverTime)? = server[field] else { return local.fields }
            return localTime > serverTime ? local.fields : server.fields
        }
    }

    /// A per-field three-way merge: a field changed on one side only takes that side's value;
    /// changed on both, the server's. Without an ancestor, the server wins.
    public static let mergeFields = ConflictResolver { local, server, ancestor in
        guard let ancestor else { return server.fields }
        var merged = server.fields
        for key in Set(local.fields.keys).union(ancestor.fields.keys) {
            let localValue = local.fields[key]
            let base = ancestor.fields[key]
            if localValue != base && server.fields[key] == base { merged[key] = localValue }
        }
        return merged
    }
}
