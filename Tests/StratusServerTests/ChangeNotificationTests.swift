import Foundation
import Testing
import StratusCore

/// Who hears of each kind of write: every writer reports its changes to the transaction's change
/// set, which is published once after the commit. Alice owns a zone "Lists" shared with Bob and a
/// zone "Other" she shares with no one; Carol is a stranger. Each listens on a courier: Alice
/// with a zone subscription on "Lists" and a private database subscription, Bob and Carol with a
/// database subscription each (Bob's on his shared database, Carol's on her private one).
@Suite struct ChangeNotificationTests {
    /// A subscription and a courier of `caller`'s, drained of the catch-up notification a new
    /// connection starts with.
    static func listen(_ caller: Caller, _ scope: DatabaseScope, _ subscription: CloudSubscription) async throws -> String {
        _ = try await caller.post(caller.path(scope, "subscriptions/modify"), SubscriptionsModifyRequest(operations: [.init(.create, subscription)]))
        let courier = try await caller.post("/database/1/\(TestServer.containerID)/development/tokens/create", TokenCreateRequest())
            .decode(TokenCreateResponse.self).webcourierURL
        _ = try await AuthorizationMatrixTests.drain(courier, until: "\"met\"")
        return courier
    }

    /// The notifications a courier holds, as `kind:subscription` (`met:all`, `fet:lists`, …).
    static func heard(_ courier: String) async throws -> Set<String> {
        var heard = Set<String>()
        for message in try await AuthorizationMatrixTests.pending(courier) {
            let notification = try JSONSerialization.jsonObject(with: Data(message.utf8)) as? [String: Any]
            let ck = notification?["ck"] as? [String: Any] ?? [:]
            for kind in ["met", "fet", "qry"] {
                if let body = ck[kind] as? [String: Any], let sid = body["sid"] as? String { heard.insert("\(kind):\(sid)") }
            }
        }
        return heard
    }

    /// Checks that each courier holds exactly the notifications `expected` names for it (none if
    /// it names none), after `write`.
    static func expect(_ couriers: [String: String], heard expected: [String: Set<String>], after write: String) async throws {
        for (name, courier) in couriers.sorted(by: { $0.key < $1.key }) {
            let heard = try await Self.heard(courier)
            #expect(heard == expected[name] ?? [], "\(write): \(name) heard \(heard.sorted())")
        }
    }

    @Test(.timeLimit(.minutes(3)))
    func eachWriteIsHeardByExactlyTheSubscribersItConcerns() async throws {
        try await TestServer.with(configure: { $0.courierWait = .milliseconds(300) }) { server in
            let alice = try await server.signUp("alice")
            let bob = try await server.signUp("bob")
            let carol = try await server.signUp("carol")
            let owner = try #require(alice.userRecordName)
            try await alice.createZone("Lists")
            try await alice.createZone("Other")
            _ = try await alice.save([.create("list", type: "List", ["title": .string("Groceries")])], zone: "Lists")
            let share = try await alice.share(nil, zone: "Lists", participants: [(bob.username!, .readWrite)])
            let couriers = [
                "alice": try await Self.listen(alice, .private, CloudSubscription(subscriptionID: "lists", subscriptionType: .zone,
                                                                             zoneID: ZoneID(zoneName: "Lists"))),
                "bob": try await Self.listen(bob, .shared, CloudSubscription(subscriptionID: "shared", subscriptionType: .database)),
                "carol": try await Self.listen(carol, .private, CloudSubscription(subscriptionID: "mine", subscriptionType: .database)),
            ]
            _ = try await alice.post(alice.path(.private, "subscriptions/modify"),
                                     SubscriptionsModifyRequest(operations: [.init(.create, CloudSubscription(subscriptionID: "all", subscriptionType: .database))]))
            func expect(_ write: String, _ expected: [String: Set<String>]) async throws {
                try await Self.expect(couriers, heard: expected, after: write)
            }

            // Accepting the share changes the share record in Alice's zone and puts the zone in
            // Bob's shared database. (Before the change set, acceptance notified no one.)
            _ = try await bob.shareMetadata(try #require(share.shareKeys?.shortGUID), accept: true)
            try await expect("records/accept", ["alice": ["fet:lists", "met:all"], "bob": ["met:shared"]])

            _ = try await alice.save([.create("milk", type: "Item", ["title": .string("Milk")])], zone: "Lists")
            try await expect("alice saves in the shared zone", ["alice": ["fet:lists", "met:all"], "bob": ["met:shared"]])

            _ = try await bob.modify([.create("eggs", type: "Item", ["title": .string("Eggs")])], zone: "Lists", owner: owner)
            try await expect("bob saves in the shared zone", ["alice": ["fet:lists", "met:all"], "bob": ["met:shared"]])

            _ = try await alice.save([.create("note", type: "Note", ["title": .string("Private")])], zone: "Other")
            try await expect("alice saves in her unshared zone", ["alice": ["met:all"]])

            _ = try await alice.post(alice.path(.private, "zones/modify"),
                                     ZonesModifyRequest(operations: [.init(.delete, ZoneID(zoneName: "Other"))]))
            try await expect("zones/modify deletes her unshared zone", ["alice": ["met:all"]])

            _ = try await carol.save([.create("carol", type: "Note", ["title": .string("Mine")])])
            try await expect("carol saves in her default zone", ["carol": ["met:mine"]])

            // The shared zone leaves Bob's shared database with it. (Before, the participants'
            // shares were gone by the time the change was published, and Bob heard nothing.)
            _ = try await alice.post(alice.path(.private, "zones/modify"),
                                     ZonesModifyRequest(operations: [.init(.delete, ZoneID(zoneName: "Lists"))]))
            try await expect("zones/modify deletes her shared zone", ["alice": ["fet:lists", "met:all"], "bob": ["met:shared"]])
        }
    }

    /// The public database and account deletion: a public query subscription hears of the matching
    /// records anyone saves, and of nothing else; deleting an account takes its shared zone out of
    /// the participant's shared database, which the participant hears of.
    @Test(.timeLimit(.minutes(3)))
    func publicWritesAndAccountDeletionAreHeardByWhomTheyConcern() async throws {
        try await TestServer.with(configure: { $0.courierWait = .milliseconds(300) }) { server in
            let alice = try await server.signUp("alice")
            let bob = try await server.signUp("bob")
            let carol = try await server.signUp("carol")
            try await alice.createZone("Lists")
            let share = try await alice.share(nil, zone: "Lists", participants: [(bob.username!, .readWrite)])
            _ = try await bob.shareMetadata(try #require(share.shareKeys?.shortGUID), accept: true)
            let couriers = [
                "bob": try await Self.listen(bob, .shared, CloudSubscription(subscriptionID: "shared", subscriptionType: .database)),
                "carol": try await Self.listen(carol, .public, CloudSubscription(subscriptionID: "posters", subscriptionType: .query,
                                                                                  query: CloudQuery(recordType: "Poster"))),
            ]

            _ = try await alice.save([.create("p1", type: "Poster", ["title": .string("Fair")])], database: .public)
            try await Self.expect(couriers, heard: ["carol": ["qry:posters"]], after: "alice saves a Poster in the public database")

            _ = try await alice.save([.create("n1", type: "Note", ["title": .string("Aside")])], database: .public)
            try await Self.expect(couriers, heard: [:], after: "alice saves a Note in the public database")

            let deleted = try await alice.post("/auth/1/\(TestServer.containerID)/development/account/delete", ["password": "password-alice"])
            #expect(deleted.status == 200, "\(deleted.text)")
            try await Self.expect(couriers, heard: ["bob": ["met:shared"]], after: "alice deletes her account")
        }
    }

    /// The console writes records through the API's service, so its writes are heard as the
    /// API's are; resetting the development schema deletes every subscription there, and the
    /// hub forgets them before it publishes (before, its cache kept notifying deleted ones).
    @Test(.timeLimit(.minutes(3)))
    func consoleWritesAndSchemaResetsAreHeardByWhomTheyConcern() async throws {
        let directory = TestServer.temporaryDirectory()
        try await TestServer.with(dataDirectory: directory, configure: { $0.courierWait = .milliseconds(300) }) { server in
            let (token, csrf) = try await ConsoleTests.administrator(server, directory: directory)
            let alice = try await server.signUp("alice")
            let carol = try await server.signUp("carol")
            let name = try #require(alice.username)
            let couriers = [
                "alice": try await Self.listen(alice, .private, CloudSubscription(subscriptionID: "all", subscriptionType: .database)),
                "carol": try await Self.listen(carol, .private, CloudSubscription(subscriptionID: "mine", subscriptionType: .database)),
            ]
            _ = try await alice.save([.create("warm", type: "Note", ["title": .string("The hub reads her subscriptions")])])
            try await Self.expect(couriers, heard: ["alice": ["met:all"]], after: "alice saves")

            let place = "environment=development&database=private&user=\(name)&zone=_defaultZone&csrf=\(csrf)"
            let made = try await ConsoleTests.request(server, .POST, "/console/containers/\(TestServer.containerID)/record",
                                                      form: "\(place)&op=create&recordType=Note&name=console&newField=title&newType=STRING&newValue=Hi",
                                                      cookie: token)
            #expect(made.status == 303)
            try await Self.expect(couriers, heard: ["alice": ["met:all"]], after: "the console creates a record of alice's")
            let tag = try #require(try await alice.lookup(["console"]).first?.record?.recordChangeTag)
            let deleted = try await ConsoleTests.request(server, .POST, "/console/containers/\(TestServer.containerID)/record",
                                                         form: "\(place)&op=delete&name=console&changeTag=\(tag)", cookie: token)
            #expect(deleted.status == 303)
            try await Self.expect(couriers, heard: ["alice": ["met:all"]], after: "the console deletes it")

            let zones = try await server.server.services.schema.resetDevelopment(containerID: TestServer.containerID)
            #expect(zones >= 2)
            try await Self.expect(couriers, heard: [:], after: "the development schema is reset (every subscription with it)")
            _ = try await alice.save([.create("after", type: "Note", ["title": .string("No one subscribes")])])
            try await Self.expect(couriers, heard: [:], after: "alice saves after the reset")
        }
    }
}
