import Foundation
import StratusClient
import StratusSync
import StratusTesting
import Testing

@Suite struct PushTests {
    static let zone = ZoneID(zoneName: "note-zone")

    static func note(_ name: String, _ text: String, kind: String = "plain") -> CloudRecord {
        CloudRecord(recordType: "note", recordID: RecordID(recordName: name, zoneID: zone), fields: ["text": .string(text), "kind": .string(kind)])
    }

    /// The next notification that is not the connection's "fetch to catch up" one.
    static func nextChange(_ iterator: inout AsyncStream<PushNotification>.Iterator) async -> PushNotification? {
        while let notification = await iterator.next() {
            if !notification.isPruned { return notification }
        }
        return nil
    }

    /// The zone a zone notification names, if it is one.
    static func changedZone(_ notification: PushNotification?) -> String? {
        guard case .recordZone(let zone) = notification?.subject else { return nil }
        return zone.zoneName
    }

    @Test func aChangeArrivesWithoutAskingForIt() async throws {
        try await TestCloud.with { cloud in
            let user = try await cloud.createUser("alice")
            let phone = try await cloud.device("phone", of: user)
            let laptop = try await cloud.device("laptop", of: user)
            try await phone.sync()
            try await laptop.sync()   // creates the engine's database subscription
            let push = await laptop.connectPush()
            try await eventually("connected") { await push.isConnected }

            try await phone.save(Self.note("n1", "from the phone"))
            try await phone.engine.sendChanges()
            try await eventually("the laptop has the note") {
                await laptop.record(RecordID(recordName: "n1", zoneID: Self.zone))?.string("text") == "from the phone"
            }
            await push.stop()
        }
    }

    @Test func querySubscriptionsFireOnMatchesAndChosenChanges() async throws {
        try await TestCloud.with { cloud in
            let alice = try await cloud.signUp("alice")
            let database = alice.privateCloudDatabase
            try await database.save(zone: Self.zone)
            let urgent = CloudQuery(recordType: "note", filterBy: [QueryFilter(.equals, fieldName: "kind", .string("urgent"))])
            try await database.save(subscription: CloudSubscription(subscriptionID: "urgent-created", subscriptionType: .query, zoneID: Self.zone,
                                                               query: urgent, firesOn: [.create],
                                                               notificationInfo: NotificationInfo(alertBody: "Urgent!", desiredKeys: ["text"])))
            try await database.save(subscription: CloudSubscription(subscriptionID: "once", subscriptionType: .query, zoneID: Self.zone,
                                                               query: urgent, firesOnce: true))
            #expect(Set(try await database.allSubscriptions().map(\.subscriptionID)) == ["urgent-created", "once"])

            let push = PushConnection(container: alice)
            await push.start()
            var notifications = push.notifications.makeAsyncIterator()
            _ = await notifications.next()   // the catch-up notification of the new connection

            _ = try await database.save(Self.note("plain", "not urgent"))           // matches nothing
            var first = try await database.save(Self.note("u1", "first", kind: "urgent"))
            first["text"] = .string("edited")
            _ = try await database.save(first)                                       // an update: not a trigger of either
            _ = try await database.save(Self.note("u2", "second", kind: "urgent"))

            var received: [(String, String)] = []
            for _ in 0..<3 {
                guard let notification = await Self.nextChange(&notifications),
                      case .query(let recordName, _, let reason, let fields) = notification.subject,
                      let subscriptionID = notification.subscriptionID else { break }
                received.append((subscriptionID, recordName))
                if subscriptionID == "urgent-created" {
                    #expect(notification.alertBody == "Urgent!" && reason == .recordCreated && notification.databaseScope == .private)
                    #expect(fields["text"] != nil)
                }
            }
            #expect(received.sorted { "\($0)" < "\($1)" }.map { "\($0.0)/\($0.1)" } == ["once/u1", "urgent-created/u1", "urgent-created/u2"])
            // firesOnce: fired, then gone.
            #expect(try await database.allSubscriptions().map(\.subscriptionID) == ["urgent-created"])
            await push.stop()
        }
    }

    @Test func aDroppedConnectionReconnectsAndMissesNothing() async throws {
        try await TestCloud.with { cloud in
            let user = try await cloud.createUser("alice")
            let phone = try await cloud.device("phone", of: user)
            let laptop = try await cloud.device("laptop", of: user)
            try await laptop.sync()
            let push = await laptop.connectPush()
            try await eventually("connected") { await push.isConnected }

            await cloud.stopServer()     // every connection drops
            try await eventually("disconnected") { await !push.isConnected }
            try await cloud.startServer()
            try await phone.save(Self.note("while-away", "made while the laptop was disconnected"))
            try await phone.sync()

            try await eventually("the laptop caught up") {
                await laptop.record(RecordID(recordName: "while-away", zoneID: Self.zone)) != nil
            }
            #expect(await push.connectionCount >= 2)
            await push.stop()
        }
    }

    /// A refusal comes as CloudKit's error dictionary over the socket: the connection reads it as
    /// one (not as a notification), does not count itself connected, and keeps why and the
    /// server's `retryAfter`, which it waits before trying again.
    @Test func aRefusedConnectionSaysWhy() async throws {
        try await TestCloud.with(configure: { $0.maxPushConnectionsPerUser = 1 }) { cloud in
            let user = try await cloud.createUser("alice")
            let phone = try await cloud.device("phone", of: user)
            let laptop = try await cloud.device("laptop", of: user)
            let first = await phone.connectPush()
            try await eventually("the first connected") { await first.isConnected }
            let second = await laptop.connectPush()
            try await eventually("the second refused") { await second.lastRefusal != nil }
            let refusal = try #require(await second.lastRefusal)
            #expect(refusal.serverErrorCode == .throttled && refusal.retryAfter == 30, "\(refusal)")
            #expect(await !second.isConnected)
            #expect(await second.connectionCount == 0)
            #expect(await first.isConnected)
            #expect(await first.lastRefusal == nil)
            await second.stop()
            await first.stop()
        }
    }

    @Test func anotherUsersDevicesHearNothing() async throws {
        try await TestCloud.with { cloud in
            let alice = try await cloud.signUp("alice")
            let bob = try await cloud.signUp("bob")
            for (user, id) in [(alice, "alice-all"), (bob, "bob-all")] {
                try await user.privateCloudDatabase.save(zone: Self.zone)
                try await user.privateCloudDatabase.save(subscription: CloudSubscription(subscriptionID: id, subscriptionType: .database))
            }
            let bobPush = PushConnection(container: bob)
            await bobPush.start()
            var notifications = bobPush.notifications.makeAsyncIterator()
            _ = await notifications.next()

            _ = try await alice.privateCloudDatabase.save(Self.note("alice-secret", "for alice only"))
            _ = try await bob.privateCloudDatabase.save(Self.note("bobs", "bob's own"))
            // Bob's first notification is about his own change: Alice's never reached him.
            let first = await Self.nextChange(&notifications)
            #expect(first?.subject == .database && first?.subscriptionID == "bob-all")
            await bobPush.stop()
        }
    }

    @Test(.enabled(if: TestCloud.runsServerInProcess, "a sub-second courier wait")) func longPollingDeliversLikeCloudKitJS() async throws {
        try await TestCloud.with(configure: { $0.courierWait = .milliseconds(300) }) { cloud in
            let alice = try await cloud.signUp("alice")
            let database = alice.privateCloudDatabase
            try await database.save(zone: Self.zone)
            try await database.save(subscription: CloudSubscription(subscriptionID: "zone", subscriptionType: .zone, zoneID: Self.zone))
            let token = try await alice.createPushToken()
            #expect(token.webcourierURL.contains("/push/1/courier/"))

            let transport = HTTPTransport()
            func poll() async throws -> PushNotification? {
                let response = try await transport.send(TransportRequest(method: .get, url: token.webcourierURL))
                // Nothing within the wait is 204 (it was an empty 200 without a content type,
                // which schemathesis reported against docs/openapi.yaml).
                guard response.status == 200 else {
                    #expect(response.status == 204 && response.body.isEmpty)
                    return nil
                }
                return try JSONDecoder().decode(PushNotification.self, from: Data(response.body))
            }
            #expect(try await poll()?.isPruned == true)     // first: fetch to catch up
            #expect(try await poll() == nil)            // nothing within the wait: an empty answer
            _ = try await database.save(Self.note("n", "x"))
            let notification = try await poll()
            #expect(Self.changedZone(notification) == "note-zone" && notification?.subscriptionID == "zone")
        }
    }

    @Test(.enabled(if: TestCloud.runsServerInProcess, "a sub-second courier wait")) func aSlowDeviceGetsOneNotificationNotAPile() async throws {
        try await TestCloud.with(configure: { $0.courierWait = .milliseconds(200) }) { cloud in
            let alice = try await cloud.signUp("alice")
            let database = alice.privateCloudDatabase
            try await database.save(zone: Self.zone)
            try await database.save(subscription: CloudSubscription(subscriptionID: "zone", subscriptionType: .zone, zoneID: Self.zone))
            let token = try await alice.createPushToken()
            // The device does not poll while 30 changes happen.
            for index in 0..<30 { _ = try await database.save(Self.note("n\(index)", "\(index)")) }
            var received: [PushNotification] = []
            while let response = try? await HTTPTransport().send(TransportRequest(method: .get, url: token.webcourierURL)),
                  !response.body.isEmpty {
                received.append(try JSONDecoder().decode(PushNotification.self, from: Data(response.body)))
            }
            // The catch-up notification, then the zone's 30 changes as one.
            #expect(received.count == 2)
            #expect(Self.changedZone(received.last) == "note-zone")
        }
    }

    @Test func publicQuerySubscriptionsReachEverySubscriber() async throws {
        try await TestCloud.with { cloud in
            let alice = try await cloud.signUp("alice")
            let bob = try await cloud.signUp("bob")
            let posters = CloudQuery(recordType: "Poster")
            try await bob.publicCloudDatabase.save(subscription: CloudSubscription(subscriptionID: "posters", subscriptionType: .query, query: posters))
            // No database subscriptions there (zone subscriptions of its feed are an extension).
            let databaseSubscription = CloudSubscription(subscriptionID: "d", subscriptionType: .database)
            await #expect(throws: CloudError.self) { try await bob.publicCloudDatabase.save(subscription: databaseSubscription) }

            let push = PushConnection(container: bob)
            await push.start()
            var notifications = push.notifications.makeAsyncIterator()
            _ = await notifications.next()
            _ = try await alice.publicCloudDatabase.save(CloudRecord(recordType: "Poster", recordID: RecordID(recordName: "p1")))
            let notification = await Self.nextChange(&notifications)
            guard case .query(let recordName, _, .recordCreated, _) = notification?.subject else {
                Issue.record("expected a query notification of a created record: \(String(describing: notification))")
                return
            }
            #expect(recordName == "p1" && notification?.databaseScope == .public)
            await push.stop()
        }
    }
}
