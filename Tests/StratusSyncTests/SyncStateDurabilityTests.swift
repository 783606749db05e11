import Foundation
import GRDB
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
