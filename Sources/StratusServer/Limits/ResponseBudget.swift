import StratusCore

/// How many bytes of records a response may still carry (``ServerConfiguration/maxResponseBytes``).
///
/// A record costs its stored fields JSON, which is copied to the wire as it is, plus a fixed
/// allowance for its system fields, and as much again as its fields when they hold assets (each
/// asset gains a signed `downloadURL`). Feeds and queries stop adding records when the next one
/// would not fit and say so (`moreComing`, a `continuationMarker`); a lookup over it is refused.
struct ResponseBudget {
    private(set) var remaining: Int
    /// Bytes set aside per record for its name, type, change tag, timestamps and punctuation.
    static let recordOverhead = 1024

    init(bytes: Int) {
        remaining = bytes
    }

    /// The bytes a record takes in a response.
    static func cost(of record: StoredRecord) -> Int {
        record.fieldsJSON.count + recordOverhead + (RecordMapper.hasAssets(record.fieldsJSON) ? record.fieldsJSON.count : 0)
    }

    /// Takes the record's cost if it fits; false (taking nothing) if it does not. The first
    /// record of a response always fits (a record is bounded by the record size limit), so a
    /// feed always makes progress.
    mutating func take(_ record: StoredRecord) -> Bool {
        let cost = Self.cost(of: record)
        guard cost <= remaining || !tookAny else { return false }
        remaining -= cost
        tookAny = true
        return true
    }

    private var tookAny = false
}
