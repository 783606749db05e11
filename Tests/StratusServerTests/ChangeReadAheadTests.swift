import AsyncHTTPClient
import Foundation
import Testing
import StratusCore
import StratusTesting

/// `changes/zone` reads an owner's next page while they read the last (`ChangeReadAhead`): the
/// page read ahead is used only while the zone stands still, and only by the caller it was read for.
@Suite struct ChangeReadAheadTests {
    @Test(.timeLimit(.minutes(3)))
    func aPageReadAheadIsUsedOnlyWhileItsZoneStandsStill() async throws {
        let process = try await ServerProcess.started(dataDirectory: TestServer.temporaryDirectory(), arguments: ["--metrics-port", "0"])
        defer { process.kill() }
        let metricsURL = try #require(process.ready?.metricsURL)
        let alice = try await process.endpoint.signUp()
        try await alice.createZone("Z")
        _ = try await alice.save((0..<6).map { .create("r\($0)") }, zone: "Z")

        let first = try #require(try await alice.zoneChanges("Z", limit: 2).changes)
        #expect(first.records.map(\.recordName) == ["r0", "r1"] && first.moreComing)
        // The next page (r2, r3) is read meanwhile; r2 then changes, moving behind r5.
        try await Task.sleep(for: .seconds(1))
        let updated = try await alice.save([RecordOperation(.forceUpdate, Record(recordName: "r2", fields: ["title": .string("new")]))], zone: "Z")
        let second = try #require(try await alice.zoneChanges("Z", token: first.syncToken, limit: 2).changes)
        #expect(second.records.map(\.recordName) == ["r3", "r4"], "the page read before r2 changed is not answered")
        let third = try #require(try await alice.zoneChanges("Z", token: second.syncToken, limit: 2).changes)
        #expect(third.records.map(\.recordName) == ["r5", "r2"] && !third.moreComing)
        #expect(third.records.last?.recordChangeTag == updated.first?.recordChangeTag)

        // Another user bringing Alice's token reads nothing of hers.
        let bob = try await process.endpoint.signUp()
        try await bob.createZone("Z")
        let again = try #require(try await alice.zoneChanges("Z", limit: 2).changes)
        let stolen = try await bob.post(bob.path(.private, "changes/zone"), ZoneChangesRequest(
            zones: [.init(zoneID: ZoneID(zoneName: "Z"), syncToken: again.syncToken, resultsLimit: 2)]))
        #expect(!stolen.text.contains("\"r2\""), "Bob's request takes no page read for Alice")
        #expect(stolen.text.contains("BAD_REQUEST"))

        let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: metricsURL), timeout: .seconds(10))
        let text = String(buffer: try await response.body.collect(upTo: 4 << 20))
        func value(_ series: String) -> Double? {
            text.split(separator: "\n").first { $0.hasPrefix(series + " ") }.flatMap { Double($0.split(separator: " ").last!) }
        }
        #expect(value(#"stratus_change_pages_read_ahead_total{outcome="stale"}"#) == 1, "the second page was read again")
        #expect(value(#"stratus_change_pages_read_ahead_total{outcome="used"}"#) == 1, "the third page was read ahead and used")
    }
}
