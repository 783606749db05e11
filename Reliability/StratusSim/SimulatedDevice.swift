import Foundation
import GRDB
import StratusClient
import StratusData
import StratusSync
import StratusTesting
import Synchronization

/// What the simulation reads and writes on a device: notes (edited anywhere, the latest edit wins)
/// and journal entries (created once, maybe deleted), as an app would.
///
/// What a device holds is compared as record name → text; an entry whose photo (an asset) the
/// device holds reads `+photo` after its text (`+badphoto` if the bytes are not the ones saved).
protocol SimulatedDevice: AnyObject, Sendable {
    var transport: FaultInjectingTransport { get }
    func editNote(_ name: String, text: String, modified: Int64) async throws
    func createEntry(_ name: String, text: String, note: String) async throws
    /// Deletes the entry if the device has it; whether it did.
    func deleteEntry(_ name: String) async throws -> Bool
    func sync() async throws
    /// Kills the app (no shutdown) and launches it again on the same files.
    func restartApp() async throws
    /// Every record the device holds: record name → text.
    func contents() async throws -> [String: String]
    /// What the device's engines have not settled: changes to send, changes set aside. Changes
    /// to zones others share are left out when `sharedSetAside` is false (the user's access was
    /// taken away at some time, so the server may rightly have refused them).
    func backlog(sharedSetAside: Bool) async throws -> [String]
}

/// The zone every simulated record lives in.
let simulationZone = ZoneID(zoneName: "StratusData")
/// The zone that gets deleted under the devices (written by `SyncEngine` devices only).
let scratchZone = ZoneID(zoneName: "Scratch")
/// The zone every user shares with others (a zone-wide share), in its owner's private database.
let sharedZoneName = "Shared"

/// The photo a `StratusData` device attaches to an entry it creates.
func photo(ofEntry name: String) -> Data {
    Data(String(repeating: "photo of \(name) ", count: 64).utf8)
}

/// A record as the simulation compares it: its text, and `+photo` if it carries a photo.
func comparedText(of record: CloudRecord) -> String {
    (record.string("text") ?? "") + (record["photo"] != nil ? "+photo" : "")
}

/// How both kinds of device configure their engines: simulated time, the latest edit wins.
func configureSimulatedEngine(_ configuration: inout SyncEngine.Configuration, clock: SimulatedClock) {
    configuration.clock = clock
    configuration.conflictResolver = .latestModified(field: "modified")
    configuration.retry.maximumAttempts = 8
}

/// A device whose app keeps its records itself and syncs them with two ``SyncEngine``s: one for
/// its user's private database, one for the zones others share with the user.
final class EngineDevice: SimulatedDevice {
    let device: TestDevice
    let shared: TestDevice
    var transport: FaultInjectingTransport { device.transport }

    init(name: String, directory: URL, container: Container, transport: FaultInjectingTransport, clock: SimulatedClock) throws {
        device = try TestDevice(name: name, directory: directory, container: container, transport: transport, scope: .private) {
            configureSimulatedEngine(&$0, clock: clock)
        }
        shared = try TestDevice(name: "\(name)-shared", directory: directory.appendingPathComponent("shared"), container: container,
                                transport: transport, scope: .shared) {
            configureSimulatedEngine(&$0, clock: clock)
        }
    }

    /// Adds an item to the user's own shared zone.
    func writeOwnShared(_ name: String, text: String) async throws {
        let id = RecordID(recordName: name, zoneID: ZoneID(zoneName: sharedZoneName))
        try await device.save(CloudRecord(recordType: "Item", recordID: id, fields: ["text": .string(text)]))
    }

    /// Adds an item to another user's shared zone, if the device holds that zone; whether it did.
    func writeShared(_ name: String, text: String, owner: String) async throws -> Bool {
        let zoneID = ZoneID(zoneName: sharedZoneName, ownerRecordName: owner)
        guard await shared.records().keys.contains(where: { $0.zoneID == zoneID }) else { return false }
        try await shared.save(CloudRecord(recordType: "Item", recordID: RecordID(recordName: name, zoneID: zoneID), fields: ["text": .string(text)]))
        return true
    }

    /// The items of other users' shared zones the device holds, by owner: record name → text.
    func sharedContents() async -> [String: [String: String]] {
        var contents: [String: [String: String]] = [:]
        for (id, record) in await shared.records() where record.recordType != ShareKeys.recordType {
            contents[id.zoneID.ownerRecordName ?? "", default: [:]][id.recordName] = comparedText(of: record)
        }
        return contents
    }

    func editNote(_ name: String, text: String, modified: Int64) async throws {
        let id = RecordID(recordName: name, zoneID: simulationZone)
        var note = await device.record(id) ?? CloudRecord(recordType: "Note", recordID: id)
        note["text"] = .string(text)
        note["modified"] = .timestamp(modified)
        try await device.save(note)
    }

    func createEntry(_ name: String, text: String, note: String) async throws {
        let id = RecordID(recordName: name, zoneID: simulationZone)
        try await device.save(CloudRecord(recordType: "Entry", recordID: id, fields: [
            "text": .string(text), "noteID": .reference(Reference(recordName: note, zoneID: simulationZone)),
        ]))
    }

    func writeScratch(_ name: String, text: String) async throws {
        let id = RecordID(recordName: name, zoneID: scratchZone)
        var record = await device.record(id) ?? CloudRecord(recordType: "Scratch", recordID: id)
        record["text"] = .string(text)
        try await device.save(record)
    }

    func deleteEntry(_ name: String) async throws -> Bool {
        let id = RecordID(recordName: name, zoneID: simulationZone)
        guard await device.record(id) != nil else { return false }
        try await device.delete(id)
        return true
    }

    func sync() async throws {
        try await device.sync()
        try await shared.sync()
    }

    func restartApp() async throws {
        try await device.restart()
        try await shared.restart()
    }

    func backlog(sharedSetAside: Bool) async throws -> [String] {
        var shared = try await shared.engine.snapshot()
        if !sharedSetAside { shared.setAsideChanges = [] }
        return try await device.engine.snapshot().backlog + shared.backlog
    }

    func contents() async throws -> [String: String] {
        var contents: [String: String] = [:]
        for (id, record) in await device.records() where record.recordType != ShareKeys.recordType {
            contents[id.recordName] = comparedText(of: record)
        }
        return contents
    }
}

/// A device whose app keeps its records in SQLite tables synced by StratusData: notes, entries
/// that refer to a note (which may not exist yet) and carry a photo, and marks that go with
/// their entry (a cascade).
final class TableDevice: SimulatedDevice {
    /// The tables, written with SQL.
    enum Note: TableRecord { static let databaseTableName = "note" }
    enum Entry: TableRecord { static let databaseTableName = "entry" }
    enum Mark: TableRecord { static let databaseTableName = "mark" }

    static let tables = [
        SyncedTable(Note.self, recordType: "Note", timestampColumns: [Column("modified")]),
        SyncedTable(Entry.self, recordType: "Entry", assetColumns: [Column("photo")], references: [.init(Column("noteID"), to: Note.self)]),
        SyncedTable(Mark.self, recordType: "Mark", references: [.init(Column("entryID"), to: Entry.self, onDelete: .cascade)]),
    ]

    let transport: FaultInjectingTransport
    private let directory: URL
    private let container: Container
    private let clock: SimulatedClock
    private let state: Mutex<(queue: DatabaseQueue, store: SyncedDatabase)>

    init(directory: URL, container: Container, transport: FaultInjectingTransport, clock: SimulatedClock) throws {
        self.directory = directory
        self.container = container
        self.transport = transport
        self.clock = clock
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        state = Mutex(try Self.open(directory: directory, container: container, clock: clock))
    }

    private static func open(directory: URL, container: Container, clock: SimulatedClock) throws -> (queue: DatabaseQueue, store: SyncedDatabase) {
        // The killed app's connection is not closed (this process goes on): wait for its lock.
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        let queue = try DatabaseQueue(path: directory.appendingPathComponent("app.sqlite").path, configuration: configuration)
        try queue.write { db in
            try db.execute(sql: """
                CREATE TABLE IF NOT EXISTS note (id TEXT PRIMARY KEY NOT NULL, text TEXT NOT NULL, modified INTEGER NOT NULL);
                CREATE TABLE IF NOT EXISTS entry (id TEXT PRIMARY KEY NOT NULL, text TEXT NOT NULL, noteID TEXT, photo BLOB);
                CREATE TABLE IF NOT EXISTS mark (id TEXT PRIMARY KEY NOT NULL, text TEXT NOT NULL, entryID TEXT);
                """)
        }
        let store = try SyncedDatabase(writer: queue, tables: tables, database: container.privateCloudDatabase) {
            configureSimulatedEngine(&$0, clock: clock)
        }
        return (queue, store)
    }

    private var queue: DatabaseQueue { state.withLock { $0.queue } }
    private var store: SyncedDatabase { state.withLock { $0.store } }

    func editNote(_ name: String, text: String, modified: Int64) async throws {
        try await queue.write { db in
            try db.execute(sql: """
                INSERT INTO note (id, text, modified) VALUES (?, ?, ?)
                ON CONFLICT(id) DO UPDATE SET text = excluded.text, modified = excluded.modified
                """, arguments: [name, text, modified])
        }
    }

    func createEntry(_ name: String, text: String, note: String) async throws {
        try await queue.write { db in
            try db.execute(sql: "INSERT INTO entry (id, text, noteID, photo) VALUES (?, ?, ?, ?)", arguments: [name, text, note, photo(ofEntry: name)])
            try db.execute(sql: "INSERT INTO mark (id, text, entryID) VALUES (?, ?, ?)",
                           arguments: [TableDevice.mark(ofEntry: name), TableDevice.markText(entryText: text, entry: name), name])
        }
    }

    func deleteEntry(_ name: String) async throws -> Bool {
        try await queue.write { db in
            try db.execute(sql: "DELETE FROM entry WHERE id = ?", arguments: [name])
            return db.changesCount > 0
        }
    }

    /// The name and text of the mark a device creates with an entry.
    static func mark(ofEntry name: String) -> String { "mark-\(name)" }
    static func markText(entryText: String, entry name: String) -> String {
        "\(entryText.prefix { $0 != ":" }):\(mark(ofEntry: name))"
    }

    func sync() async throws { try await store.syncNow() }

    /// Drops the device's notes and entries behind the sync's back (the self-test's tampering).
    func forgetEverything() async throws {
        try await queue.write { db in try db.execute(sql: "DELETE FROM note; DELETE FROM entry; DELETE FROM mark") }
    }

    func restartApp() async throws {
        let reopened = try Self.open(directory: directory, container: container, clock: clock)
        state.withLock { $0 = reopened }
    }

    func backlog(sharedSetAside: Bool) async throws -> [String] { try await store.engine.snapshot().backlog }

    func contents() async throws -> [String: String] {
        try await queue.read { db in
            var contents: [String: String] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT id, text FROM note UNION ALL SELECT id, text FROM mark") {
                contents[row["id"]] = row["text"]
            }
            for row in try Row.fetchAll(db, sql: "SELECT id, text, photo FROM entry") {
                let name: String = row["id"]
                let bytes: Data? = row["photo"]
                contents[name] = row["text"] + (bytes == nil ? "" : bytes == photo(ofEntry: name) ? "+photo" : "+badphoto")
            }
            return contents
        }
    }
}
