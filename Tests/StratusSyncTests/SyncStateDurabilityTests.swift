import Foundation
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
}
