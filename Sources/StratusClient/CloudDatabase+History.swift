import Foundation
import StratusCore

/// A version of a record the server keeps (record history, a Stratus extension): what the record
/// held, who made the version, from which device and when.
public struct CloudRecordVersion: Sendable, Hashable {
    /// The version's change tag: name it to ``CloudDatabase/restore(_:toVersion:ifCurrentChangeTag:)``.
    public let changeTag: String
    /// The record's type in this version.
    public let recordType: String
    /// Whether this version is the record's deletion (it holds no fields).
    public let isDeleted: Bool
    /// Who made the version, from which device, when.
    public let modified: RecordStamp?
    /// The fields the record held.
    public let fields: [String: FieldValue]
    /// The keys of the fields held encrypted.
    public let encryptedKeys: Set<String>
}

/// A deleted record in a zone's recycle bin (a Stratus extension), which
/// ``CloudDatabase/restore(_:toVersion:ifCurrentChangeTag:)`` can bring back.
public struct DeletedRecord: Sendable, Hashable {
    /// The deleted record's name and zone.
    public let recordID: RecordID
    /// The deleted record's type.
    public let recordType: String
    /// The change tag of the record's deletion.
    public let changeTag: String
    /// Who deleted it, from which device, when.
    public let deleted: RecordStamp
}

/// What ``CloudDatabase/restoreZone(_:to:)`` changed.
public struct ZoneRestoreSummary: Sendable {
    /// The records saved back or undeleted.
    public var restored: [RecordID] = []
    /// The records created since the moment, deleted.
    public var deleted: [RecordID] = []
    /// The records that could not be restored, and why.
    public var failures: [RecordID: CloudError] = [:]
}

extension CloudDatabase {
    /// Every version of the record the server keeps, newest first: its current version (or its
    /// deletion), then those kept for the server's `--history-days`. Only for a caller who may
    /// write the record. With `limit`, only the newest `limit` versions (the server is asked for
    /// no more than that).
    public func history(of recordID: RecordID, limit: Int? = nil) async throws -> [CloudRecordVersion] {
        var versions: [CloudRecordVersion] = []
        var marker: String?
        repeat {
            let remaining = limit.map { max(1, $0 - versions.count) }
            let request = RecordHistoryRequest(zoneID: recordID.zoneID, recordName: recordID.recordName,
                                               resultsLimit: remaining.map { min($0, Self.historyPageLimit) }, continuationMarker: marker)
            let page = try await post("records/history", request, as: RecordHistoryResponse.self)
            versions += page.versions.map { version in
                CloudRecordVersion(changeTag: version.recordChangeTag ?? "", recordType: version.recordType ?? "", isDeleted: version.deleted == true,
                                   modified: version.modified, fields: version.fields.compactMapValues { $0 }, encryptedKeys: version.encryptedFields)
            }
            marker = page.continuationMarker
        } while marker != nil && versions.count < (limit ?? .max)
        return limit.map { Array(versions.prefix($0)) } ?? versions
    }

    /// The most versions the server answers in one page of `records/history`.
    static var historyPageLimit: Int { 200 }

    /// Makes the version with `changeTag` the record's current version as a new save with a new
    /// change tag, which every device fetches as an ordinary change; a deleted record comes back,
    /// with what its deletion took through `DELETE_SELF` references (`cascaded`). With
    /// `ifCurrentChangeTag`, only while the record's current change tag (its deletion's, if
    /// deleted) is that: otherwise ``CloudError/Code-swift.enum/serverRecordChanged``.
    public func restore(_ recordID: RecordID, toVersion changeTag: String,
                        ifCurrentChangeTag current: String? = nil) async throws -> (restored: CloudRecord, cascaded: [CloudRecord]) {
        let request = RecordsRestoreRequest(zoneID: recordID.zoneID, operations: [.init(recordName: recordID.recordName, recordChangeTag: changeTag,
                                                                                         expectedCurrentChangeTag: current)])
        let answer = try await post("records/restore", request, as: RecordsRestoreResponse.self)
        guard let result = answer.records.first else { throw CloudError(.internalError, "records/restore answered no result") }
        if let error = result.error {
            var failure = CloudError(error)
            failure.serverRecord = error.serverRecord.flatMap { try? CloudRecord(wire: $0, zoneID: normalized(recordID.zoneID)) }
            throw failure
        }
        guard let record = result.record else { throw CloudError(.internalError, "records/restore answered an empty result") }
        return (try CloudRecord(wire: record, zoneID: normalized(recordID.zoneID)),
                try answer.cascaded.map { try CloudRecord(wire: $0, zoneID: normalized(recordID.zoneID)) })
    }

    /// The zone's recycle bin: its deleted records whose last version the server keeps, most
    /// recently deleted first.
    public func deletedRecords(in zoneID: ZoneID) async throws -> [DeletedRecord] {
        var deleted: [DeletedRecord] = []
        var marker: String?
        repeat {
            let page = try await post("records/deleted", DeletedRecordsRequest(zoneID: zoneID, continuationMarker: marker),
                                      as: DeletedRecordsResponse.self)
            deleted += page.records.map { item in
                DeletedRecord(recordID: RecordID(recordName: item.recordName, zoneID: normalized(zoneID)), recordType: item.recordType,
                              changeTag: item.recordChangeTag, deleted: item.deleted)
            }
            marker = page.continuationMarker
        } while marker != nil
        return deleted
    }

    /// Brings one of the private database's zones back to what it was at `date`, as forward
    /// changes every device fetches: changed records saved back, deleted ones undeleted, records
    /// created since deleted, a deleted zone made again. The server takes it a step at a time;
    /// this follows the steps to the end. Running it again changes nothing more.
    public func restoreZone(_ zoneID: ZoneID, to date: Date) async throws -> ZoneRestoreSummary {
        var summary = ZoneRestoreSummary()
        let zone = normalized(zoneID)
        let moment = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
        var marker: String?
        repeat {
            let step = try await post("zones/restore", ZoneRestoreRequest(zoneID: zone, timestamp: moment, continuationMarker: marker),
                                      as: ZoneRestoreResponse.self)
            summary.restored += step.restoredRecords.map { RecordID(recordName: $0, zoneID: zone) }
            summary.deleted += step.deletedRecords.map { RecordID(recordName: $0, zoneID: zone) }
            for error in step.errors {
                summary.failures[RecordID(recordName: error.recordName ?? "", zoneID: zone)] = CloudError(error)
            }
            marker = step.continuationMarker
        } while marker != nil
        return summary
    }
}
