import GRDB

/// A device's settings and bookkeeping, kept in its database.
enum Setting: String {
    /// Whether shopping mode holds others' adds (1) or not.
    case shoppingMode
    /// When the device last fetched (ms since 1970).
    case lastFetch
    /// When the device last compacted a list (ms since 1970).
    case lastCompaction

    func value(in db: Database) throws -> Int64? {
        try Int64.fetchOne(db, sql: "SELECT value FROM setting WHERE key = ?", arguments: [rawValue])
    }

    func set(_ value: Int64, in db: Database) throws {
        try db.execute(sql: "INSERT OR REPLACE INTO setting (key, value) VALUES (?, ?)", arguments: [rawValue, value])
    }
}
