import Foundation
import Testing
import StratusCore
@testable import StratusServer

/// `changes/zone` reads an owner's next page while they read the last (`ChangeReadAhead`): the
/// page read ahead is used only while its zone stands still, and only by the caller it was read for.
/// (`MetricsTests` reads the outcomes back from the metrics.)
@Suite struct ChangeReadAheadTests {
    @Test(.timeLimit(.minutes(3)))
    func aPageReadAheadIsUsedOnlyWhileItsZoneStandsStill() async throws {
        try await TestServer.with { server in
            let readAhead = server.server.services.changes.readAhead
            let alice = try await server.signUp("alice")
            try await alice.createZone("Z")
            _ = try await alice.save((0..<6).map { .create("r\($0)") }, zone: "Z")

            let first = try #require(try await alice.zoneChanges("Z", limit: 2).changes)
            #expect(first.records.map(\.recordName) == ["r0", "r1"] && first.moreComing)
            // The next page (r2, r3) has been read; r2 then changes, moving behind r5.
            await readAhead.settled()
            let updated = try await alice.save([RecordOperation(.forceUpdate, Record(recordName: "r2", fields: ["title": .string("new")]))], zone: "Z")
            let second = try #require(try await alice.zoneChanges("Z", token: first.syncToken, limit: 2).changes)
            #expect(second.records.map(\.recordName) == ["r3", "r4"], "the page read before r2 changed is not answered")
            #expect(readAhead.statistics.stale == 1 && readAhead.statistics.used == 0)
            let third = try #require(try await alice.zoneChanges("Z", token: second.syncToken, limit: 2).changes)
            #expect(third.records.map(\.recordName) == ["r5", "r2"] && !third.moreComing)
            #expect(third.records.last?.recordChangeTag == updated.first?.recordChangeTag)
            #expect(readAhead.statistics.stale == 1 && readAhead.statistics.used == 1, "the third page was read ahead and used")

            // Another user bringing Alice's token reads nothing of hers.
            let bob = try await server.signUp("bob")
            try await bob.createZone("Z")
            let again = try #require(try await alice.zoneChanges("Z", limit: 2).changes)
            await readAhead.settled()
            let stolen = try await bob.post(bob.path(.private, "changes/zone"), ZoneChangesRequest(
                zones: [.init(zoneID: ZoneID(zoneName: "Z"), syncToken: again.syncToken, resultsLimit: 2)]))
            #expect(!stolen.text.contains("\"r2\""), "Bob's request takes no page read for Alice")
            #expect(stolen.text.contains("BAD_REQUEST"))
            #expect(readAhead.statistics.stale == 1 && readAhead.statistics.used == 1, "Bob's request took no kept page")
        }
    }
}
