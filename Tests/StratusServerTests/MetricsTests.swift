import AsyncHTTPClient
import Foundation
import Testing
import StratusCore
import StratusTesting

/// `serve --metrics-port`: Prometheus metrics on a listener of their own, never on the API's.
@Suite struct MetricsTests {
    @Test(.timeLimit(.minutes(3)))
    func metricsAreServedOnTheirOwnPortAndCountWhatHappened() async throws {
        let process = try await ServerProcess.started(dataDirectory: TestServer.temporaryDirectory(), arguments: ["--metrics-port", "0"])
        defer { process.kill() }
        let server = process.endpoint
        let metricsURL = try #require(process.ready?.metricsURL)

        let alice = try await server.signUp()
        try await alice.createZone("Notes")
        _ = try await alice.save((0..<3).map { .create("n\($0)") }, zone: "Notes")
        _ = try await alice.lookup(["n0", "n1"], zone: "Notes")
        _ = try await alice.allZoneChanges("Notes", limit: 2)   // its second page read ahead
        let asset = try await alice.upload(TestFile.bytes(count: 1_000), record: "photo")
        _ = try await alice.save([.create("photo", ["file": .asset(asset)])])
        let twice = RecordsLookupRequest(records: [.init(recordName: "n0"), .init(recordName: "n0")], zoneID: ZoneID(zoneName: "Notes"))
        #expect(try await alice.post(alice.path(.private, "records/lookup"), twice).status == 400)
        // More than half of a zone of 100 records deleted at once: the loss alarm.
        try await alice.createZone("Mass")
        _ = try await alice.save((0..<100).map { .create("m\($0)") }, zone: "Mass")
        _ = try await alice.save((0..<51).map { RecordOperation(.forceDelete, Record(recordName: "m\($0)")) }, zone: "Mass")

        let onAPI = try await alice.get("/metrics")
        #expect(onAPI.status == 404, "the API listener serves no metrics")

        let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: metricsURL), timeout: .seconds(10))
        #expect(response.status == .ok)
        let text = String(buffer: try await response.body.collect(upTo: 4 << 20))
        func value(_ series: String) -> Double? {
            text.split(separator: "\n").first { $0.hasPrefix(series + " ") }.flatMap { Double($0.split(separator: " ").last!) }
        }
        #expect(value("stratus_records_written_total") == 155, "4 records, then 100 created and 51 deleted")
        #expect(value("stratus_loss_alarms_total") == 1)
        #expect(value(#"stratus_records_served_total{via="lookup"}"#) == 2)
        #expect(value(#"stratus_records_served_total{via="changes"}"#) == 3)
        #expect(value(#"stratus_change_pages_read_ahead_total{outcome="used"}"#) == 1)
        #expect(value(#"stratus_asset_bytes_total{direction="upload"}"#) == 1_000)
        #expect(value(#"stratus_errors_total{code="BAD_REQUEST"}"#) == 1)
        #expect((value("stratus_commit_duration_count") ?? 0) >= 4)
        #expect(text.contains(#"hb_requests{http_route="/database/1/{container}/{environment}/{database}/records/modify",http_request_method="POST",http_response_status_code="200"} 4"#))
        #expect(text.contains("http_server_request_duration_bucket{"))
    }
}
