import Foundation
import Testing
import StratusCore
import StratusTesting
@testable import StratusServer

/// The `stratus container` and `stratus user` commands, run as the real executable against the
/// data directory of a running server, and the account endpoints users call themselves: all of
/// them go through the one admin service.
@Suite struct AdministrationTests {
    static func stratus(_ arguments: [String], _ directory: URL, container: String = TestServer.containerID) async throws -> String {
        let result = try await ServerProcess.run(arguments + ["--data", directory.path, "--container", container])
        guard result.status == 0 else { throw TestFailure("stratus \(arguments.joined(separator: " ")): \(result.output)") }
        return result.output
    }

    static func signIn(_ server: TestServer, _ username: String, _ password: String) async throws -> HTTPResult {
        try await server.anonymous.post("/auth/1/\(TestServer.containerID)/development/signin",
                                        Credentials(username: username, password: password))
    }

    static func passwordFile(_ password: String) throws -> String {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("password-\(UUID().uuidString)")
        try (password + "\n").write(to: file, atomically: true, encoding: .utf8)
        return file.path
    }

    @Test func containersAreCreatedListedAndTheirTokensRotated() async throws {
        let directory = TestServer.temporaryDirectory()
        try await TestServer.with(dataDirectory: directory) { server in
            let created = try await Self.stratus(["container", "create"], directory, container: "iCloud.test.second")
            let secondToken = try #require(created.split(separator: "\n").last.map(String.init))
            #expect(secondToken.count == 64)
            let again = try await ServerProcess.run(["container", "create", "--data", directory.path, "--container", "iCloud.test.second"])
            #expect(again.status != 0 && again.output.contains("exists"), "\(again.output)")
            let listed = try await ServerProcess.run(["container", "list", "--data", directory.path]).output
            #expect(listed.contains("iCloud.test.second") && listed.contains(TestServer.containerID))
            // On a new machine it comes first: it makes the data directory.
            let fresh = TestServer.temporaryDirectory()
            await #expect(try Self.stratus(["container", "create"], fresh, container: "iCloud.test.fresh").count > 64)
            await #expect(try ServerProcess.run(["container", "list", "--data", fresh.path]).output.contains("iCloud.test.fresh"))

            let alice = try await server.signUp("alice")
            #expect(try await alice.get(alice.path(.private, "zones/list")).status == 200)
            let rotated = try await #require(try Self.stratus(["container", "rotate-token"], directory).split(separator: "\n").last.map(String.init))
            #expect(rotated != server.apiToken)
            // The running server refuses the old token at once and takes the new one.
            let old = try await alice.get(alice.path(.private, "zones/list"))
            #expect(old.status == 401 && old.errorCode == .authenticationFailed)
            let renewed = Caller(server: ServerEndpoint(baseURL: server.endpoint.baseURL, apiToken: rotated),
                                 webAuthToken: alice.webAuthToken, userRecordName: alice.userRecordName)
            #expect(try await renewed.get(renewed.path(.private, "zones/list")).status == 200)
        }
    }

    // A hang guard: a dozen commands each start a server process (slower on PostgreSQL).
    @Test(.timeLimit(.minutes(3)))
    func usersAreCreatedListedDisabledEnabledAndTheirPasswordsReset() async throws {
        let directory = TestServer.temporaryDirectory()
        try await TestServer.with(dataDirectory: directory, configure: { $0.expiredSessionSweepInterval = .milliseconds(200) }) { server in
            let recordName = try await Self.stratus(["user", "create", "carol", "--password-file", Self.passwordFile("first password"),
                                               "--email", "carol@example.com"], directory)
            #expect(recordName.hasPrefix("_"))
            let short = try await ServerProcess.run(["user", "create", "dave", "--password-file", Self.passwordFile("short"),
                                               "--data", directory.path, "--container", TestServer.containerID])
            #expect(short.status != 0 && short.output.contains("at least 8"), "\(short.output)")
            await #expect(try Self.stratus(["user", "list", "--search", "example.com"], directory).contains("carol\t\(recordName.trimmingCharacters(in: .whitespacesAndNewlines))"))
            await #expect(try Self.stratus(["user", "list", "--search", "nobody"], directory).isEmpty)

            let signedIn = try await Self.signIn(server, "carol", "first password").decode(SignInResponse.self)
            let carol = Caller(server: server.endpoint, webAuthToken: signedIn.ckWebAuthToken, userRecordName: signedIn.userRecordName)

            // Disabling (from another process) ends the session and closes the push socket; sign-in is refused.
            async let socket = PushBoundsTests.connect(PushBoundsTests.webSocketURL(carol))
            try await Task.sleep(for: .milliseconds(300))
            await #expect(try Self.stratus(["user", "disable", "carol"], directory).contains("carol is disabled"))
            let closed = try await socket
            #expect(closed.messages.count == 1, "the socket was open, then closed by the server")
            #expect(try await carol.get(carol.path(.private, "zones/list")).status == 401)
            let refused = try await Self.signIn(server, "carol", "first password")
            #expect(refused.errorCode == .authenticationFailed && refused.text.contains("disabled"))

            await #expect(try Self.stratus(["user", "enable", "carol"], directory).contains("carol is enabled"))
            let back = try await Self.signIn(server, "carol", "first password").decode(SignInResponse.self)
            _ = try await Self.stratus(["user", "reset-password", "carol", "--password-file", Self.passwordFile("second password")], directory)
            let ended = Caller(server: server.endpoint, webAuthToken: back.ckWebAuthToken, userRecordName: back.userRecordName)
            #expect(try await ended.get(ended.path(.private, "zones/list")).status == 401, "a reset ends the user's sessions")
            #expect(try await Self.signIn(server, "carol", "first password").status == 401)
            #expect(try await Self.signIn(server, "carol", "second password").status == 200)

            let missing = try await ServerProcess.run(["user", "disable", "nobody", "--data", directory.path, "--container", TestServer.containerID])
            #expect(missing.status != 0 && missing.output.contains("no user 'nobody'"), "\(missing.output)")
        }
    }

    @Test func usersChangeTheirPasswordAndSignOutEverywhere() async throws {
        try await TestServer.with { server in
            let phone = try await server.signUp("erin")
            let username = try #require(phone.username)
            let laptopSession = try await Self.signIn(server, username, "password-erin").decode(SignInResponse.self)
            let laptop = Caller(server: server.endpoint, webAuthToken: laptopSession.ckWebAuthToken, userRecordName: laptopSession.userRecordName)
            let passwordPath = "/auth/1/\(TestServer.containerID)/development/password"

            let wrong = try await phone.post(passwordPath, json: #"{"password":"not it","newPassword":"a new password"}"#)
            #expect(wrong.status == 401 && wrong.errorCode == .authenticationFailed)
            let tooShort = try await phone.post(passwordPath, json: #"{"password":"password-erin","newPassword":"short"}"#)
            #expect(tooShort.status == 400 && tooShort.errorCode == .badRequest)
            let changed = try await phone.post(passwordPath, json: #"{"password":"password-erin","newPassword":"a new password"}"#)
            #expect(changed.status == 200, "\(changed.text)")
            // The session that changed it goes on; the others end.
            #expect(try await phone.get(phone.path(.private, "zones/list")).status == 200)
            #expect(try await laptop.get(laptop.path(.private, "zones/list")).status == 401)
            #expect(try await Self.signIn(server, username, "password-erin").status == 401)
            #expect(try await Self.signIn(server, username, "a new password").status == 200)

            let everywhere = try await phone.post("/auth/1/\(TestServer.containerID)/development/signout/all", json: "{}")
            #expect(everywhere.status == 200 && everywhere.text.contains(#""sessionsEnded":2"#), "\(everywhere.text)")
            #expect(try await phone.get(phone.path(.private, "zones/list")).status == 401)
        }
    }

    /// Deleting an account takes its private zones (out of participants' shared databases too) and
    /// its place in others' shares, ends its sessions, and leaves its public records.
    @Test func deletingAnAccountRemovesItsPrivateDataSharesAndParticipations() async throws {
        let directory = TestServer.temporaryDirectory()
        try await TestServer.with(dataDirectory: directory) { server in
            let alice = try await server.signUp("alice")
            let bob = try await server.signUp("bob")
            try await alice.createZone("Trip")
            _ = try await alice.save([.create("plan")], zone: "Trip")
            let aliceShare = try await alice.share(nil, zone: "Trip", participants: [(bob.username!, .readWrite)])
            _ = try await bob.shareMetadata(aliceShare.shareKeys!.shortGUID!, accept: true)
            try await bob.createZone("Garden")
            let bobShare = try await bob.share(nil, zone: "Garden", participants: [(alice.username!, .readOnly)])
            _ = try await alice.shareMetadata(bobShare.shareKeys!.shortGUID!, accept: true)
            _ = try await alice.save([.create("notice")], database: .public)
            let bobsSharedToken = try await bob.databaseChanges(database: .shared).syncToken
            let bobsGardenToken = try await bob.allZoneChanges("Garden").token

            let path = "/auth/1/\(TestServer.containerID)/development/account/delete"
            let wrong = try await alice.post(path, json: #"{"password":"not it"}"#)
            #expect(wrong.status == 401 && wrong.errorCode == .authenticationFailed)
            let deleted = try await alice.post(path, json: #"{"password":"password-alice"}"#)
            #expect(deleted.status == 200, "\(deleted.text)")

            #expect(try await alice.get(alice.path(.private, "zones/list")).status == 401)
            #expect(try await Self.signIn(server, alice.username!, "password-alice").status == 401)
            // Alice's zone left Bob's shared database, as a deleted zone.
            let shared = try await bob.databaseChanges(token: bobsSharedToken, database: .shared)
            #expect(shared.zones.map(\.zoneID.zoneName) == ["Trip"] && shared.zones.first?.deleted == true, "\(shared.zones)")
            let gone = try await bob.lookup(["plan"], zone: "Trip", owner: alice.userRecordName)
            #expect(gone.first?.error != nil)
            // Bob's share no longer names Alice, and his devices hear of the change.
            let garden = try await bob.allZoneChanges("Garden", from: bobsGardenToken).records
            let share = try #require(garden.first { $0.recordName == ShareKeys.zoneShareName })
            #expect(share.shareKeys?.participants?.contains { $0.userIdentity?.userRecordName == alice.userRecordName } == false)
            // Her public record stays.
            #expect(try await bob.lookup(["notice"], database: .public).first?.record != nil)

            // The same through the CLI.
            let carol = try await server.signUp("carol")
            await #expect(try Self.stratus(["user", "delete", carol.username!], directory).contains("is deleted"))
            #expect(try await carol.get(carol.path(.private, "zones/list")).status == 401)
            await #expect(try Self.stratus(["user", "list"], directory).contains(bob.username!))
            await #expect(try Self.stratus(["user", "list"], directory).contains(carol.username!) == false)
        }
    }

    static func file(_ text: String) throws -> String {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("stratus-\(UUID().uuidString)")
        try text.write(to: file, atomically: true, encoding: .utf8)
        return file.path
    }

    /// `stratus records` and `stratus schema validate|reset`, the parts of cktool people use.
    @Test func recordsAndSchemaFromTheCommandLine() async throws {
        let directory = TestServer.temporaryDirectory()
        try await TestServer.with(dataDirectory: directory) { server in
            let schema = try Self.file("DEFINE SCHEMA RECORD TYPE Note (title STRING QUERYABLE SORTABLE);")
            let validated = try await Self.stratus(["schema", "validate", schema], directory)
            #expect(validated.contains("is valid: 1 record types") && validated.contains("production could take it"), "\(validated)")
            let broken = try await ServerProcess.run(["schema", "validate", try Self.file("DEFINE SCHEMA RECORD TYPE Note (title FLOAT);"),
                                                "--data", directory.path, "--container", TestServer.containerID])
            #expect(broken.status != 0)
            _ = try await Self.stratus(["schema", "import", schema], directory)

            let operations = try Self.file(#"""
                {"operations": [
                  {"operationType": "create", "record": {"recordName": "a", "recordType": "Note", "fields": {"title": {"value": "Apple"}}}},
                  {"operationType": "create", "record": {"recordName": "b", "recordType": "Note", "fields": {"title": {"value": "Banana"}}}}]}
                """#)
            await #expect(try Self.stratus(["records", "save", "--file", operations], directory).contains("recordChangeTag"))
            await #expect(try Self.stratus(["records", "lookup", "a"], directory).contains("Apple"))
            let bees = try await Self.stratus(["records", "query", "--type", "Note", "--filter", "title BEGINS_WITH B"], directory)
            #expect(bees.contains("Banana") && !bees.contains("Apple"), "\(bees)")
            let sorted = try await Self.stratus(["records", "query", "--type", "Note", "--sort", "title:desc"], directory)
            #expect(try #require(sorted.range(of: "Banana")).lowerBound < (try #require(sorted.range(of: "Apple")).lowerBound))
            _ = try await Self.stratus(["records", "delete", "a"], directory)
            await #expect(try Self.stratus(["records", "lookup", "a"], directory).contains("NOT_FOUND"))
            // What the command line saved, the API serves.
            #expect(try await server.signUp("reader").lookup(["b"], database: .public).first?.record?.fields["title"] == .string("Banana"))

            // A user's private database.
            let alice = try await server.signUp("alice")
            _ = try await Self.stratus(["records", "save", "--scope", "private", "--user", alice.username!, "--file", operations], directory)
            #expect(try await alice.lookup(["a", "b"]).compactMap(\.record).count == 2)
            let noUser = try await ServerProcess.run(["records", "lookup", "a", "--scope", "private", "--data", directory.path,
                                                "--container", TestServer.containerID])
            #expect(noUser.status != 0 && noUser.output.contains("--user"), "\(noUser.output)")

            // Reset: development gets production's (empty) schema back, and loses its zones.
            try await alice.createZone("Trip")
            let refused = try await ServerProcess.run(["schema", "reset", "--data", directory.path, "--container", TestServer.containerID])
            #expect(refused.status != 0 && refused.output.contains("--yes"))
            await #expect(try Self.stratus(["schema", "reset", "--yes"], directory).contains("zones deleted"))
            await #expect(try Self.stratus(["schema", "export"], directory) == "DEFINE SCHEMA\n")
            let zones = try await alice.get(alice.path(.private, "zones/list")).decode(ZonesResponse.self).zones.compactMap(\.zone)
            #expect(!zones.contains { $0.zoneID.zoneName == "Trip" })
            #expect(try await alice.lookup(["a"]).first?.record == nil)
        }
    }
}
