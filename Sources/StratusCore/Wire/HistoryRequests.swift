/// `records/history` (a Stratus extension): the versions of one record the server keeps, newest
/// first.
package struct RecordHistoryRequest: Codable, Sendable, Equatable {
    package var zoneID: ZoneID?
    package var recordName: String
    package var resultsLimit: Int?
    package var continuationMarker: String?

    package init(zoneID: ZoneID? = nil, recordName: String, resultsLimit: Int? = nil, continuationMarker: String? = nil) {
        self.zoneID = zoneID
        self.recordName = recordName
        self.resultsLimit = resultsLimit
        self.continuationMarker = continuationMarker
    }
}

/// The answer of `records/history`: each version as a record dictionary with only
/// `recordChangeTag`, `recordType`, `deleted`, `modified` (who made the version, from which device,
/// when) and `fields` (none for a deletion).
package struct RecordHistoryResponse: Codable, Sendable, Equatable {
    package var recordName: String
    package var versions: [Record]
    package var continuationMarker: String?

    package init(recordName: String, versions: [Record], continuationMarker: String? = nil) {
        self.recordName = recordName
        self.versions = versions
        self.continuationMarker = continuationMarker
    }
}

/// `records/restore` (a Stratus extension): makes kept versions current again, each as a new save.
package struct RecordsRestoreRequest: Codable, Sendable, Equatable {
    /// One record to restore: the version with `recordChangeTag`; with `expectedCurrentChangeTag`,
    /// only while the record's current change tag (its tombstone's, if deleted) is that.
    package struct Operation: Codable, Sendable, Equatable {
        package var recordName: String
        package var recordChangeTag: String
        package var expectedCurrentChangeTag: String?

        package init(recordName: String, recordChangeTag: String, expectedCurrentChangeTag: String? = nil) {
            self.recordName = recordName
            self.recordChangeTag = recordChangeTag
            self.expectedCurrentChangeTag = expectedCurrentChangeTag
        }
    }

    package var zoneID: ZoneID?
    package var operations: [Operation]
    /// Whether one failure fails them all, as in `records/modify` (the default: in a custom zone).
    package var atomic: Bool?

    package init(zoneID: ZoneID? = nil, operations: [Operation], atomic: Bool? = nil) {
        self.zoneID = zoneID
        self.operations = operations
        self.atomic = atomic
    }
}

/// The answer of `records/restore`: a result per operation, as `records/modify` answers, and the
/// records that came back with them (what their deletion had taken through `DELETE_SELF`).
package struct RecordsRestoreResponse: Codable, Sendable, Equatable {
    package var records: [RecordResult]
    package var cascaded: [Record]

    package init(records: [RecordResult], cascaded: [Record]) {
        self.records = records
        self.cascaded = cascaded
    }
}

/// `records/deleted` (a Stratus extension): the recycle bin of a zone, the deleted records whose
/// last version is kept, most recently deleted first.
package struct DeletedRecordsRequest: Codable, Sendable, Equatable {
    package var zoneID: ZoneID?
    package var resultsLimit: Int?
    package var continuationMarker: String?

    package init(zoneID: ZoneID? = nil, resultsLimit: Int? = nil, continuationMarker: String? = nil) {
        self.zoneID = zoneID
        self.resultsLimit = resultsLimit
        self.continuationMarker = continuationMarker
    }
}

/// The answer of `records/deleted`.
package struct DeletedRecordsResponse: Codable, Sendable, Equatable {
    /// A deleted record: its tombstone's change tag, and who deleted it, from which device, when.
    package struct Item: Codable, Sendable, Equatable {
        package var recordName: String
        package var recordType: String
        package var recordChangeTag: String
        package var deleted: RecordStamp

        package init(recordName: String, recordType: String, recordChangeTag: String, deleted: RecordStamp) {
            self.recordName = recordName
            self.recordType = recordType
            self.recordChangeTag = recordChangeTag
            self.deleted = deleted
        }
    }

    package var records: [Item]
    package var continuationMarker: String?

    package init(records: [Item], continuationMarker: String? = nil) {
        self.records = records
        self.continuationMarker = continuationMarker
    }
}

/// `records/history/purge` (a Stratus extension): the record's owner removes its kept versions.
package struct RecordHistoryPurgeRequest: Codable, Sendable, Equatable {
    package var zoneID: ZoneID?
    package var recordName: String

    package init(zoneID: ZoneID? = nil, recordName: String) {
        self.zoneID = zoneID
        self.recordName = recordName
    }
}

/// The answer of `records/history/purge`: how many kept versions went.
package struct RecordHistoryPurgeResponse: Codable, Sendable, Equatable {
    package var recordName: String
    package var purgedVersions: Int

    package init(recordName: String, purgedVersions: Int) {
        self.recordName = recordName
        self.purgedVersions = purgedVersions
    }
}

/// `zones/restore` (a Stratus extension): one step of bringing a zone back to what it was at
/// `timestamp` (ms), as forward changes; continue with the answer's `continuationMarker`.
package struct ZoneRestoreRequest: Codable, Sendable, Equatable {
    package var zoneID: ZoneID
    package var timestamp: Int64
    package var continuationMarker: String?

    package init(zoneID: ZoneID, timestamp: Int64, continuationMarker: String? = nil) {
        self.zoneID = zoneID
        self.timestamp = timestamp
        self.continuationMarker = continuationMarker
    }
}

/// The answer of one `zones/restore` step: the records it saved back and deleted, those it could
/// not (each with its error), and where the next step starts, if one is left.
package struct ZoneRestoreResponse: Codable, Sendable, Equatable {
    package var zoneID: ZoneID
    package var restoredRecords: [String]
    package var deletedRecords: [String]
    package var errors: [RecordError]
    package var continuationMarker: String?

    package init(zoneID: ZoneID, restoredRecords: [String], deletedRecords: [String], errors: [RecordError], continuationMarker: String?) {
        self.zoneID = zoneID
        self.restoredRecords = restoredRecords
        self.deletedRecords = deletedRecords
        self.errors = errors
        self.continuationMarker = continuationMarker
    }
}

/// `zones/deleted` (a Stratus extension): the deleted zones of the caller's private database whose
/// records' versions are kept, most recently deleted first.
package struct DeletedZonesRequest: Codable, Sendable, Equatable {
    package var resultsLimit: Int?

    package init(resultsLimit: Int? = nil) {
        self.resultsLimit = resultsLimit
    }
}

/// The answer of `zones/deleted`.
package struct DeletedZonesResponse: Codable, Sendable, Equatable {
    /// A deleted zone and when it was deleted (ms): restore it to a moment before that.
    package struct Item: Codable, Sendable, Equatable {
        package var zoneID: ZoneID
        package var deleted: Int64

        package init(zoneID: ZoneID, deleted: Int64) {
            self.zoneID = zoneID
            self.deleted = deleted
        }
    }

    package var zones: [Item]

    package init(zones: [Item]) {
        self.zones = zones
    }
}
