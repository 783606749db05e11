import Foundation
import GRDB
import Synchronization
import Testing
@testable import StratusClient
@testable import StratusSync

/// The engine's state file keeps the durability its documentation promises: WAL, and
/// `synchronous = FULL` outside the recoverable writes (queuing is durable when it returns).
@Suite struct SyncStateDurabilityTests {
    @Test func theStateFileIsWALWithSynchronousFull() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("state-\(UUID().uuidString).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let store = try SyncStateStore(path: path)
        let before = try store.durability()
        #expect(before.journalMode == "wal" && before.synchronous == 2)
        // A fetched page is written recoverably (NORMAL for its own transaction only).
        _ = try store.applyFetched(RecordZoneChanges(zoneID: ZoneID(zoneName: "Z"), modifications: [], deletions: [],
                                                     changeToken: ServerChangeToken(rawValue: "t"), moreComing: false))
        let after = try store.durability()
        #expect(after.synchronous == 2, "FULL again after writes")
    }

    /// In an app's database, a fetched page is written with `synchronous = NORMAL` only in WAL mode
    /// (in a rollback journal NORMAL could corrupt the file in a power cut), and the app's own
    /// setting — here EXTRA — is back after it.
    @Test(arguments: [true, false]) func anAppDatabaseRelaxesOnlyInWALModeAndGetsItsSettingBack(wal: Bool) throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("app-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let statements = Mutex<[String]>([])
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            db.trace { event in
                if case .statement(let statement) = event { statements.withLock { $0.append(statement.sql) } }
            }
        }
        let writer: any DatabaseWriter = wal ? try DatabasePool(path: path, configuration: configuration)
                                             : try DatabaseQueue(path: path, configuration: configuration)
        // After GRDB's own setup (a pool sets NORMAL): the app's choice.
        try writer.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA synchronous = EXTRA") }
        let store = try SyncStateStore(database: writer, tablePrefix: "_sync_", scope: .private)
        statements.withLock { $0 = [] }
        _ = try store.applyFetched(RecordZoneChanges(zoneID: ZoneID(zoneName: "Z"), modifications: [], deletions: [],
                                                     changeToken: ServerChangeToken(rawValue: "t"), moreComing: false))
        #expect(statements.withLock { $0.contains("PRAGMA synchronous = NORMAL") } == wal)
        #expect(try writer.write { db in try Int.fetchOne(db, sql: "PRAGMA synchronous") } == 3)
    }

    /// Found by the simulation's 1,000-seed run (seeds 31, 51 and 70): a relaunched app's engine
    /// opened its state file while the killed app's engine was writing it, and failed at once
    /// with "database is locked".
    @Test func aWriteWaitsForAnotherConnectionsWrite() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("state-\(UUID().uuidString).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let store = try SyncStateStore(path: path)
        let other = try DatabaseQueue(path: path)
        let locked = AsyncStream<Void>.makeStream()
        let holder = Task.detached {
            try other.inDatabase { db in
                try db.execute(sql: "BEGIN IMMEDIATE")
                locked.continuation.yield()
                Thread.sleep(forTimeInterval: 0.3)
                try db.execute(sql: "COMMIT")
            }
        }
        for await _ in locked.stream { break }
        try SyncStateStore(path: path).addPending([.saveRecord(RecordID(recordName: "r", zoneID: ZoneID(zoneName: "Z")))])
        try await holder.value
        #expect(try store.pendingRecordCount() == 1)
    }
}
