import Foundation
import StratusCore

/// A record as an app works with it (CloudKit's `CKRecord`): an ID, a type, typed fields, and —
/// once the server has seen it — its system fields.
///
/// A value type: copies are independent. Setting a field marks its key as changed, so a save
/// can send only what changed. Assets are attached from files with ``setAsset(fileURL:forKey:)``
/// and uploaded when the record is saved; fetched assets can be downloaded to files.
public struct CloudRecord: Sendable, Hashable {
    /// The record's name and zone.
    public let recordID: RecordID
    /// The record's type, such as `Note`.
    public let recordType: String
    /// The record's fields; nil-valued keys are absent.
    public private(set) var fields: [String: FieldValue]
    /// The server's view of this record, or nil for a record the server has not seen yet.
    public internal(set) var systemFields: RecordSystemFields?
    /// Keys set since the record was made, fetched or last saved.
    public private(set) var changedKeys: Set<String> = []
    /// The fields as the server last had them: the base of a three-way merge.
    public internal(set) var serverFields: [String: FieldValue]?
    /// The share keys of a `cloudkit.share` record: participants, public permission, URL. Set them
    /// to create or change a share (see ``CloudDatabase/share(_:title:participants:publicPermission:shareName:)``).
    public var shareKeys: ShareKeys?
    /// Local files of asset fields: set by ``setAsset(fileURL:forKey:)`` to upload, or by a fetch
    /// that downloads assets.
    public internal(set) var assetFiles: [String: URL] = [:]
    /// The keys of the fields set through ``encryptedValues``, or fetched encrypted.
    public package(set) var encryptedKeys: Set<String> = []

    /// A new record, unknown to the server.
    public init(recordType: String, recordID: RecordID, fields: [String: FieldValue] = [:]) {
        self.recordID = recordID
        self.recordType = recordType
        self.fields = fields
        changedKeys = Set(fields.keys)
    }

    /// A record based on archived system fields: saving it carries their change tag.
    public init(systemFields: RecordSystemFields, fields: [String: FieldValue] = [:]) {
        self.recordID = systemFields.recordID
        self.recordType = systemFields.recordType
        self.systemFields = systemFields
        self.fields = fields
        changedKeys = Set(fields.keys)
    }

    /// A field's value; setting nil removes the field.
    public subscript(key: String) -> FieldValue? {
        get { fields[key] }
        set {
            fields[key] = newValue
            changedKeys.insert(key)
            if newValue.flatMap({ $0.assets.isEmpty ? nil : $0 }) == nil { assetFiles[key] = nil }
        }
    }

    /// This record's fields as an edit of a server version: saving the result carries that
    /// version's change tag and sends the keys whose values differ from `serverFields` (every key
    /// when they are unknown), removing the keys the server has and this record lacks.
    public func edit(of systemFields: RecordSystemFields?, serverFields: [String: FieldValue]?) -> CloudRecord {
        var record = systemFields.map { CloudRecord(systemFields: $0, fields: fields) }
            ?? CloudRecord(recordType: recordType, recordID: recordID, fields: fields)
        record.assetFiles = assetFiles
        record.encryptedKeys = encryptedKeys
        record.parent = parent
        record.shareKeys = shareKeys
        if let serverFields, systemFields != nil {
            record.serverFields = serverFields
            record.changedKeys = Set(fields.keys.filter { fields[$0] != serverFields[$0] || assetFiles[$0] != nil })
                .union(serverFields.keys.filter { fields[$0] == nil })
        }
        return record
    }

    /// Attaches a file to an asset field; it is uploaded when the record is saved.
    public mutating func setAsset(fileURL: URL, forKey key: String) {
        fields[key] = .asset(Asset())
        changedKeys.insert(key)
        assetFiles[key] = fileURL
    }

    /// The record's encrypted fields, as CloudKit's `encryptedValues`: a value set here is sent with
    /// `isEncrypted` and kept sealed by the server under its owner's key; it cannot be a reference
    /// or an asset, nor be filtered or sorted on in a query. Such a field reads here and through
    /// the record's subscript alike; this view reads only encrypted ones.
    ///
    /// ```swift
    /// note.encryptedValues["secret"] = .string("the safe's code")
    /// ```
    public var encryptedValues: EncryptedValues {
        get { EncryptedValues(record: self) }
        set { self = newValue.record }
    }

    /// A record's encrypted fields (``CloudRecord/encryptedValues``).
    public struct EncryptedValues: Sendable, Hashable {
        fileprivate var record: CloudRecord

        /// An encrypted field's value; setting nil removes the field.
        public subscript(key: String) -> FieldValue? {
            get { record.encryptedKeys.contains(key) ? record.fields[key] : nil }
            set {
                record[key] = newValue
                if newValue == nil { record.encryptedKeys.remove(key) } else { record.encryptedKeys.insert(key) }
            }
        }
    }

    /// The server's change tag of the version this record is based on.
    public var changeTag: String? { systemFields?.changeTag }
    /// The record's parent in a share hierarchy: set it to put a new record under a shared one.
    public var parent: String?
    /// The share this record is the root of, if any.
    public var shareName: String? { systemFields?.share }
    /// Whether this record is a share (`cloudkit.share`).
    public var isShare: Bool { ShareKeys.isShareType(recordType) }
    /// When the record was last saved on the server (ms since 1970).
    public var modificationTimestamp: Int64? { systemFields?.modified?.timestamp }

    /// Puts an upload's asset dictionary (with its receipt) in a field whose file was attached.
    mutating func setUploadedAsset(_ asset: Asset, forKey key: String) {
        fields[key] = .asset(asset)
    }

    /// Forgets which keys changed: the record now matches what the server has.
    mutating func markSaved() {
        changedKeys = []
        serverFields = fields
    }

    // MARK: Typed access

    /// A STRING field.
    public func string(_ key: String) -> String? { if case .string(let value)? = fields[key] { value } else { nil } }
    /// An INT64 field.
    public func int64(_ key: String) -> Int64? { if case .int64(let value)? = fields[key] { value } else { nil } }
    /// A DOUBLE field; an INT64 field is converted.
    public func double(_ key: String) -> Double? {
        switch fields[key] {
        case .double(let value)?: value
        case .int64(let value)?: Double(value)
        default: nil
        }
    }
    /// A TIMESTAMP field as a date.
    public func date(_ key: String) -> Date? { fields[key]?.dateValue }
    /// An INT64 field as a `Bool` (nonzero is true), as CloudKit stores one.
    public func bool(_ key: String) -> Bool? { int64(key).map { $0 != 0 } }
    /// A BYTES field.
    public func bytes(_ key: String) -> Data? { if case .bytes(let value)? = fields[key] { value } else { nil } }
    /// A REFERENCE field.
    public func reference(_ key: String) -> Reference? { if case .reference(let value)? = fields[key] { value } else { nil } }
    /// A LOCATION field.
    public func location(_ key: String) -> Location? { if case .location(let value)? = fields[key] { value } else { nil } }
    /// An ASSET field (its file is in ``assetFiles`` once downloaded).
    public func asset(_ key: String) -> Asset? { if case .asset(let value)? = fields[key] { value } else { nil } }
    /// A STRING_LIST field.
    public func strings(_ key: String) -> [String]? {
        guard case .list(.string, let values)? = fields[key] else { return nil }
        return values.compactMap { if case .string(let value) = $0 { value } else { nil } }
    }
}

extension CloudRecord {
    /// The record a server response describes, in `zoneID`.
    init(wire record: Record, zoneID: ZoneID) throws(CloudError) {
        guard let name = record.recordName, let type = record.recordType, let tag = record.recordChangeTag else {
            throw CloudError(.internalError, "the server sent a record without name, type or change tag")
        }
        let id = RecordID(recordName: name, zoneID: zoneID)
        recordID = id
        recordType = type
        systemFields = RecordSystemFields(recordID: id, recordType: type, changeTag: tag, created: record.created,
                                          modified: record.modified, parent: record.parent?.recordName, share: record.share?.recordName)
        fields = record.fields.compactMapValues { $0 }
        serverFields = fields
        shareKeys = record.shareKeys
        encryptedKeys = record.encryptedFields
    }

    /// The wire record to send, with only `keys` among its fields (all when nil).
    func wire(keys: Set<String>?) -> Record {
        var sent: [String: FieldValue?] = [:]
        for key in keys ?? Set(fields.keys) { sent[key] = .some(fields[key]) }
        var record = Record(recordName: recordID.recordName, recordType: recordType, recordChangeTag: changeTag, fields: sent,
                            parent: (parent ?? systemFields?.parent).map(RecordPointer.init))
        record.encryptedFields = encryptedKeys.intersection(sent.keys)
        if let shareKeys {
            // Only what a client may set: the root, the public permission, the participants.
            record.shareKeys = ShareKeys(forRecord: shareKeys.forRecord, publicPermission: shareKeys.publicPermission,
                                         participants: shareKeys.participants)
        }
        return record
    }
}
