import Foundation
import StratusCore
import StratusTesting
import Testing

/// Two real `stratus` processes on one PostgreSQL database: what is written through one is
/// pushed and fed through the other.
@Suite(.enabled(if: TestServer.runsOnPostgres, "needs PostgreSQL"))
struct InstancesTests {
    /// Two instances of one store: their own data directories, the suite's database for the first.
    static func instances() async throws -> (ServerProcess, ServerProcess, ServerEndpoint, ServerEndpoint) {
        let first = TestServer.temporaryDirectory()
        let environment = try await ServerProcess.environment(for: ["--data", first.path])
        let database = try #require(environment["STRATUS_DATABASE_URL"])
        let a = try await ServerProcess(dataDirectory: first, arguments: ["--database", database])
        let b = try await ServerProcess(dataDirectory: TestServer.temporaryDirectory(), arguments: ["--database", database])
        return (a, b, try await a.endpoint(), try await b.endpoint())
    }

    @Test(.timeLimit(.minutes(1)))
    func aSaveThroughOneInstanceIsPushedAndFedThroughTheOther() async throws {
        let (a, b, endpointA, endpointB) = try await Self.instances()
        defer { a.kill9(); b.kill9() }
        #expect(endpointA.apiToken == endpointB.apiToken, "one container, one token")

        let alice = try await endpointA.signUp("alice")
        let aliceOnB = Caller(server: endpointB, webAuthToken: alice.webAuthToken, userRecordName: alice.userRecordName)
        try await alice.createZone("Notes")
        let subscription = Subscription(subscriptionID: "notes", subscriptionType: .zone, zoneID: ZoneID(zoneName: "Notes"))
        // Subscribed through B after B cached the database's (empty) subscriptions: A's save
        // must find the new one, and B's connection must hear of it.
        _ = try await aliceOnB.post(aliceOnB.path(.private, "subscriptions/modify"),
                                    SubscriptionsModifyRequest(operations: [.init(.create, subscription)]))

        let outcome = try await PushBoundsTests.connect(PushBoundsTests.webSocketURL(aliceOnB), messages: 2) {
            _ = try await alice.save([.create("n1", ["title": .string("from A")])], zone: "Notes")
        }
        #expect(outcome.messages.count == 2, "the catch-up notification, then the save's")
        let notification = try JSONDecoder().decode(PushNotification.self, from: Data(try #require(outcome.messages.last).utf8))
        #expect(notification.ck.fet?.zid == "Notes" && notification.ck.fet?.sid == "notes")

        let fed = try await aliceOnB.allZoneChanges("Notes")
        #expect(fed.records.map(\.recordName) == ["n1"])

        // A commit too large for a notification's payload travels through the bus's table.
        let text = String(repeating: "x", count: 500)
        let many = (0..<40).map { RecordOperation.create("big\($0)", ["body": .string(text)]) }
        let large = try await PushBoundsTests.connect(PushBoundsTests.webSocketURL(aliceOnB), messages: 2) {
            _ = try await alice.save(many, zone: "Notes")
        }
        #expect(large.messages.count == 2 && large.messages.last?.contains("\"fet\"") == true)
    }
}
