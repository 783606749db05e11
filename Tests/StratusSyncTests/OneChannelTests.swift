import Foundation
import GRDB
import Testing
import StratusClient
import StratusSync
import StratusTesting
import Synchronization

/// What the server has reaches the app through one channel: the in-transaction hook when the
/// engine's state lives in the app's database, the event when it lives in a file.
@Suite struct OneChannelTests {
    /// A delegate whose state lives in its own GRDB database: it counts what the hook applied and
    /// the fetched-changes events it was sent.
    final class HookDelegate: SyncEngineDelegate, Sendable {
        private struct Counts {
            var hooked: [String] = []
            var hookedDeletions: [String] = []
            var events = 0
        }

        private let counts = Mutex(Counts())

        var applied: (saved: [String], deleted: [String], fetchedEvents: Int) {
            counts.withLock { ($0.hooked.sorted(), $0.hookedDeletions.sorted(), $0.events) }
        }

        func handleEvent(_ event: SyncEngine.Event, syncEngine: SyncEngine) async {
            if case .fetchedRecordZoneChanges = event { counts.withLock { $0.events += 1 } }
        }

        func record(for recordID: RecordID, syncEngine: SyncEngine) async throws -> CloudRecord? { nil }

        func applyServerChanges(_ changes: ServerChanges, in db: GRDB.Database) throws -> [RecordID: String] {
            for record in changes.modifications {
                try db.execute(sql: "INSERT OR REPLACE INTO notes (name) VALUES (?)", arguments: [record.recordID.recordName])
            }
            for deletion in changes.deletions {
                try db.execute(sql: "DELETE FROM notes WHERE name = ?", arguments: [deletion.recordID.recordName])
            }
            counts.withLock {
                $0.hooked += changes.modifications.map(\.recordID.recordName)
                $0.hookedDeletions += changes.deletions.map(\.recordID.recordName)
            }
            return [:]
        }
    }

    @Test func withTheStateInTheAppsDatabaseTheServersChangesArriveOnceAndAreNotSentBack() async throws {
        try await TestCloud.with { cloud in
            let user = try await cloud.createUser("alice")
            let phone = try await cloud.device("phone", of: user)
            let laptop = try await cloud.device("laptop", of: user)
            for name in ["a", "b"] {
                try await phone.save(SyncEngineTests.note(name, at: 1, id: RecordID(recordName: name, zoneID: SyncEngineTests.zone)))
            }
            try await phone.sync()

            let container = await cloud.container(deviceID: "tablet")
            try await container.signIn(username: user, password: "password-\(user)")
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("one-channel-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let queue = try DatabaseQueue(path: directory.appendingPathComponent("app.sqlite").path)
            let delegate = HookDelegate()
            var configuration = SyncEngine.Configuration(database: container.privateCloudDatabase,
                                                         state: .database(queue, tablePrefix: "sync_"), delegate: delegate)
            configuration.automaticallySync = false
            let tablet = try SyncEngine(configuration: configuration)
            // The app's own capture triggers, with no condition: the outbox ignores the server's changes.
            let outbox = SyncEngine.outboxTable(tablePrefix: "sync_")
            try await queue.write { db in
                try db.execute(sql: """
                    CREATE TABLE notes (name TEXT PRIMARY KEY);
                    CREATE TRIGGER notes_saved AFTER INSERT ON notes
                    BEGIN INSERT INTO \(outbox) (zone_name, owner, record_name, change) VALUES ('\(SyncEngineTests.zone.zoneName)', '', NEW.name, 'save'); END;
                    CREATE TRIGGER notes_deleted AFTER DELETE ON notes
                    BEGIN INSERT INTO \(outbox) (zone_name, owner, record_name, change) VALUES ('\(SyncEngineTests.zone.zoneName)', '', OLD.name, 'delete'); END;
                    """)
            }
            try await tablet.fetchChanges()
            #expect(delegate.applied.saved == ["a", "b"] && delegate.applied.fetchedEvents == 0, "\(delegate.applied)")
            #expect(try await queue.read { try String.fetchAll($0, sql: "SELECT name FROM notes ORDER BY name") } == ["a", "b"])
            #expect(try await tablet.snapshot().pendingRecordChanges.isEmpty, "the server's records are not sent back")
            try await queue.write { db in
                try SyncEngine.applyingServerChanges(in: db, tablePrefix: "sync_") {
                    try db.execute(sql: "DELETE FROM notes WHERE name = 'b'")
                }
            }
            #expect(try await tablet.snapshot().pendingRecordChanges.isEmpty, "a deletion on the server's word is not sent")
            try await queue.write { db in try db.execute(sql: "INSERT INTO notes (name) VALUES ('c')") }
            #expect(try await tablet.snapshot().pendingRecordChanges.map(\.recordID.recordName) == ["c"], "the app's own edit is")

            try await phone.delete(RecordID(recordName: "a", zoneID: SyncEngineTests.zone))
            try await phone.sync()
            try await tablet.fetchChanges()
            #expect(delegate.applied.deleted == ["a"] && delegate.applied.fetchedEvents == 0, "\(delegate.applied)")
            #expect(try await tablet.snapshot().pendingRecordChanges.map(\.recordID.recordName) == ["c"])

            // With the state in a file, the event carries them (the hook is not called).
            try await laptop.sync()
            #expect(await laptop.records().keys.map(\.recordName) == ["b"])
        }
    }
}
