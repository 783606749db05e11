import Foundation
import Testing
import StratusCore
import StratusTesting

@Suite struct DurabilityTests {
    @Test func restartedServerServesSameDataAndHonoursOldTokens() async throws {
        let directory = TestServer.temporaryDirectory()
        let (alice, token, databaseToken, apiToken) = try await TestServer.with(dataDirectory: directory) { server in
            let alice = try await server.signUp()
            try await alice.createZone("Notes")
            _ = try await alice.save((0..<20).map { .create("n\($0)", ["i": .int64(Int64($0))]) }, zone: "Notes")
            let token = try await alice.allZoneChanges("Notes").token
            return (alice, token, try await alice.databaseChanges().syncToken, server.apiToken)
        }
        try await TestServer.with(dataDirectory: directory) { server in
            #expect(server.apiToken == apiToken, "the container keeps its API token")
            let caller = Caller(server: server.endpoint, webAuthToken: alice.webAuthToken, userRecordName: alice.userRecordName)
            let records = try await caller.lookup((0..<20).map { "n\($0)" }, zone: "Notes")
            #expect(records.compactMap { $0.record?.fields["i"] } == (0..<20).map { .int64(Int64($0)) })
            #expect(try await caller.allZoneChanges("Notes", from: token).records.isEmpty)
            #expect(try await caller.databaseChanges(token: databaseToken).zones.isEmpty)
            _ = try await caller.save([.create("after-restart")], zone: "Notes")
            #expect(try await caller.allZoneChanges("Notes", from: token).records.compactMap(\.recordName) == ["after-restart"])
        }
    }

    /// Every write the server acknowledged is there after `kill -9` and a restart.
    @Test func acknowledgedWritesSurviveKillNine() async throws {
        let directory = TestServer.temporaryDirectory()
        let process = try await ServerProcess.started(dataDirectory: directory)
        let server = process.endpoint
        let alice = try await server.signUp()
        try await alice.createZone("Notes")
        var acknowledged: [String] = []
        for batch in 0..<10 {
            let saved = try await alice.save((0..<20).map { .create("b\(batch)-\($0)") }, zone: "Notes")
            acknowledged += saved.compactMap(\.recordName)
        }
        process.kill()

        try await process.start()
        defer { process.kill() }
        let restarted = process.endpoint
        let caller = Caller(server: restarted, webAuthToken: alice.webAuthToken, userRecordName: alice.userRecordName)
        let changes = try await caller.allZoneChanges("Notes")
        #expect(changes.records.compactMap(\.recordName).sorted() == acknowledged.sorted())
    }
}
