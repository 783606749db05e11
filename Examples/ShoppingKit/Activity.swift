import GRDB
import StratusClient
import StratusSync

/// A list's activity feed, kept on the device: each journal entry as a line ("bob added milk"),
/// who joined or left (the share's accepted participants compared with those last seen), and a
/// list going away — in the order this device heard of them. Fetched changes are noted in the
/// transaction that applies them, so a line is never lost or written twice.
enum Activity {
    static func createTables(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE activity (sequence INTEGER PRIMARY KEY AUTOINCREMENT, zoneName TEXT NOT NULL, entryID TEXT UNIQUE, line TEXT NOT NULL);
            CREATE INDEX activity_by_list ON activity(zoneName, sequence);
            CREATE TABLE participant (zoneName TEXT NOT NULL, participantID TEXT NOT NULL, username TEXT NOT NULL,
                                      PRIMARY KEY (zoneName, participantID));
            """)
    }

    /// A list's lines, oldest first.
    static func lines(of zoneName: String, in db: Database) throws -> [String] {
        try String.fetchAll(db, sql: "SELECT line FROM activity WHERE zoneName = ? ORDER BY sequence", arguments: [zoneName])
    }

    /// Notes an entry of the list in `zoneName`'s journal; false if it was noted before.
    @discardableResult
    static func note(_ entry: JournalEntry, inListOf zoneName: String, _ db: Database) throws -> Bool {
        try db.execute(sql: "INSERT OR IGNORE INTO activity (zoneName, entryID, line) VALUES (?, ?, ?)",
                       arguments: [zoneName, entry.id, try describe(entry, db)])
        return db.changesCount > 0
    }

    /// Notes what a fetch brought, as it is applied. In shopping mode, someone else's add new to
    /// this device is held.
    static func record(_ changes: ServerChanges, by username: String, in db: Database) throws {
        let shoppingMode = try Setting.shoppingMode.value(in: db) == 1
        for record in changes.modifications {
            let zoneName = record.recordID.zoneID.zoneName
            if record.isShare {
                try noteParticipants(of: record, inListOf: zoneName, db)
            } else if let entry = JournalEntry(record: record), try note(entry, inListOf: zoneName, db),
                      shoppingMode && entry.kind == .add && entry.author != username {
                try JournalEntry.filter(key: entry.id).updateAll(db, JournalEntry.Columns.held.set(to: true))
            }
        }
        for (zone, reason) in changes.removedZones {
            let why = reason == .accessEnded ? "sharing ended or you were removed" : "the list was deleted"
            try add("this list is no longer available here (\(why))", toListOf: zone.zoneName, db)
            try db.execute(sql: "DELETE FROM participant WHERE zoneName = ?", arguments: [zone.zoneName])
        }
    }

    /// Who joined or left: the share's accepted participants against those last seen.
    private static func noteParticipants(of share: CloudRecord, inListOf zoneName: String, _ db: Database) throws {
        var accepted: [String: String] = [:]
        for participant in share.shareKeys?.participants ?? [] where participant.acceptanceStatus == .accepted && participant.type != .owner {
            if let id = participant.participantId { accepted[id] = participant.userIdentity?.lookupInfo?.username ?? id }
        }
        let seen = try Dictionary(Row.fetchAll(db, sql: "SELECT participantID, username FROM participant WHERE zoneName = ?", arguments: [zoneName])
            .map { ($0[0] as String, $0[1] as String) }, uniquingKeysWith: { $1 })
        for (id, name) in accepted.sorted(by: { $0.value < $1.value }) where seen[id] == nil {
            try add("\(name) joined", toListOf: zoneName, db)
            try db.execute(sql: "INSERT INTO participant (zoneName, participantID, username) VALUES (?, ?, ?)", arguments: [zoneName, id, name])
        }
        for (id, name) in seen.sorted(by: { $0.value < $1.value }) where accepted[id] == nil {
            try add("\(name) left", toListOf: zoneName, db)
            try db.execute(sql: "DELETE FROM participant WHERE zoneName = ? AND participantID = ?", arguments: [zoneName, id])
        }
    }

    private static func add(_ line: String, toListOf zoneName: String, _ db: Database) throws {
        try db.execute(sql: "INSERT INTO activity (zoneName, line) VALUES (?, ?)", arguments: [zoneName, line])
    }

    private static func describe(_ entry: JournalEntry, _ db: Database) throws -> String {
        var item = entry.text ?? ""
        if entry.text == nil, let id = entry.itemID {
            item = try String.fetchOne(db, sql: "SELECT text FROM journalEntry WHERE itemID = ? AND kind = 'add'", arguments: [id]) ?? "an item"
        }
        let verb = switch entry.kind {
        case .add: "added"
        case .check: "checked"
        case .uncheck: "unchecked"
        case .delete: "deleted"
        case .rename: "renamed the list to"
        case .recolor: "recolored the list"
        }
        return "\(entry.author) \(verb) \(item)"
    }
}
