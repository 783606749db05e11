import Foundation
import Testing
import StratusCore
@testable import StratusServer
import StratusTesting

/// Webhooks (issue 67) through real HTTP, on the backend the suite runs on: a loopback receiver
/// hears every committed change once or more, in order, signed; failures back off and hold later
/// events back; 410 disables; replay, rotation, the address rules and TLS with a test CA.
@Suite struct WebhookTests {
    /// A server that may deliver to loopback, looking for work every 50 ms.
    @discardableResult
    static func server<T: Sendable>(_ configure: @escaping @Sendable (inout ServerConfiguration) -> Void = { _ in },
                                    _ body: @Sendable (TestServer) async throws -> T) async throws -> T {
        try await TestServer.with(configure: {
            $0.webhooks.allowsPrivateAddresses = true
            $0.webhooks.pollInterval = .milliseconds(50)
            configure(&$0)
        }, body)
    }

    static func add(_ server: TestServer, _ receiver: WebhookTestReceiver, filter: WebhookFilter = WebhookFilter()) async throws
        -> (endpoint: StoredWebhookEndpoint, secret: String) {
        try await server.server.services.admin.addWebhook(containerID: TestServer.containerID, environment: .development, url: receiver.url,
                                                          filter: filter)
    }

    static func endpoint(_ server: TestServer, _ id: String) async throws -> StoredWebhookEndpoint {
        try #require(try await server.server.services.admin.webhooks(containerID: TestServer.containerID).first { $0.id == id })
    }

    static func signed(_ delivery: WebhookTestReceiver.Delivery, by secret: String) -> Bool {
        delivery.isSigned(by: secret)
    }

    @Test func signaturesMatchTheStandardsTestVector() throws {
        let signer = try #require(WebhookSignature(secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"))
        let body = Array(#"{"test": 2432232314}"#.utf8)
        #expect(signer.signature(id: "msg_p5jXN8AQM9LWM0D4loKWxJek", timestamp: 1614265330, body: body)
                == "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=")
        #expect(signer.verifies("v1a,abc v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=", id: "msg_p5jXN8AQM9LWM0D4loKWxJek",
                                timestamp: 1614265330, body: body))
        #expect(!signer.verifies("v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=", id: "msg_p5jXN8AQM9LWM0D4loKWxJek",
                                 timestamp: 1614265331, body: body))
        #expect(WebhookSignature(secret: "MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw") == nil, "a secret is whsec_ and base64")
    }

    @Test func committedChangesArriveSignedAndInCommitOrder() async throws {
        try await Self.server { server in
            try await WebhookTestReceiver.with { receiver in
                let alice = try await server.signUp("alice")
                let (endpoint, secret) = try await Self.add(server, receiver)
                #expect(secret.hasPrefix("whsec_"))
                #expect(!endpoint.secret.contains(secret.dropFirst(6)), "the store keeps the secret sealed")
                try await alice.createZone("Notes")
                _ = try await alice.save([.create("a", ["text": .string("one")]), .create("b"), .create("c")], zone: "Notes")
                _ = try await alice.modify([RecordOperation(.forceDelete, Record(recordName: "b"))], zone: "Notes")
                _ = try await alice.post(alice.path(.private, "zones/modify"), ZonesModifyRequest(operations: [.init(.delete, ZoneID(zoneName: "Notes"))]))
                let deliveries = try await receiver.waitFor(6)
                try await Task.sleep(for: .milliseconds(300))
                #expect(receiver.deliveries.count == 6, "a zone's deletion is one event, not one per record")
                #expect(deliveries.map(\.type) == ["zone.created", "record.saved", "record.saved", "record.saved", "record.deleted", "zone.deleted"])
                #expect(deliveries.allSatisfy { Self.signed($0, by: secret) })
                let positions = deliveries.map { Int64($0.id.split(separator: "_").last!)! }
                #expect(positions == positions.sorted() && Set(positions).count == 6, "in commit order, one id each")
                #expect(deliveries.allSatisfy { $0.id.hasPrefix("evt_\(server.server.services.storage.epoch)_") && !$0.id.contains(".") })
                let saved = deliveries[1].data
                #expect(saved["recordName"] as? String == "a" && saved["recordType"] as? String == "Note" && saved["zoneName"] as? String == "Notes")
                #expect(saved["database"] as? String == "private" && saved["userRecordName"] as? String == alice.userRecordName)
                #expect(saved["container"] as? String == TestServer.containerID && saved["environment"] as? String == "development")
                #expect(saved["recordChangeTag"] as? String != nil)
                #expect(saved["fields"] == nil, "a private database's fields stay with its users")
                #expect(deliveries[4].data["recordName"] as? String == "b")
                #expect(deliveries[0].json["timestamp"] as? String != nil)

                let attempts = try await server.server.services.admin.webhookAttempts(id: endpoint.id, containerID: TestServer.containerID)
                #expect(attempts.count == 6 && attempts.allSatisfy { $0.status == 204 })
            }
        }
    }

    @Test func aPublicSaveCarriesItsFieldsAndARolledBackWriteSendsNothing() async throws {
        try await Self.server { server in
            try await WebhookTestReceiver.with { receiver in
                let alice = try await server.signUp("alice")
                try await alice.createZone("Notes")
                _ = try await alice.save([.create("kept")], zone: "Notes")
                let (_, secret) = try await Self.add(server, receiver)
                // An atomic batch with a conflict commits nothing, and sends nothing.
                let failed = try await alice.modify([.create("new"), .create("kept")], zone: "Notes")
                #expect(failed.allSatisfy { $0.error != nil })
                _ = try await alice.save([.create("post", type: "Post", ["title": .string("Hello")])], database: .public)
                let deliveries = try await receiver.waitFor(1)
                try await Task.sleep(for: .milliseconds(300))
                #expect(receiver.deliveries.count == 1)
                #expect(deliveries[0].type == "record.saved" && Self.signed(deliveries[0], by: secret))
                #expect(deliveries[0].data["database"] as? String == "public")
                let fields = deliveries[0].data["fields"] as? [String: Any]
                #expect((fields?["title"] as? [String: Any])?["value"] as? String == "Hello")
            }
        }
    }

    @Test func aFailureBacksOffAndHoldsLaterEventsBack() async throws {
        try await Self.server({ $0.webhooks.firstRetryWait = .seconds(60) }) { server in
            try await WebhookTestReceiver.with(answers: { $0 == 0 ? .init(status: .internalServerError) : .init() }) { receiver in
                let alice = try await server.signUp("alice")
                let (endpoint, _) = try await Self.add(server, receiver)
                _ = try await alice.save([.create("first")])
                _ = try await alice.save([.create("second")])
                try await receiver.waitFor(1)
                // The failure is scheduled a minute on (±20%), by the server's clock; nothing else goes meanwhile.
                var failing = try await Self.endpoint(server, endpoint.id)
                for _ in 0..<100 where failing.attempts == 0 {
                    try await Task.sleep(for: .milliseconds(20))
                    failing = try await Self.endpoint(server, endpoint.id)
                }
                let attempt = try #require(try await server.server.services.admin.webhookAttempts(id: endpoint.id, containerID: TestServer.containerID).first)
                #expect(attempt.status == 500 && failing.attempts == 1)
                #expect((attempt.attemptedAt + 48_000...attempt.attemptedAt + 72_000).contains(failing.nextAttemptAt))
                try await Task.sleep(for: .milliseconds(300))
                #expect(receiver.deliveries.count == 1, "the second event waits behind the first")

                await server.advanceClock(by: .seconds(75))
                let deliveries = try await receiver.waitFor(3)
                #expect(deliveries[1].id == deliveries[0].id, "a retry keeps its webhook-id")
                #expect(deliveries[1].timestamp >= deliveries[0].timestamp + 60, "webhook-timestamp is the attempt's")
                #expect(deliveries.map { $0.data["recordName"] as? String } == ["first", "first", "second"])
                var after = try await Self.endpoint(server, endpoint.id)
                for _ in 0..<100 where after.attempts != 0 {
                    try await Task.sleep(for: .milliseconds(20))
                    after = try await Self.endpoint(server, endpoint.id)
                }
                #expect(after.attempts == 0 && after.failingSince == nil)
            }
        }
    }

    @Test func retryAfterIsHonouredAndThreeDaysOfFailureMarkTheEndpointFailingUntilReplay() async throws {
        try await Self.server({ $0.webhooks.longestRetryWait = .seconds(2 * 3600) }) { server in
            try await WebhookTestReceiver.with(answers: { _ in .init(status: .tooManyRequests, retryAfter: 7200) }) { receiver in
                let alice = try await server.signUp("alice")
                let (endpoint, secret) = try await Self.add(server, receiver)
                _ = try await alice.save([.create("r")])
                try await receiver.waitFor(1)
                var state = try await Self.endpoint(server, endpoint.id)
                for _ in 0..<100 where state.attempts == 0 {
                    try await Task.sleep(for: .milliseconds(20))
                    state = try await Self.endpoint(server, endpoint.id)
                }
                #expect(state.nextAttemptAt >= server.now + 7_100_000, "a 429's Retry-After (2 h) is waited for")

                // Tries go on while the clock moves; past three days the endpoint is marked failing.
                for step in 1...40 {
                    await server.advanceClock(by: .seconds(3 * 3600))
                    try await receiver.waitFor(1 + step)
                    state = try await Self.endpoint(server, endpoint.id)
                    for _ in 0..<100 where state.attempts == step {
                        try await Task.sleep(for: .milliseconds(20))
                        state = try await Self.endpoint(server, endpoint.id)
                    }
                    if state.state == .failing { break }
                }
                #expect(state.state == .failing)
                let tries = receiver.deliveries.count
                await server.advanceClock(by: .seconds(24 * 3600))
                try await Task.sleep(for: .milliseconds(300))
                #expect(receiver.deliveries.count == tries, "a failing endpoint waits for replay")

                receiver.answer { _ in .init() }
                let first = receiver.deliveries[0].id
                let replay = try await server.server.services.admin.replayWebhook(id: endpoint.id, containerID: TestServer.containerID, from: .event(first))
                #expect(replay.endpoint.state == .enabled && replay.gapBefore == nil)
                let replayed = try await receiver.waitFor(tries + 1)
                #expect(replayed.last?.id == first && Self.signed(replayed.last!, by: secret))
            }
        }
    }

    @Test func goneDisablesTheEndpoint() async throws {
        try await Self.server { server in
            try await WebhookTestReceiver.with(answers: { _ in .init(status: .gone) }) { receiver in
                let alice = try await server.signUp("alice")
                let (endpoint, _) = try await Self.add(server, receiver)
                _ = try await alice.save([.create("r")])
                try await receiver.waitFor(1)
                var state = try await Self.endpoint(server, endpoint.id)
                for _ in 0..<100 where state.state != .disabled {
                    try await Task.sleep(for: .milliseconds(20))
                    state = try await Self.endpoint(server, endpoint.id)
                }
                #expect(state.state == .disabled)
                _ = try await alice.save([.create("s")])
                await server.advanceClock(by: .seconds(3600))
                try await Task.sleep(for: .milliseconds(300))
                #expect(receiver.deliveries.count == 1)
            }
        }
    }

    @Test func aRotatedSecretSignsBesideTheOldOneForADay() async throws {
        try await Self.server { server in
            try await WebhookTestReceiver.with { receiver in
                let alice = try await server.signUp("alice")
                let admin = server.server.services.admin
                let (endpoint, old) = try await Self.add(server, receiver)
                let new = try await admin.rotateWebhookSecret(id: endpoint.id, containerID: TestServer.containerID)
                #expect(new != old)
                _ = try await alice.save([.create("r")])
                let both = try await receiver.waitFor(1)[0]
                #expect(both.signature.split(separator: " ").count == 2)
                #expect(Self.signed(both, by: new) && Self.signed(both, by: old))

                await server.advanceClock(by: .seconds(24 * 3600 + 60))
                _ = try await alice.save([.create("s")])
                let later = try await receiver.waitFor(2)[1]
                #expect(Self.signed(later, by: new) && !Self.signed(later, by: old), "after 24 hours only the new secret signs")
                let audit = try await admin.auditEntries(containerID: TestServer.containerID).map(\.action)
                #expect(audit.contains("webhook.add") && audit.contains("webhook.rotate-secret"))
                #expect(try await admin.auditEntries(containerID: TestServer.containerID).allSatisfy { !$0.detail.contains("whsec_") })
            }
        }
    }

    @Test func replayFromATimeDeliversAgainAndFiltersApply() async throws {
        try await Self.server { server in
            try await WebhookTestReceiver.with { receiver in
                let alice = try await server.signUp("alice")
                try await alice.createZone("Kept")
                try await alice.createZone("Other")
                let (endpoint, _) = try await Self.add(server, receiver, filter: WebhookFilter(recordTypes: ["Note"], zones: ["Kept"]))
                let start = server.now
                _ = try await alice.save([.create("n1"), .create("t1", type: "Task")], zone: "Kept")
                _ = try await alice.save([.create("n2")], zone: "Other")
                _ = try await alice.save([.create("n3")], zone: "Kept")
                let first = try await receiver.waitFor(2)
                #expect(first.map { $0.data["recordName"] as? String } == ["n1", "n3"])
                let replay = try await server.server.services.admin.replayWebhook(id: endpoint.id, containerID: TestServer.containerID, from: .time(start))
                #expect(replay.gapBefore == nil)
                let again = try await receiver.waitFor(4)
                #expect(again.suffix(2).map(\.id) == first.map(\.id), "replay sends the same events with the same ids")
                await #expect(throws: CloudKitError.self) {
                    _ = try await server.server.services.admin.replayWebhook(id: endpoint.id, containerID: TestServer.containerID, from: .event("evt_1.2"))
                }
            }
        }
    }

    /// A resolver that answers fixed addresses and counts its questions.
    final class FixedResolver: WebhookResolver, Sendable {
        let answers: [String: [IPAddress]]
        init(_ answers: [String: [String]]) { self.answers = answers.mapValues { $0.compactMap(IPAddress.init) } }
        func addresses(of host: String) async throws -> [IPAddress] { answers[host] ?? [] }
    }

    @Test func withoutAllowPrivateHTTPAndInternalAddressesAreRefused() async throws {
        let resolver = FixedResolver(["metadata.example": ["169.254.169.254"], "mixed.example": ["203.0.113.9", "10.1.2.3"],
                                      "cgnat.example": ["100.64.1.1"], "v6.example": ["fd00::1"]])
        try await TestServer.with(configure: {
            $0.webhooks.pollInterval = .milliseconds(50)
            $0.webhooks.resolver = resolver
        }) { server in
            let admin = server.server.services.admin
            for url in ["http://hooks.example/x", "https://127.0.0.1/x", "https://10.0.0.8/x", "https://[::1]/x", "https://169.254.169.254/x",
                        "https://user:pw@hooks.example/x", "ftp://hooks.example/x", "https:///x"] {
                await #expect(throws: CloudKitError.self, "\(url)") {
                    _ = try await admin.addWebhook(containerID: TestServer.containerID, environment: .development, url: url, filter: WebhookFilter())
                }
            }
            let alice = try await server.signUp("alice")
            var endpoints: [String] = []
            for host in ["metadata.example", "mixed.example", "cgnat.example", "v6.example", "nowhere.example"] {
                endpoints.append(try await admin.addWebhook(containerID: TestServer.containerID, environment: .development, url: "https://\(host)/hook",
                                                            filter: WebhookFilter()).endpoint.id)
            }
            _ = try await alice.save([.create("r")])
            for id in endpoints {
                var attempts: [WebhookAttempt] = []
                for _ in 0..<200 where attempts.isEmpty {
                    try await Task.sleep(for: .milliseconds(20))
                    attempts = try await admin.webhookAttempts(id: id, containerID: TestServer.containerID)
                }
                let attempt = try #require(attempts.first)
                #expect(attempt.status == 0, "nothing answered: no connection was made")
                #expect(attempt.answer.contains("private, loopback") || attempt.answer.contains("has no address"), "\(attempt.answer)")
            }
        }
    }

    @Test func httpsDeliveryTrustsTheGivenCertificateAuthority() async throws {
        let certificate = try TestCertificate.makeIssuedByAuthority()
        defer { certificate.remove() }
        try await Self.server({ $0.webhooks.caFile = certificate.authority.path }) { server in
            try await WebhookTestReceiver.with(certificate: (certificate.certificate, certificate.privateKey)) { receiver in
                let alice = try await server.signUp("alice")
                let (_, secret) = try await Self.add(server, receiver)
                _ = try await alice.save([.create("r")])
                let delivery = try await receiver.waitFor(1)[0]
                #expect(Self.signed(delivery, by: secret) && delivery.type == "record.saved")
            }
        }
        // Without the authority the certificate is not trusted: the attempt fails, nothing arrives.
        try await Self.server({ $0.webhooks.timeout = .seconds(2) }) { server in
            try await WebhookTestReceiver.with(certificate: (certificate.certificate, certificate.privateKey)) { receiver in
                let alice = try await server.signUp("alice")
                let (endpoint, _) = try await Self.add(server, receiver)
                _ = try await alice.save([.create("r")])
                var attempts: [WebhookAttempt] = []
                for _ in 0..<300 where attempts.isEmpty {
                    try await Task.sleep(for: .milliseconds(20))
                    attempts = try await server.server.services.admin.webhookAttempts(id: endpoint.id, containerID: TestServer.containerID)
                }
                #expect(attempts.first?.status == 0 && receiver.deliveries.isEmpty)
            }
        }
    }

    @Test func theLogKeepsWhatAnEndpointHasNotPassedEvenWithoutHistory() async throws {
        try await Self.server({ $0.historyRetention = .zero; $0.webhooks.firstRetryWait = .seconds(3600) }) { server in
            try await WebhookTestReceiver.with(answers: { $0 == 0 ? .init(status: .badGateway) : .init() }) { receiver in
                let alice = try await server.signUp("alice")
                let (endpoint, _) = try await Self.add(server, receiver)
                // Writes learn within the cache's freshness; the admin service told this instance at once.
                _ = try await alice.save([.create("r")])
                try await receiver.waitFor(1)
                await server.advanceClock(by: .seconds(600))
                let kept = try await server.server.services.storage.read { try await $0.recordLogPosition(before: nil) }
                #expect(kept > (try await Self.endpoint(server, endpoint.id)).cursor, "maintenance left the undelivered entry")
                await server.advanceClock(by: .seconds(3 * 3600))
                let deliveries = try await receiver.waitFor(2)
                #expect(deliveries[1].id == deliveries[0].id)
            }
        }
    }

    /// A store restored (here `stratus migrate --after-restore`, as after `pg_restore`; `stratus
    /// restore` gives the new epoch the same way) tells each endpoint so, then sends what is
    /// committed after, under ids of the new epoch.
    @Test func aRestoredStoreSaysSoThenSendsWhatIsCommittedAfter() async throws {
        let directory = TestServer.temporaryDirectory()
        let configure: @Sendable (inout ServerConfiguration) -> Void = { $0.webhooks.allowsPrivateAddresses = true; $0.webhooks.pollInterval = .milliseconds(50) }
        try await WebhookTestReceiver.with { receiver in
            let (alice, secret) = try await TestServer.with(dataDirectory: directory, configure: configure) { server in
                let alice = try await server.signUp("alice")
                let (_, secret) = try await Self.add(server, receiver)
                _ = try await alice.save([.create("before-restore")])
                try await receiver.waitFor(1)
                return (alice, secret)
            }
            let restore = try await ServerProcess.run(["migrate", "--data", directory.path, "--after-restore"])
            #expect(restore.status == 0, "\(restore.output)")
            try await TestServer.with(dataDirectory: directory, configure: configure) { server in
                let epoch = server.server.services.storage.epoch
                let notice = try await receiver.waitFor(2)[1]
                #expect(notice.type == "database.restored" && (notice.data["epoch"] as? NSNumber)?.int64Value == epoch && epoch != 0)
                #expect(notice.isSigned(by: secret))
                let caller = Caller(server: server.endpoint, webAuthToken: alice.webAuthToken, userRecordName: alice.userRecordName)
                _ = try await caller.save([.create("after-restore")])
                let next = try await receiver.waitFor(3)[2]
                #expect(next.data["recordName"] as? String == "after-restore" && next.id.hasPrefix("evt_\(epoch)_"))
                try await Task.sleep(for: .milliseconds(300))
                #expect(receiver.count == 3, "nothing the restored log held was sent again")
            }
        }
    }

    @Test func exportsCarryEndpointsOnlyWithSecretsAndAnImportStartsThemAfterWhatItLoaded() async throws {
        let (withSecrets, without) = (TestServer.temporaryDirectory(), TestServer.temporaryDirectory())
        let secret = try await Self.server { server in
            try await WebhookTestReceiver.with { receiver in
                let alice = try await server.signUp("alice")
                let (_, secret) = try await Self.add(server, receiver, filter: WebhookFilter(zones: ["Notes"]))
                try await alice.createZone("Notes")
                _ = try await alice.save([.create("n")], zone: "Notes")
                try await receiver.waitFor(2)
                let admin = server.server.services.admin
                _ = try await admin.exportContainer(id: TestServer.containerID, to: withSecrets, includingSecrets: true, includingHistory: true) { _ in }
                _ = try await admin.exportContainer(id: TestServer.containerID, to: without, includingSecrets: false, includingHistory: true) { _ in }
                return secret
            }
        }
        let lines = try String(contentsOf: withSecrets.appendingPathComponent("container.jsonl"), encoding: .utf8)
        #expect(lines.contains(#""kind":"webhookEndpoint""#) && !lines.contains(String(secret.dropFirst(6))), "sealed, never in plain")
        #expect(!(try String(contentsOf: without.appendingPathComponent("container.jsonl"), encoding: .utf8)).contains("webhookEndpoint"))
        let target = TestServer.temporaryDirectory().appendingPathComponent("new")
        let imported = try await ServerProcess.run(["import", "--data", target.path, "--from", withSecrets.path])
        #expect(imported.status == 0, "\(imported.output)")
        try await TestServer.with(dataDirectory: target) { server in
            let endpoint = try #require(try await server.server.services.admin.webhooks(containerID: TestServer.containerID).first)
            #expect(endpoint.filter.zones == ["Notes"] && endpoint.state == .enabled)
            let end = try await server.server.services.storage.read { try await $0.recordLogPosition(before: nil) }
            #expect(endpoint.cursor == end && end > 0, "the loaded history is not sent again")
        }
    }

    @Test func theConsoleManagesEndpointsThroughTheAdminService() async throws {
        let directory = TestServer.temporaryDirectory()
        try await TestServer.with(dataDirectory: directory, configure: { $0.webhooks.allowsPrivateAddresses = true }) { server in
            let (token, csrf) = try await ConsoleTests.administrator(server, directory: directory)
            let page = "/console/containers/\(TestServer.containerID)/webhooks"
            let url = "http://127.0.0.1:9/hook".addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            _ = try await ConsoleTests.request(server, .POST, "\(page)/add", form: "csrf=\(csrf)&url=\(url)&environment=development&database=public&recordTypes=Post%2C+Note&zones=",
                                               cookie: token)
            let listed = try await ConsoleTests.request(server, .GET, page, cookie: token).text
            let endpoint = try #require(try await server.server.services.admin.webhooks(containerID: TestServer.containerID).first)
            #expect(endpoint.filter == WebhookFilter(scopes: [.public], recordTypes: ["Post", "Note"]))
            #expect(listed.contains("shown this once: whsec_") && listed.contains(endpoint.id) && listed.contains("databases public; types Post, Note"))
            #expect(!(try await ConsoleTests.request(server, .GET, page, cookie: token).text.contains("whsec_")), "the secret is shown once")
            _ = try await ConsoleTests.request(server, .POST, "\(page)/disable", form: "csrf=\(csrf)&endpoint=\(endpoint.id)", cookie: token)
            #expect(try await Self.endpoint(server, endpoint.id).state == .disabled)
            _ = try await ConsoleTests.request(server, .POST, "\(page)/replay", form: "csrf=\(csrf)&endpoint=\(endpoint.id)&since=2026-01-01T00%3A00%3A00Z",
                                               cookie: token)
            #expect(try await Self.endpoint(server, endpoint.id).state == .enabled)
            let deliveries = "/console/containers/\(TestServer.containerID)/webhook-deliveries"
            #expect(try await ConsoleTests.request(server, .GET, "\(deliveries)/\(endpoint.id)", cookie: token).status == 200)
            #expect(try await ConsoleTests.request(server, .GET, "\(deliveries)/ep_none", cookie: token).status == 404)
            let forged = try await ConsoleTests.request(server, .POST, "\(page)/remove", form: "csrf=wrong&endpoint=\(endpoint.id)", cookie: token)
            let stillThere = try await server.server.services.admin.webhooks(containerID: TestServer.containerID).count
            #expect(forged.status == 403 && stillThere == 1)
            _ = try await ConsoleTests.request(server, .POST, "\(page)/remove", form: "csrf=\(csrf)&endpoint=\(endpoint.id)", cookie: token)
            #expect(try await server.server.services.admin.webhooks(containerID: TestServer.containerID).isEmpty)
            let actions = try await server.server.services.admin.auditEntries(containerID: TestServer.containerID).map(\.action)
            #expect(Set(["webhook.add", "webhook.disable", "webhook.replay", "webhook.remove"]).isSubset(of: actions))
        }
    }

    /// Waits (at most a minute) until a delivery satisfies `found`.
    static func waitFor(_ receiver: WebhookTestReceiver, _ found: (WebhookTestReceiver.Delivery) -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(60)
        while !receiver.deliveries.contains(where: found) {
            guard ContinuousClock.now < deadline else { throw TestFailure("no delivery arrived that the test waits for") }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    @Test func restoresSharesTheLossAlarmAndAnOversizedPublicRecordSayWhatTheyAre() async throws {
        try await Self.server { server in
            try await WebhookTestReceiver.with { receiver in
                let alice = try await server.signUp("alice")
                let bob = try await server.signUp("bob")
                try await alice.createZone("Notes")
                _ = try await alice.save((0..<120).map { .create("m\($0)") }, zone: "Notes")
                _ = try await Self.add(server, receiver)
                let first = try await alice.save([.create("n", ["text": .string("kept")])], zone: "Notes")[0]
                _ = try await alice.save([RecordOperation(.forceUpdate, Record(recordName: "n", fields: ["text": .string("mistake")]))], zone: "Notes")
                let restored = try await alice.restore([.init(recordName: "n", recordChangeTag: try #require(first.recordChangeTag))], zone: "Notes")
                #expect(restored.records.first?.record != nil)
                _ = try await alice.share(nil, zone: "Notes", participants: [(try #require(bob.username), .readOnly)])
                _ = try await alice.save([RecordOperation(.forceDelete, Record(recordName: ShareKeys.zoneShareName, recordType: ShareKeys.recordType))],
                                         zone: "Notes")
                await server.advanceClock(by: .seconds(61))
                let burst = RecordsModifyRequest(operations: (0..<61).map { RecordOperation(.forceDelete, Record(recordName: "m\($0)")) },
                                                 zoneID: ZoneID(zoneName: "Notes"))
                let deleted = try await alice.send(.POST, alice.path(.private, "records/modify"), body: try JSONEncoder().encode(burst),
                                                   headers: [("X-Stratus-Device-ID", "tablet")])
                #expect(deleted.status == 200)
                _ = try await alice.save([.create("big", type: "Post", ["body": .string(String(repeating: "x", count: 300_000))])], database: .public)
                try await Self.waitFor(receiver) { $0.data["recordName"] as? String == "big" }

                let deliveries = receiver.deliveries
                let restore = deliveries.filter { $0.data["recordName"] as? String == "n" }
                #expect(restore.map(\.type) == ["record.saved", "record.saved", "record.saved"])
                #expect(restore.map { $0.data["restored"] as? Bool } == [nil, nil, true], "only the restore says so")
                #expect(deliveries.contains { $0.type == "share.saved" } && deliveries.contains { $0.type == "share.deleted" })
                let alarm = try #require(deliveries.first { $0.type == "alarm.loss" })
                let raised = try #require(alarm.data["alarm"] as? [String: Any])
                #expect(raised["deviceID"] as? String == "tablet" && raised["deleted"] as? Int == 61 && alarm.data["zoneName"] as? String == "Notes")
                let alarmAt = try #require(deliveries.firstIndex { $0.type == "alarm.loss" })
                #expect(deliveries[..<alarmAt].filter { $0.type == "record.deleted" }.count == 61, "after the deletions that raised it")
                let big = try #require(deliveries.last)
                #expect(big.data["fieldsOmitted"] as? Bool == true && big.data["fields"] == nil && big.body.count < 4096)
            }
        }
    }

    @Test func aPublicRecordsFilesAreTheirChecksumAndSizeOnly() throws {
        let asset = Asset(fileChecksum: "Q2hlY2tzdW0=", size: 5, referenceChecksum: "cmVm", wrappingKey: "a2V5", receipt: "receipt-1",
                          downloadURL: "https://files.example/secret")
        let stored = StoredRecord(zoneRowID: 1, recordName: "p", recordType: "Post", changeTag: "a",
                                  fieldsJSON: RecordMapper.encodeFields(["photo": .asset(asset), "photos": .list(.asset, [.asset(asset)]),
                                                                         "title": .string("Hi")]),
                                  created: RecordStamp(timestamp: 0, userRecordName: "_u", deviceID: ""),
                                  modified: RecordStamp(timestamp: 0, userRecordName: "_u", deviceID: ""), parent: nil, share: nil, sequence: 1, deleted: false)
        let text = String(decoding: try WebhookPayload.fields(of: stored), as: UTF8.self)
        #expect(text.contains("Q2hlY2tzdW0=") && text.contains(#""size":5"#) && text.contains("Hi"))
        for hidden in ["https://files.example", "receipt-1", "a2V5", "cmVm"] { #expect(!text.contains(hidden), "\(hidden)") }
    }
}
