import StratusCore

extension WireWriter {
    /// Writes a stored row as a Record Dictionary. Without `desiredKeys` the stored fields JSON is
    /// copied as it is; with them, the fields are decoded and filtered.
    mutating func record(_ stored: StoredRecord, desiredKeys: [String]?) throws {
        if stored.deleted || desiredKeys != nil {
            record(try RecordMapper.record(from: stored, desiredKeys: desiredKeys))
        } else {
            record(RecordMapper.systemFields(of: stored), encodedFields: stored.fieldsJSON)
        }
    }

    /// Writes `[record, …]` from stored rows.
    mutating func records(_ rows: [StoredRecord], desiredKeys: [String]?) throws {
        raw("[")
        for (index, stored) in rows.enumerated() {
            if index > 0 { raw(",") }
            try record(stored, desiredKeys: desiredKeys)
        }
        raw("]")
    }
}

/// The response of `records/modify` and `records/lookup`, written from the stored rows.
package struct RecordResults: WireWritable {
    /// One requested item's outcome.
    package enum Outcome: Sendable {
        case stored(StoredRecord, desiredKeys: [String]?)
        case failure(RecordError)
    }

    package var results: [Outcome]

    package func write(to writer: inout WireWriter) throws {
        writer.raw("{\"records\":[")
        for (index, result) in results.enumerated() {
            if index > 0 { writer.raw(",") }
            switch result {
            case .stored(let stored, let desiredKeys): try writer.record(stored, desiredKeys: desiredKeys)
            case .failure(let error): writer.recordError(error)
            }
        }
        writer.raw("]}")
    }
}
