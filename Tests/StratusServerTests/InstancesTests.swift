import AsyncHTTPClient
import Crypto
import Foundation
import NIOCore
import StratusCore
import StratusPostgreSQL
import StratusServer
import StratusTesting
import Synchronization
import Testing

/// Two real `stratus` processes on one PostgreSQL database: what is written through one is
/// pushed and fed through the other. One test at a time (each starts two servers, which the rest
/// of the suite's load would otherwise slow many-fold); the time limits only stop a hang.
@Suite(.serialized, .enabled(if: TestServer.runsOnPostgres, "needs PostgreSQL"))
struct InstancesTests {
    /// Two instances of one store: their own data directories, the suite's database for the first.
    static func instances() async throws -> (ServerProcess, ServerProcess, ServerEndpoint, ServerEndpoint) {
        let (a, b, endpointA, endpointB, _) = try await instancesSharingADatabase()
        return (a, b, endpointA, endpointB)
    }

    /// ``instances()``, and the address of the database they share.
    static func instancesSharingADatabase() async throws -> (ServerProcess, ServerProcess, ServerEndpoint, ServerEndpoint, String) {
        let first = TestServer.temporaryDirectory()
        let environment = try await ServerProcess.environment(for: ["--data", first.path])
        let database = try #require(environment["STRATUS_DATABASE_URL"])
        let a = try await ServerProcess.started(dataDirectory: first, arguments: ["--database", database])
        let b = try await ServerProcess.started(dataDirectory: TestServer.temporaryDirectory(), arguments: ["--database", database])
        return (a, b, a.endpoint, b.endpoint, database)
    }

    /// The bounds that guard accounts hold across the fleet: wrong passwords tried on both
    /// instances in turn are throttled after the account's ten (not ten per instance), and a
    /// signed server-to-server request accepted by one instance is a replay on the other.
    @Test(.timeLimit(.minutes(3)))
    func accountBoundsAndReplayProtectionHoldAcrossInstances() async throws {
        let (a, b, endpointA, endpointB, database) = try await Self.instancesSharingADatabase()
        defer { a.kill(); b.kill() }
        let alice = try await endpointA.signUp("alice")
        let username = try #require(alice.username)
        var outcomes: [ServerErrorCode?] = []
        let start = ContinuousClock.now
        for attempt in 0..<14 {
            let endpoint = attempt % 2 == 0 ? endpointA : endpointB
            let result = try await endpoint.anonymous.post("/auth/1/\(TestServer.containerID)/development/signin",
                                                           Credentials(username: username, password: "wrong password \(attempt)"))
            outcomes.append(result.errorCode)
        }
        // The account earns one more attempt a minute (a loaded run took over a minute for these):
        // counted per instance, all fourteen would have been let through.
        let refills = Int((ContinuousClock.now - start) / .seconds(60))
        #expect(outcomes.prefix(10).allSatisfy { $0 == .authenticationFailed }, "\(outcomes)")
        #expect(outcomes.allSatisfy { $0 == .authenticationFailed || $0 == .throttled }, "\(outcomes)")
        #expect(outcomes.filter { $0 == .authenticationFailed }.count <= 10 + refills, "\(refills) refills: \(outcomes)")

        var backend = ServerKeyTests.Backend()
        let pem = FileManager.default.temporaryDirectory.appendingPathComponent("key-\(UUID().uuidString).pem")
        try backend.key.publicKey.pemRepresentation.write(to: pem, atomically: true, encoding: .utf8)
        let added = try await ChildProcess.run(ServerProcess.executable.path, ["key", "add", "--data", TestServer.temporaryDirectory().path,
                                                                               "--database", database, "--container", TestServer.containerID,
                                                                               "--public-key", pem.path])
        #expect(added.status == 0, "\(added.output)")
        backend.keyID = String(try #require(added.output.split(separator: "\n").last))
        let path = endpointA.anonymous.path(.public, "records/modify")
        let body = try ServerKeyTests.create("job")
        let headers = try backend.headers(path, body: body)
        let accepted = try await endpointA.anonymous.send(.POST, path, body: body, apiToken: .some(nil), headers: headers)
        #expect(accepted.status == 200, "\(accepted.text)")
        let replayed = try await endpointB.anonymous.send(.POST, path, body: body, apiToken: .some(nil), headers: headers)
        #expect(replayed.status == 401 && replayed.text.contains("replay"), "\(replayed.text)")
    }

    @Test(.timeLimit(.minutes(3)))
    func aSaveThroughOneInstanceIsPushedAndFedThroughTheOther() async throws {
        let (a, b, endpointA, endpointB) = try await Self.instances()
        defer { a.kill(); b.kill() }
        #expect(endpointA.apiToken == endpointB.apiToken, "one container, one token")

        let alice = try await endpointA.signUp("alice")
        let aliceOnB = Caller(server: endpointB, webAuthToken: alice.webAuthToken, userRecordName: alice.userRecordName)
        try await alice.createZone("Notes")
        let subscription = CloudSubscription(subscriptionID: "notes", subscriptionType: .zone, zoneID: ZoneID(zoneName: "Notes"))
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

    /// Signing out through A closes the push connection the session holds on B.
    @Test(.timeLimit(.minutes(3)))
    func signingOutThroughOneInstanceClosesTheSocketsOnTheOther() async throws {
        let (a, b, endpointA, endpointB) = try await Self.instances()
        defer { a.kill(); b.kill() }
        let alice = try await endpointA.signUp("alice")
        let aliceOnB = Caller(server: endpointB, webAuthToken: alice.webAuthToken, userRecordName: alice.userRecordName)
        let outcome = try await PushBoundsTests.connect(PushBoundsTests.webSocketURL(aliceOnB)) {
            let response = try await alice.post("/auth/1/\(TestServer.containerID)/development/signout", [String: String]())
            #expect(response.status == 200)
        }
        #expect(outcome.messages.count == 1, "B closed the socket after the catch-up notification")
    }

    /// Maintenance runs on one instance at a time: a job's lease keeps the others out while its
    /// holder runs it, and an instance takes over a lease whose holder died (left to expire).
    @Test func aJobRunsOnOneInstanceAtATimeAndOutlivesADeadHolder() async throws {
        try await TestServer.with { server in
            let first = server.server.services.storage
            let url = try #require(server.server.configuration.databaseURL)
            let second = try await PostgresStorage(url: url, maxConnections: 2)
            let ranInside = try await first.exclusively("job") {
                let alsoRan = try await second.exclusively("job") {}
                #expect(!alsoRan, "held by the first instance")
            }
            #expect(ranInside)
            #expect(try await second.exclusively("job") {}, "given back")
            let expired = Int64(Date().timeIntervalSince1970 * 1000) - 1
            try await TestDatabase.execute("INSERT INTO job_leases (name, holder, expires_at) VALUES ('job', 'a dead instance', \(expired))",
                                           for: server.server.configuration.dataDirectory, base: try #require(TestServer.postgresURL))
            #expect(try await second.exclusively("job") {}, "a lease left to expire is taken over")
        }
    }

    /// A file uploaded through A is downloaded through B: the bytes are in the database, not on
    /// A's disk.
    @Test(.timeLimit(.minutes(3)))
    func anAssetUploadedThroughOneInstanceIsDownloadedThroughTheOther() async throws {
        let (a, b, endpointA, endpointB) = try await Self.instances()
        defer { a.kill(); b.kill() }
        let alice = try await endpointA.signUp("alice")
        let aliceOnB = Caller(server: endpointB, webAuthToken: alice.webAuthToken, userRecordName: alice.userRecordName)
        let bytes = TestFile.bytes(count: 2_500_000, seed: 7)
        let asset = try await alice.upload(bytes, record: "photo")
        _ = try await alice.save([.create("photo", ["file": .asset(asset)])])
        let fetched = try #require(try await aliceOnB.lookup(["photo"]).first?.record)
        guard case .asset(let onB) = fetched.fields["file"], let url = onB.downloadURL else { throw TestFailure("no asset") }
        #expect(url.hasPrefix(endpointB.baseURL))
        let download = try await aliceOnB.download(url)
        #expect(download.status == 200 && download.body == Data(bytes), "the same bytes, in three pieces of the database")
    }

    /// A long-poll courier made through A answers on B (a load balancer may send each poll
    /// anywhere): its first answer there is the catch-up notification, then it hears A's save.
    @Test(.timeLimit(.minutes(3)))
    func aCourierMadeThroughOneInstanceIsPolledThroughTheOther() async throws {
        let (a, b, endpointA, endpointB) = try await Self.instances()
        defer { a.kill(); b.kill() }
        let alice = try await endpointA.signUp("alice")
        try await alice.createZone("Notes")
        let subscription = CloudSubscription(subscriptionID: "notes", subscriptionType: .zone, zoneID: ZoneID(zoneName: "Notes"))
        _ = try await alice.post(alice.path(.private, "subscriptions/modify"), SubscriptionsModifyRequest(operations: [.init(.create, subscription)]))
        let created = try await alice.post("/device/1/\(TestServer.containerID)/development/tokens/create", TokenCreateRequest())
        let url = try created.decode(TokenCreateResponse.self).webcourierURL
        let path = try #require(url.range(of: "/push/1/courier/"))
        let onB = endpointB.baseURL + url[path.lowerBound...]
        #expect(try await Self.poll(onB).contains("\"met\""), "the catch-up notification (a database notification)")

        async let heard = Self.poll(onB)
        try await Task.sleep(for: .milliseconds(300))
        _ = try await alice.save([.create("n1")], zone: "Notes")
        let notification = try JSONDecoder().decode(PushNotification.self, from: Data(try await heard.utf8))
        #expect(notification.ck.fet?.zid == "Notes" && notification.ck.fet?.sid == "notes")
    }

    /// Polls a courier until it answers with a notification.
    static func poll(_ url: String) async throws -> String {
        while true {
            let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: url), timeout: .seconds(40))
            let body = try await response.body.collect(upTo: 1 << 20)
            #expect(response.status.code == 200 || response.status.code == 204, "\(response.status)")
            if response.status.code == 200 { return String(buffer: body) }
            guard response.status.code == 204 else { throw TestFailure("the courier answered \(response.status)") }
        }
    }

    /// Writers on both instances save into one zone while a follower on each reads the zone's
    /// feed: every acknowledged record reaches each follower exactly once, and each writer's
    /// batches arrive in the order they committed (a sequence handed out by a transaction that
    /// committed later never hides behind a token that passed it).
    @Test(.timeLimit(.minutes(3)))
    func concurrentWritersOnBothInstancesAreFedExactlyOnceInCommitOrder() async throws {
        let (a, b, endpointA, endpointB) = try await Self.instances()
        defer { a.kill(); b.kill() }
        let alice = try await endpointA.signUp("alice")
        let callers = [alice, Caller(server: endpointB, webAuthToken: alice.webAuthToken, userRecordName: alice.userRecordName)]
        try await alice.createZone("Z")
        let (writers, batches, perBatch) = (6, 12, 5)
        let done = Flag()

        async let feeds = withThrowingTaskGroup(of: [String].self) { group in
            for caller in callers {
                group.addTask {
                    var seen: [String] = []
                    var token: String?
                    while true {
                        let finished = await done.isSet
                        let page = try await caller.allZoneChanges("Z", from: token, limit: 7)
                        seen += page.records.compactMap(\.recordName)
                        token = page.token
                        if finished { return seen }
                    }
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for writer in 0..<writers {
                group.addTask {
                    let caller = callers[writer % 2]
                    for batch in 0..<batches {
                        let names = (0..<perBatch).map { "w\(writer)-b\(String(format: "%02d", batch))-r\($0)" }
                        _ = try await caller.save(names.map { RecordOperation.create($0) }, zone: "Z")
                    }
                }
            }
            try await group.waitForAll()
        }
        await done.set()
        let expected = Set((0..<writers).flatMap { writer in (0..<batches).flatMap { batch in
            (0..<perBatch).map { "w\(writer)-b\(String(format: "%02d", batch))-r\($0)" } } })
        for seen in try await feeds {
            #expect(seen.count == expected.count && Set(seen) == expected, "each record exactly once")
            for writer in 0..<writers {
                let batchesSeen = seen.filter { $0.hasPrefix("w\(writer)-") }.map { $0.split(separator: "-")[1] }
                #expect(batchesSeen == batchesSeen.sorted(), "writer \(writer)'s batches in commit order")
            }
        }
    }

    /// One instance killed with SIGKILL in the middle of writes: the other goes on serving (the
    /// dead one's transaction and its writer lock end with its connections), every batch is
    /// there whole or not at all, and every acknowledged one is there.
    @Test(.timeLimit(.minutes(3)))
    func killingOneInstanceMidBatchLeavesTheOtherServing() async throws {
        let (a, b, endpointA, endpointB) = try await Self.instances()
        defer { b.kill() }
        let alice = try await endpointA.signUp("alice")
        let aliceOnB = Caller(server: endpointB, webAuthToken: alice.webAuthToken, userRecordName: alice.userRecordName)
        try await alice.createZone("Z")
        let batch = (0..<200).map { "r\(String(format: "%03d", $0))" }
        let acknowledged = Acknowledged()
        let writer = Task {
            for round in 0..<1_000 {
                _ = try await alice.save(batch.map { RecordOperation.create("w\(round)-\($0)") }, zone: "Z")
                await acknowledged.add(round)
            }
        }
        while await acknowledged.rounds.count < 3 { try await Task.sleep(for: .milliseconds(20)) }
        a.kill()
        _ = await writer.result

        _ = try await aliceOnB.save([.create("after")], zone: "Z")
        let names = Set(try await aliceOnB.allZoneChanges("Z").records.compactMap(\.recordName))
        #expect(names.contains("after"))
        var rounds: [Int: Int] = [:]
        for name in names where name.hasPrefix("w") { rounds[Int(name.dropFirst().split(separator: "-")[0])!, default: 0] += 1 }
        #expect(rounds.values.allSatisfy { $0 == batch.count }, "no batch in part")
        for round in await acknowledged.rounds { #expect(rounds[round] == batch.count, "acknowledged round \(round) is there") }
    }
}

/// The rounds a writer saw acknowledged.
private actor Acknowledged {
    private(set) var rounds: [Int] = []
    func add(_ round: Int) { rounds.append(round) }
}

/// Set once, read by other tasks.
private actor Flag {
    private(set) var isSet = false
    func set() { isSet = true }
}

/// Webhooks on two instances (issue 67): one instance delivers an endpoint's events at a time,
/// and when it is killed mid-delivery another takes the endpoint over once its lease lapses,
/// delivering the unanswered event again under the same id.
@Suite(.serialized, .enabled(if: TestServer.runsOnPostgres, "needs PostgreSQL"))
struct WebhookInstancesTests {
    @Test(.timeLimit(.minutes(3)))
    func anotherInstanceTakesAKilledDeliverersEndpointsOver() async throws {
        let receiver = try await WebhookTestReceiver.start()
        let first = TestServer.temporaryDirectory()
        let environment = try await ServerProcess.environment(for: ["--data", first.path])
        let database = try #require(environment["STRATUS_DATABASE_URL"])
        let options = ["--database", database, "--webhook-allow-private", "--webhook-lease-seconds", "3"]
        let a = try await ServerProcess.started(dataDirectory: first, arguments: options)
        let b = try await ServerProcess.started(dataDirectory: TestServer.temporaryDirectory(), arguments: options)
        defer { a.kill(); b.kill() }
        let added = try await ServerProcess.run(["webhook", "add", "--data", first.path, "--database", database, "--container", TestServer.containerID,
                                                 "--url", receiver.url, "--webhook-allow-private", "--json"])
        #expect(added.status == 0, "\(added.output)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(added.output.utf8)) as? [String: Any])
        let secret = try #require(json["secret"] as? String)

        let alice = try await b.endpoint.signUp("alice")
        _ = try await alice.save([.create("r0")])
        try await Self.wait(for: "r0", at: receiver)
        // Only B can hold the endpoint once A is dead; r1 reaches the receiver through it.
        a.kill()
        _ = try await alice.save([.create("r1")])
        try await Self.wait(for: "r1", at: receiver)

        // B is killed while the receiver holds r2's first delivery unanswered; A, started again, takes over.
        let held = Mutex(false)
        receiver.answer { [receiver] number in
            let first = receiver.deliveries[number].data["recordName"] as? String == "r2" && !held.withLock { $0 }
            if first { held.withLock { $0 = true } }
            return first ? .init(delay: .seconds(8)) : .init()
        }
        _ = try await alice.save([.create("r2")])
        try await Self.wait(for: "r2", at: receiver)
        b.kill()
        let restarted = try await ServerProcess.started(dataDirectory: first, arguments: options)
        defer { restarted.kill() }
        try await Self.wait(for: "r2", times: 2, at: receiver)
        let deliveries = receiver.deliveries
        var firstArrivals: [String] = []
        for delivery in deliveries where !firstArrivals.contains(delivery.id) { firstArrivals.append(delivery.id) }
        #expect(firstArrivals.map { id in deliveries.first { $0.id == id }?.data["recordName"] as? String } == ["r0", "r1", "r2"],
                "each event once or more, in commit order")
        let twice = deliveries.filter { $0.data["recordName"] as? String == "r2" }
        #expect(twice.count >= 2 && Set(twice.map(\.id)).count == 1, "the unanswered event again, under its id")
        #expect(deliveries.allSatisfy { $0.isSigned(by: secret) })
        await receiver.stop()
    }

    /// Waits (at most two minutes) until `name`'s save was delivered `times` times.
    static func wait(for name: String, times: Int = 1, at receiver: WebhookTestReceiver) async throws {
        let deadline = ContinuousClock.now + .seconds(120)
        while receiver.deliveries.filter({ $0.data["recordName"] as? String == name }).count < times {
            guard ContinuousClock.now < deadline else { throw TestFailure("\(name) was not delivered \(times) times") }
            try await Task.sleep(for: .milliseconds(50))
        }
    }
}
