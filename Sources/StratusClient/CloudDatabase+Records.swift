import Foundation
import StratusCore

/// The outcome of ``CloudDatabase/modifyRecords(saving:deleting:savePolicy:atomically:echoingFields:createKeys:)``.
public struct ModifyRecordsResult: Sendable {
    /// Each saved record as the server now has it, or why it was not saved.
    public var saveResults: ItemResults<RecordID, CloudRecord>
    /// Each deletion's outcome.
    public var deleteResults: ItemResults<RecordID, Void>
}

extension CloudDatabase {
    /// Saves and deletes records (CloudKit's `modifyRecords(saving:deleting:…)`). Pending asset
    /// files are uploaded first. Records are sent one request per zone; in a custom zone with
    /// `atomically`, one failure fails the zone's whole batch (the others report
    /// ``CloudError/Code-swift.enum/batchRequestFailed``). A request-level failure throws; item
    /// failures are in the results, conflicts with the client, server and ancestor records.
    ///
    /// With `echoingFields` false, the server answers saved records without their fields, and each
    /// saved record keeps the fields it was sent with. Use it only for records that carry all their
    /// fields (as a sync engine's edits do), to halve what comes back.
    ///
    /// `createKeys` name creates (saves of records without a change tag) so that one sent again
    /// after a lost answer is recognised (a Stratus extension): if the record it made was deleted
    /// since, its result is ``CloudError/Code-swift.enum/unknownItem`` rather than the record back.
    public func modifyRecords(saving records: [CloudRecord], deleting deletions: [RecordID] = [],
                              savePolicy: SavePolicy = .ifServerRecordUnchanged, atomically: Bool = true,
                              echoingFields: Bool = true, createKeys: [RecordID: String] = [:]) async throws -> ModifyRecordsResult {
        var result = ModifyRecordsResult(saveResults: [:], deleteResults: [:])
        let uploaded = try await uploadingAssets(of: records)
        var zones: [ZoneID] = []
        var byZone: [ZoneID: (saves: [CloudRecord], deletions: [RecordID])] = [:]
        for record in uploaded {
            if byZone[record.recordID.zoneID] == nil { zones.append(record.recordID.zoneID) }
            byZone[record.recordID.zoneID, default: ([], [])].saves.append(record)
        }
        for id in deletions {
            if byZone[id.zoneID] == nil { zones.append(id.zoneID) }
            byZone[id.zoneID, default: ([], [])].deletions.append(id)
        }
        for zoneID in zones {
            let (saves, deletes) = byZone[zoneID]!
            var operations = saves.map { record in
                let (type, keys) = savePolicy.operation(for: record)
                return RecordOperation(type, record.wire(keys: keys), createKey: type == .create ? createKeys[record.recordID] : nil)
            }
            operations += deletes.map { RecordOperation(.forceDelete, Record(recordName: $0.recordName)) }
            let request = RecordsModifyRequest(operations: operations, zoneID: zoneID, atomic: atomically, desiredKeys: echoingFields ? nil : [])
            let answers = try await post("records/modify", request, as: RecordsResponse.self).records
            guard answers.count == operations.count else {
                throw CloudError(.internalError, "records/modify answered \(answers.count) results for \(operations.count) operations")
            }
            for (index, answer) in answers.enumerated() {
                if index < saves.count {
                    result.saveResults[saves[index].recordID] = saveOutcome(answer, sent: saves[index], echoingFields: echoingFields)
                } else {
                    let id = deletes[index - saves.count]
                    result.deleteResults[id] = answer.error.map { .failure(CloudError($0)) } ?? .success(())
                }
            }
        }
        return result
    }

    private func saveOutcome(_ answer: RecordResult, sent: CloudRecord, echoingFields: Bool) -> Result<CloudRecord, CloudError> {
        if var record = answer.record {
            do {
                if !echoingFields { record.fields = sent.fields.mapValues(Optional.some) }
                var saved = try CloudRecord(wire: record, zoneID: normalized(sent.recordID.zoneID))
                saved.assetFiles = sent.assetFiles
                return .success(saved)
            } catch {
                return .failure(error)
            }
        }
        guard let failure = answer.error else { return .failure(CloudError(.internalError, "empty result")) }
        var error = CloudError(failure)
        if error.code == .serverRecordChanged {
            error.clientRecord = sent
            error.serverRecord = failure.serverRecord.flatMap { try? CloudRecord(wire: $0, zoneID: normalized(sent.recordID.zoneID)) }
            if let systemFields = sent.systemFields, let serverFields = sent.serverFields {
                var ancestor = CloudRecord(systemFields: systemFields, fields: serverFields)
                ancestor.markSaved()
                error.ancestorRecord = ancestor
            }
        }
        return .failure(error)
    }

    /// Saves one record and returns it as the server now has it; its failure is thrown.
    public func save(_ record: CloudRecord, savePolicy: SavePolicy = .ifServerRecordUnchanged) async throws -> CloudRecord {
        let result = try await modifyRecords(saving: [record], savePolicy: savePolicy, atomically: false)
        guard let outcome = result.saveResults[record.recordID] else { throw CloudError(.internalError, "no result for \(record.recordID)") }
        return try outcome.get()
    }

    /// Deletes one record, whatever its change tag; a missing record is ``CloudError/Code-swift.enum/unknownItem``.
    public func deleteRecord(withID id: RecordID) async throws {
        let result = try await modifyRecords(saving: [], deleting: [id], atomically: false)
        try result.deleteResults[id]?.get()
    }

    /// Fetches records by ID, with only `desiredKeys` among their fields (all when nil). Assets
    /// are downloaded when the container has an asset cache.
    ///
    /// Each ID is asked for once; requests hold at most 400 records, and a request the server
    /// finds too large to answer (`LIMIT_EXCEEDED`) is split in halves until every part fits.
    public func records(for ids: [RecordID], desiredKeys: [String]? = nil) async throws -> ItemResults<RecordID, CloudRecord> {
        var results: ItemResults<RecordID, CloudRecord> = [:]
        var seen = Set<RecordID>()
        for (zoneID, zoneIDs) in Dictionary(grouping: ids.filter { seen.insert($0).inserted }, by: \.zoneID) {
            var answers: [RecordResult] = []
            for start in stride(from: 0, to: zoneIDs.count, by: Self.maxLookup) {
                let chunk = zoneIDs[start..<min(start + Self.maxLookup, zoneIDs.count)].map(\.recordName)
                answers += try await lookup(chunk, in: zoneID, desiredKeys: desiredKeys)
            }
            for (id, answer) in zip(zoneIDs, answers) {
                if let record = answer.record {
                    results[id] = .success(try await downloadingAssets(of: try CloudRecord(wire: record, zoneID: normalized(zoneID))))
                } else {
                    results[id] = .failure(answer.error.map(CloudError.init) ?? CloudError(.internalError, "empty result"))
                }
            }
        }
        return results
    }

    /// Records per lookup request (the server's default operation limit).
    static let maxLookup = 400

    /// One zone's lookup, split in halves while the server answers `LIMIT_EXCEEDED`.
    private func lookup(_ names: [String], in zoneID: ZoneID, desiredKeys: [String]?) async throws -> [RecordResult] {
        let request = RecordsLookupRequest(records: names.map { .init(recordName: $0) }, zoneID: zoneID, desiredKeys: desiredKeys)
        do {
            return try await post("records/lookup", request, as: RecordsResponse.self).records
        } catch let error as CloudError where error.code == .limitExceeded && names.count > 1 {
            let half = names.count / 2
            return try await lookup(Array(names[..<half]), in: zoneID, desiredKeys: desiredKeys)
                + lookup(Array(names[half...]), in: zoneID, desiredKeys: desiredKeys)
        }
    }

    /// Fetches one record; its absence is ``CloudError/Code-swift.enum/unknownItem``.
    public func record(for id: RecordID, desiredKeys: [String]? = nil) async throws -> CloudRecord {
        guard let outcome = try await records(for: [id], desiredKeys: desiredKeys)[id] else {
            throw CloudError(.internalError, "no result for \(id)")
        }
        return try outcome.get()
    }
}
