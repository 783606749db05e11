import Foundation
import Testing
import StratusCore
@testable import StratusServer
import StratusTesting

/// APNs delivery through a real local HTTP/2 TLS endpoint that checks each push as Apple does.
@Suite struct APNsTests {
    static let liveToken = String(repeating: "ab", count: 32)
    static let deadToken = String(repeating: "cd", count: 32)
    static let productionToken = String(repeating: "ef", count: 32)

    /// A server whose APNs hosts are the endpoint: the sandbox as 127.0.0.1, production as localhost.
    static func withServer(configure: @escaping @Sendable (inout ServerConfiguration) -> Void = { _ in },
                           _ body: @Sendable @escaping (TestServer, APNsTestEndpoint) async throws -> Void) async throws {
        try await APNsTestEndpoint.with { endpoint, port, certificate in
            try await TestServer.with(configure: { configuration in
                configure(&configuration)
                configuration.apns.sandboxURL = "https://127.0.0.1:\(port)"
                configuration.apns.productionURL = "https://localhost:\(port)"
                configuration.apns.additionalTrustRoots = certificate
                configuration.apns.maxTokensPerUser = 3
            }) { server in
                try await server.server.setAPNsCredentials(container: TestServer.containerID, keyID: endpoint.keyID,
                                                           teamID: endpoint.teamID, topic: endpoint.topic, privateKeyPEM: endpoint.p8)
                try await body(server, endpoint)
            }
        }
    }

    static func register(_ caller: Caller, _ token: String, apnsEnvironment: String = "development",
                         service: String = "database") async throws -> HTTPResult {
        try await caller.post("/\(service)/1/\(TestServer.containerID)/\(caller.environment)/tokens/register",
                              TokenRegisterRequest(apnsEnvironment: apnsEnvironment, apnsToken: token))
    }

    static func subscribe(_ caller: Caller, _ subscription: CloudSubscription) async throws {
        let response = try await caller.post(caller.path(.private, "subscriptions/modify"),
                                             SubscriptionsModifyRequest(operations: [.init(.create, subscription)]))
            .decode(SubscriptionsResponse.self)
        #expect(response.subscriptions.first?.value != nil, "\(String(describing: response.subscriptions.first?.error))")
    }

    /// Waits (at most 10 s) until the endpoint has received `count` pushes.
    static func pushes(_ endpoint: APNsTestEndpoint, count: Int) async throws -> [APNsTestEndpoint.Received] {
        for _ in 0..<1000 {
            let received = await endpoint.received
            if received.count >= count { return received }
            try await Task.sleep(for: .milliseconds(10))
        }
        throw TestFailure("only \(await endpoint.received.count) of \(count) pushes arrived; refused: \(await endpoint.refusals)")
    }

    @Test func aSubscriptionWakesTheAppThroughAPNs() async throws {
        try await Self.withServer { server, endpoint in
            let alice = try await server.signUp("alice")
            try await alice.createZone("Notes")
            #expect(try await Self.register(alice, Self.liveToken).status == 200)
            try await Self.subscribe(alice, CloudSubscription(subscriptionID: "notes", subscriptionType: .zone, zoneID: ZoneID(zoneName: "Notes"),
                                                         notificationInfo: NotificationInfo(shouldSendContentAvailable: true)))
            _ = try await alice.save([.create("n1")], zone: "Notes")

            // A background push: content-available, priority 5, the zone in ck.fet.
            let push = try #require(try await Self.pushes(endpoint, count: 1).first)
            #expect(push.deviceToken == Self.liveToken && push.authority.hasPrefix("127.0.0.1"), "a development token goes to the sandbox")
            #expect(push.headers["apns-push-type"] == "background" && push.headers["apns-priority"] == "5")
            #expect(push.headers["apns-topic"] == endpoint.topic && push.headers["apns-id"] != nil)
            let expiration = try #require(push.headers["apns-expiration"].flatMap(Int64.init))
            #expect(abs(expiration - Int64(Date().timeIntervalSince1970) - 24 * 3600) < 60)
            #expect((push.payload["aps"] as? [String: Any])?["content-available"] as? Int == 1)
            let ck = try #require(push.payload["ck"] as? [String: Any])
            #expect((ck["fet"] as? [String: Any])?["zid"] as? String == "Notes" && ck["cid"] as? String == TestServer.containerID)
            // The provider counts a push delivered only when APNs answered it over HTTP/2.
            var statistics = await server.server.services.apns.statistics
            for _ in 0..<500 where statistics.delivered + statistics.failed == 0 {
                try await Task.sleep(for: .milliseconds(10))
                statistics = await server.server.services.apns.statistics
            }
            #expect(statistics == APNsProvider.Statistics(delivered: 1))
            #expect(await endpoint.refusals.isEmpty)
        }
    }

    @Test func alertsCollapseIDsProductionTokensAndUnregisteredTokens() async throws {
        try await Self.withServer { server, endpoint in
            let alice = try await server.signUp("alice")
            try await alice.createZone("Notes")
            #expect(try await Self.register(alice, Self.liveToken, service: "device").status == 200, "the /device/1 path registers too")
            // base64 of the token's bytes is read as the same token
            let productionBytes = Data(repeating: 0xef, count: 32).base64EncodedString()
            #expect(try await Self.register(alice, productionBytes, apnsEnvironment: "production").status == 200)
            #expect(try await Self.register(alice, Self.deadToken).status == 200)
            await endpoint.unregister(Self.deadToken)
            try await Self.subscribe(alice, CloudSubscription(
                subscriptionID: "titled", subscriptionType: .query, zoneID: ZoneID(zoneName: "Notes"), query: CloudQuery(recordType: "Note"),
                firesOn: [.create], notificationInfo: NotificationInfo(alertBody: "A new note", collapseIDKey: "title")))
            _ = try await alice.save([.create("n1", ["title": .string("groceries")])], zone: "Notes")

            let pushes = try await Self.pushes(endpoint, count: 2)
            #expect(Set(pushes.map(\.deviceToken)) == [Self.liveToken, Self.productionToken])
            for push in pushes {
                #expect(push.headers["apns-push-type"] == "alert" && push.headers["apns-priority"] == "10")
                #expect(push.headers["apns-collapse-id"] == "groceries")
                #expect(((push.payload["aps"] as? [String: Any])?["alert"] as? [String: Any])?["body"] as? String == "A new note")
                #expect(((push.payload["ck"] as? [String: Any])?["qry"] as? [String: Any])?["rid"] as? String == "n1")
            }
            #expect(pushes.first { $0.deviceToken == Self.productionToken }?.authority.hasPrefix("localhost") == true,
                    "a production token goes to the production host")

            // The token APNs called unregistered is forgotten.
            for _ in 0..<500 where await server.server.services.apns.statistics.unregistered == 0 {
                try await Task.sleep(for: .milliseconds(10))
            }
            let tokens = try await server.server.services.storage.read {
                try await $0.apnsTokens(containerID: TestServer.containerID, environment: .development, user: alice.userRecordName!, liveAt: nil)
            }
            #expect(Set(tokens.map(\.token)) == [Self.liveToken, Self.productionToken])
        }
    }

    @Test func registrationIsCheckedAndBounded() async throws {
        try await Self.withServer { server, _ in
            let alice = try await server.signUp("alice")
            #expect(try await Self.register(server.anonymous, Self.liveToken).errorCode == .authenticationRequired)
            #expect(try await Self.register(alice, Self.liveToken, apnsEnvironment: "staging").errorCode == .badRequest)
            for bad in ["", "xyz", "abc", String(repeating: "a", count: 202)] {
                #expect(try await Self.register(alice, bad).errorCode == .badRequest, "\(bad)")
            }
            // At most maxTokensPerUser (3 here): a newer registration displaces the oldest.
            for index in 0..<5 {
                #expect(try await Self.register(alice, String(repeating: "0\(index)", count: 16)).status == 200)
                try await Task.sleep(for: .milliseconds(2))
            }
            let tokens = try await server.server.services.storage.read {
                try await $0.apnsTokens(containerID: TestServer.containerID, environment: .development, user: alice.userRecordName!, liveAt: nil)
            }
            #expect(tokens.map(\.token) == (2..<5).map { String(repeating: "0\($0)", count: 16) })
            // tokens/create is served at Apple's documented path as well.
            let created = try await alice.post("/database/1/\(TestServer.containerID)/development/tokens/create", TokenCreateRequest())
            #expect(try created.decode(TokenCreateResponse.self).webcourierURL.contains("/push/1/courier/"))
        }
    }

    @Test func aProviderTokenIsSignedAndServesFiftyMinutes() throws {
        let endpoint = APNsTestEndpoint()
        let credentials = APNsCredentials(keyID: endpoint.keyID, teamID: endpoint.teamID, topic: endpoint.topic, privateKeyPEM: endpoint.p8)
        let token = try APNsProviderToken(credentials: credentials, issuedAt: 1_000_000)
        #expect(token.authorization.hasPrefix("bearer ") && token.authorization.split(separator: ".").count == 3)
        #expect(token.isFresh(at: 1_000_000 + 49 * 60) && !token.isFresh(at: 1_000_000 + 50 * 60))
        var wrong = credentials
        wrong.keyID = "short"
        #expect(throws: CloudKitError.self) { try APNsProviderToken.validate(wrong) }
    }

    @Test func anOversizedPayloadIsPrunedToFit() throws {
        var notification = NotificationHub.catchUp(containerID: "c")
        notification.ck.p = nil
        notification.ck.qry = .init(rid: "r", zid: "z", zoid: nil, dbs: 2, fo: 1, sid: "s",
                                    af: ["big": RecordField(.string(String(repeating: "x", count: 5000)))])
        let payload = APNsProvider.payload(notification)
        #expect(payload.count <= APNsProvider.maxPayloadBytes)
        let decoded = try JSONDecoder().decode(PushNotification.self, from: payload)
        #expect(decoded.ck.qry?.af == nil && decoded.ck.p == true && decoded.ck.qry?.rid == "r")
    }

    /// `stratus apns set|show|remove`.
    @Test func apnsCommands() async throws {
        let directory = TestServer.temporaryDirectory()
        try await TestServer.with(dataDirectory: directory) { _ in }
        let keyFile = directory.appendingPathComponent("AuthKey.p8")
        try APNsTestEndpoint().p8.write(to: keyFile, atomically: true, encoding: .utf8)
        let location = ["--data", directory.path, "--container", TestServer.containerID]
        let set = try await ServerProcess.run(["apns", "set", "--key-file", keyFile.path, "--key-id", "ABC123DEFG", "--team-id", "TEAM123456",
                                         "--topic", "dev.stratus.notes"] + location)
        #expect(set.status == 0, "\(set.output)")
        await #expect(try ServerProcess.run(["apns", "show"] + location).output.contains("key ABC123DEFG, team TEAM123456, topic dev.stratus.notes"))
        let badKey = try await ServerProcess.run(["apns", "set", "--key-file", keyFile.path, "--key-id", "short", "--team-id", "TEAM123456",
                                            "--topic", "dev.stratus.notes"] + location)
        #expect(badKey.status != 0 && badKey.output.contains("10 letters or digits"))
        await #expect(try ServerProcess.run(["apns", "remove"] + location).status == 0)
        await #expect(try ServerProcess.run(["apns", "show"] + location).output.contains("no APNs credentials"))
    }
}
