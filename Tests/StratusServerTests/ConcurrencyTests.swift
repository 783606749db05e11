import Foundation
import Testing
import StratusCore

@Suite struct ConcurrencyTests {
    /// Many clients at once: every acknowledged write is there exactly once, each user's feed
    /// holds only their own records, and no request fails.
    @Test func concurrentWritersAndReaders() async throws {
        try await TestServer.with { server in
            var users: [Caller] = []
            for index in 0..<4 { users.append(try await server.signUp("user\(index)")) }
            for user in users { try await user.createZone("Shared") }
            let snapshot = users
            try await withThrowingTaskGroup(of: Void.self) { group in
                for (userIndex, user) in snapshot.enumerated() {
                    for device in 0..<3 {
                        group.addTask {
                            for batch in 0..<10 {
                                let names = (0..<20).map { "u\(userIndex)-d\(device)-b\(batch)-\($0)" }
                                let saved = try await user.save(names.map { .create($0, ["device": .int64(Int64(device))]) }, zone: "Shared")
                                #expect(saved.count == 20)
                                _ = try await user.zoneChanges("Shared", limit: 50)
                            }
                        }
                    }
                }
                try await group.waitForAll()
            }
            for (userIndex, user) in snapshot.enumerated() {
                let names = try await user.allZoneChanges("Shared").records.compactMap(\.recordName)
                #expect(names.count == 3 * 10 * 20)
                #expect(Set(names).count == names.count)
                #expect(names.allSatisfy { $0.hasPrefix("u\(userIndex)-") })
            }
        }
    }
}
