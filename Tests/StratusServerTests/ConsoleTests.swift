import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Testing
import StratusCore
@testable import StratusServer
import StratusTesting

/// The console's doors, over real HTTP without a browser (`scripts/check-console.sh` drives the
/// pages in Chromium): administrators only, hashed, throttled, cookie attributes, CSRF.
@Suite struct ConsoleTests {
    /// A client that shows redirects instead of following them.
    static let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .init(redirectConfiguration: .disallow))

    static func request(_ server: TestServer, _ method: HTTPMethod, _ path: String, form: String? = nil,
                        cookie: String? = nil) async throws -> HTTPResult {
        var request = HTTPClientRequest(url: server.endpoint.baseURL + path)
        request.method = method
        if let cookie { request.headers.add(name: "Cookie", value: "stratus_console=\(cookie)") }
        if let form {
            request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
            request.body = .bytes(ByteBuffer(string: form))
        }
        let response = try await client.execute(request, timeout: .seconds(30))
        let body = try await response.body.collect(upTo: 1 << 22)
        return HTTPResult(status: Int(response.status.code), body: Data(buffer: body), headers: response.headers)
    }

    static func signIn(_ server: TestServer, password: String) async throws -> HTTPResult {
        try await request(server, .POST, "/console/signin", form: "username=root&password=\(password.replacingOccurrences(of: " ", with: "+"))")
    }

    @Test func onlyAdministratorsSignInWithAHashedPasswordACookieOnlyTheConsoleSeesAndCSRFTokens() async throws {
        let directory = TestServer.temporaryDirectory()
        try await TestServer.with(dataDirectory: directory, configure: { $0.signInFailuresPerAccountAndAddress.burst = 3 }) { server in
            let created = try await ServerProcess.run(["admin", "create", "root", "--data", directory.path,
                                                 "--password-file", AdministrationTests.passwordFile("console password")])
            #expect(created.status == 0, "\(created.output)")
            let stored = try #require(try await server.server.services.storage.read { try await $0.administrator(username: "root") })
            #expect(stored.passwordHash != "console password" && !stored.passwordHash.contains("console"), "stored hashed")
            await #expect(try ServerProcess.run(["admin", "list", "--data", directory.path]).output.contains("root"))

            // Not signed in, or signed in as an app user: the console opens nothing.
            let anonymous = try await Self.request(server, .GET, "/console/containers")
            #expect(anonymous.status == 303 && anonymous.headers["Location"].first == "/console/signin")
            let appUser = try await server.signUp("alice")
            #expect(try await Self.request(server, .GET, "/console/containers", cookie: appUser.webAuthToken).status == 303)

            let wrong = try await Self.signIn(server, password: "wrong password")
            #expect(wrong.status == 401 && wrong.text.contains("wrong password"))
            let right = try await Self.signIn(server, password: "console password")
            #expect(right.status == 303 && right.headers["Location"].first == "/console/containers")
            let setCookie = try #require(right.headers["Set-Cookie"].first)
            for attribute in ["HttpOnly", "SameSite=Strict", "Path=/console"] {
                #expect(setCookie.contains(attribute), "\(setCookie)")
            }
            let token = try #require(setCookie.split(separator: ";").first?.split(separator: "=", maxSplits: 1).last.map(String.init))
            let page = try await Self.request(server, .GET, "/console/containers", cookie: token)
            #expect(page.status == 200 && page.text.contains(TestServer.containerID))
            #expect(page.headers["Content-Security-Policy"].first?.contains("frame-ancestors 'none'") == true)
            #expect(page.headers["Cache-Control"].first == "no-store")
            #expect(!setCookie.contains("Secure"), "over plain HTTP (TLSTests sees Secure over TLS)")

            // A change without the session's CSRF token is refused; with it, it is made.
            let forged = try await Self.request(server, .POST, "/console/containers", form: "id=iCloud.test.forged", cookie: token)
            #expect(forged.status == 403)
            let csrf = try #require(page.text.components(separatedBy: "name=\"csrf\" value=\"").dropFirst().first?.prefix(64))
            let made = try await Self.request(server, .POST, "/console/containers", form: "id=iCloud.test.made&csrf=\(csrf)", cookie: token)
            #expect(made.status == 303)
            let containers = try await server.server.services.admin.listContainers().map(\.id)
            #expect(containers.contains("iCloud.test.made") && !containers.contains("iCloud.test.forged"))

            // Repeated failures (3 here) throttle this address for the account, the right password too.
            for _ in 0..<3 { _ = try await Self.signIn(server, password: "wrong password") }
            #expect(try await Self.signIn(server, password: "console password").status == 429)

            // Signing out ends the session.
            #expect(try await Self.request(server, .POST, "/console/signout", form: "csrf=\(csrf)", cookie: token).status == 303)
            #expect(try await Self.request(server, .GET, "/console/containers", cookie: token).status == 303)
        }
    }

    /// Signs an administrator in; the session token and the page's CSRF token.
    static func administrator(_ server: TestServer, directory: URL) async throws -> (token: String, csrf: String) {
        let created = try await ServerProcess.run(["admin", "create", "root", "--data", directory.path,
                                             "--password-file", AdministrationTests.passwordFile("console password")])
        guard created.status == 0 else { throw TestFailure(created.output) }
        let right = try await signIn(server, password: "console password")
        let setCookie = try #require(right.headers["Set-Cookie"].first)
        let token = try #require(setCookie.split(separator: ";").first?.split(separator: "=", maxSplits: 1).last.map(String.init))
        let page = try await request(server, .GET, "/console/containers", cookie: token)
        let csrf = try #require(page.text.components(separatedBy: "name=\"csrf\" value=\"").dropFirst().first?.prefix(64))
        return (token, String(csrf))
    }

    /// Behind a proxy that terminates TLS (`--public-url https://…`) the cookie is Secure too.
    @Test func behindAnHTTPSProxyTheCookieIsSecure() async throws {
        let directory = TestServer.temporaryDirectory()
        try await TestServer.with(dataDirectory: directory, configure: { $0.publicURL = "https://sync.example.com" }) { server in
            try await server.server.services.admin.createAdministrator(username: "root", password: "console password")
            let signedIn = try await Self.signIn(server, password: "console password")
            #expect(signedIn.headers["Set-Cookie"].first?.contains("Secure") == true, "\(signedIn.headers)")
        }
    }

    @Test func sharingShowsOnTheUserPageAndInTheSharedViewAndSettingsAreChecked() async throws {
        let directory = TestServer.temporaryDirectory()
        try await TestServer.with(dataDirectory: directory) { server in
            let (token, csrf) = try await Self.administrator(server, directory: directory)
            let alice = try await server.signUp("alice")
            let bob = try await server.signUp("bob")
            try await alice.createZone("Notes")
            let share = try await alice.share(nil, zone: "Notes", participants: [(try #require(bob.username), .readWrite)])
            _ = try await bob.shareMetadata(try #require(share.shareKeys?.shortGUID), accept: true)
            let container = "/console/containers/\(TestServer.containerID)"

            let alicePage = try await Self.request(server, .GET, "\(container)/users/\(try #require(alice.username))", cookie: token)
            #expect(alicePage.status == 200)
            #expect(alicePage.text.contains("Notes") && alicePage.text.contains("\(bob.username!) (READ_WRITE, ACCEPTED)"), "\(alicePage.text)")
            let bobPage = try await Self.request(server, .GET, "\(container)/users/\(bob.username!)", cookie: token)
            #expect(bobPage.text.contains("Notes, owned by \(alice.username!)"))

            let shared = try await Self.request(server, .GET, "\(container)/data?environment=development&database=shared&user=\(bob.username!)",
                                                cookie: token)
            #expect(shared.text.contains("Notes (owned by \(alice.username!))"), "\(shared.text)")
            #expect(shared.text.contains("database=private&amp;user=\(alice.username!)&amp;zone=Notes"), "\(shared.text)")

            // A record page shows each field by its type.
            let asset = try await alice.upload(TestFile.bytes(count: 2_000, seed: 5), record: "photo")
            _ = try await alice.save([.create("photo", ["file": .asset(asset), "place": .location(Location(latitude: 51.5, longitude: -0.12)),
                                                        "tags": .list(.string, [.string("tea"), .string("milk")]),
                                                        "next": .reference(Reference(recordName: "other"))])], zone: "Notes")
            let record = try await Self.request(
                server, .GET, "\(container)/record?environment=development&database=private&user=\(alice.username!)&zone=Notes&name=photo", cookie: token)
            #expect(record.status == 200)
            for shown in ["/assets/1/download/", "51.5, -0.12", "[tea, milk]", "LIST&lt;STRING&gt;", "LOCATION", "ASSET",
                          "zone=Notes&amp;name=other"] {
                #expect(record.text.contains(shown), "\(shown) in \(record.text)")
            }

            let badKey = try await Self.request(server, .POST, "\(container)/settings/add-key", form: "csrf=\(csrf)&publicKey=not+a+key",
                                                cookie: token)
            #expect(badKey.status == 303)
            let after = try #require(badKey.headers["Location"].first)
            let shown = try await Self.request(server, .GET, after, cookie: token)
            #expect(shown.text.contains("role=\"status\""), "the refusal is shown: \(shown.text)")
            #expect(try await server.server.services.serverKeys.list(containerID: TestServer.containerID).isEmpty)
            let badAPNs = try await Self.request(server, .POST, "\(container)/settings/set-apns",
                                                 form: "csrf=\(csrf)&keyID=K&teamID=T&topic=app&privateKey=nope", cookie: token)
            #expect(badAPNs.status == 303)
            #expect(try await server.server.services.apns.credentials(containerID: TestServer.containerID) == nil)
        }
    }

    /// Names that need percent-encoding in a path are opened, disabled and deleted like any other.
    @Test func usersWhoseNamesArePercentEncodedAreManaged() async throws {
        let directory = TestServer.temporaryDirectory()
        try await TestServer.with(dataDirectory: directory) { server in
            let (token, csrf) = try await Self.administrator(server, directory: directory)
            let users = "/console/containers/\(TestServer.containerID)/users"
            for name in ["josé", "spam<>", "a%2Fb"] {
                let signedUp = try await server.anonymous.post("/auth/1/\(TestServer.containerID)/development/signup",
                                                               Credentials(username: name, password: "password-\(name)")).decode(SignInResponse.self)
                let user = Caller(server: server.endpoint, webAuthToken: signedUp.ckWebAuthToken, userRecordName: signedUp.userRecordName)
                let path = "\(users)/\(ConsoleRoutes.pathComponent(name))"
                let page = try await Self.request(server, .GET, path, cookie: token)
                #expect(page.status == 200 && page.text.contains(signedUp.userRecordName), "\(name): \(page.status) \(page.text.prefix(300))")
                _ = try await Self.request(server, .POST, "\(path)/disable", form: "csrf=\(csrf)", cookie: token)
                #expect(try await user.get(user.path(.private, "zones/list")).status == 401, "\(name): disabling ends the sessions")
                let confirm = name.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? name
                _ = try await Self.request(server, .POST, "\(path)/delete", form: "csrf=\(csrf)&confirm=\(confirm)", cookie: token)
                let stored = try await server.server.services.storage.read { try await $0.user(containerID: TestServer.containerID, username: name) }
                #expect(stored == nil, "\(name) is deleted")
            }
        }
    }

    @Test func usersAreManagedAndRecordsPagedCreatedAndDeletedWithTheAPIsRules() async throws {
        let directory = TestServer.temporaryDirectory()
        try await TestServer.with(dataDirectory: directory) { server in
            let (token, csrf) = try await Self.administrator(server, directory: directory)
            let signedUp = try await server.signUp("erin")
            let name = try #require(signedUp.username)
            let users = "/console/containers/\(TestServer.containerID)/users"

            // Search, disable (sessions end, sign-in refused), enable, reset the password.
            #expect(try await Self.request(server, .GET, "\(users)?search=\(name)", cookie: token).text.contains(name))
            #expect(!(try await Self.request(server, .GET, "\(users)?search=nobody-like-that", cookie: token).text.contains(name)))
            _ = try await Self.request(server, .POST, "\(users)/\(name)/disable", form: "csrf=\(csrf)", cookie: token)
            #expect(try await signedUp.get(signedUp.path(.private, "zones/list")).status == 401, "disabling ends the sessions")
            #expect(try await AdministrationTests.signIn(server, name, "password-erin").status == 401)
            _ = try await Self.request(server, .POST, "\(users)/\(name)/enable", form: "csrf=\(csrf)", cookie: token)
            _ = try await Self.request(server, .POST, "\(users)/\(name)/reset-password", form: "csrf=\(csrf)&password=a+new+password", cookie: token)
            let session = try await AdministrationTests.signIn(server, name, "a new password").decode(SignInResponse.self)
            let erin = Caller(server: server.endpoint, webAuthToken: session.ckWebAuthToken, userRecordName: session.userRecordName)

            // Records page by page (50 a page) through the data browser's next link.
            _ = try await erin.save((0..<60).map { .create(String(format: "n%02d", $0)) })
            let data = "/console/containers/\(TestServer.containerID)/data?environment=development&database=private&user=\(name)&zone=_defaultZone"
            let first = try await Self.request(server, .GET, data, cookie: token)
            #expect(first.text.contains(">n00<") && first.text.contains(">n49<") && !first.text.contains(">n50<"))
            let next = try #require(first.text.components(separatedBy: "href=\"").first { $0.hasPrefix("/console") && $0.contains("after=") }?
                .components(separatedBy: "\"").first?.replacingOccurrences(of: "&amp;", with: "&"))
            let second = try await Self.request(server, .GET, next, cookie: token)
            #expect(second.text.contains(">n50<") && second.text.contains(">n59<") && !second.text.contains(">n49<"), "\(second.text)")

            // A record made in the console, then deleted with a stale change tag: the API's conflict.
            let place = "environment=development&database=private&user=\(name)&zone=_defaultZone&csrf=\(csrf)"
            let unreadable = try await Self.request(server, .POST, "/console/containers/\(TestServer.containerID)/record",
                                                    form: "\(place)&op=create&recordType=Note&name=bad&newField=count&newType=INT64&newValue=many",
                                                    cookie: token)
            let refusal = try #require(unreadable.headers["Location"].first)
            #expect(unreadable.status == 303)
            let refusalPage = try await Self.request(server, .GET, refusal, cookie: token)
            #expect(refusalPage.text.contains("not a whole number"), "\(refusalPage.text)")
            #expect(try await erin.lookup(["bad"]).first?.record == nil, "a value that does not read creates nothing")
            let made = try await Self.request(server, .POST, "/console/containers/\(TestServer.containerID)/record",
                                              form: "\(place)&op=create&recordType=Note&name=fresh&newField=title&newType=STRING&newValue=Hello", cookie: token)
            #expect(made.status == 303)
            let fresh = try #require(try await erin.lookup(["fresh"]).first?.record)
            #expect(fresh.fields["title"] == .string("Hello"))
            _ = try await erin.save([RecordOperation(.update, Record(recordName: "fresh", recordChangeTag: fresh.recordChangeTag,
                                                                     fields: ["title": .string("Changed")]))])
            let stale = try await Self.request(server, .POST, "/console/containers/\(TestServer.containerID)/record",
                                               form: "\(place)&op=delete&name=fresh&changeTag=\(fresh.recordChangeTag!)", cookie: token)
            #expect(stale.status == 409 && stale.text.contains("CONFLICT") && stale.text.contains("Changed"), "\(stale.text)")
            #expect(try await erin.lookup(["fresh"]).first?.record != nil, "nothing was deleted")
        }
    }

    /// A record's history side by side, restoring a version and undeleting from the recycle bin,
    /// a loss alarm's link to restore its zone to before, and the audit log of each restore.
    @Test func historyRestoreUndeleteAndZoneRestoreFromTheLossAlarm() async throws {
        let directory = TestServer.temporaryDirectory()
        try await TestServer.with(dataDirectory: directory) { server in
            let (token, csrf) = try await Self.administrator(server, directory: directory)
            let erin = try await server.signUp("erin")
            let name = try #require(erin.username)
            let container = "/console/containers/\(TestServer.containerID)"
            let place = "environment=development&database=private&user=\(name)&zone=Notes"
            try await erin.createZone("Notes")
            let first = try await erin.save([.create("n", ["title": .string("First draft"), "words": .int64(2)])], zone: "Notes")[0]
            _ = try await erin.save([RecordOperation(.forceUpdate, Record(recordName: "n", fields: ["title": .string("Second draft"), "words": .int64(2)]))],
                                    zone: "Notes")

            let record = try await Self.request(server, .GET, "\(container)/record?\(place)&name=n", cookie: token)
            #expect(record.text.contains("id=\"history-link\""))
            let history = try await Self.request(server, .GET, "\(container)/history?\(place)&name=n", cookie: token)
            #expect(history.text.contains("<del>First draft</del> → <ins>Second draft</ins>"), "\(history.text)")
            #expect(!history.text.contains("words: <del>"), "an unchanged field is not listed")
            #expect(history.text.components(separatedBy: "class=\"restore-version\"").count == 2, "the older version is restorable")
            let current = try #require(try await erin.lookup(["n"], zone: "Notes").first?.record?.recordChangeTag)
            let restored = try await Self.request(server, .POST, "\(container)/history",
                                                  form: "\(place)&csrf=\(csrf)&op=restore&name=n&tag=\(first.recordChangeTag!)&current=\(current)", cookie: token)
            #expect(restored.status == 303)
            #expect(try await erin.lookup(["n"], zone: "Notes").first?.record?.fields["title"] == .string("First draft"))
            let stale = try await Self.request(server, .POST, "\(container)/history",
                                               form: "\(place)&csrf=\(csrf)&op=restore&name=n&tag=\(first.recordChangeTag!)&current=\(current)", cookie: token)
            #expect(stale.status == 400 && stale.text.contains("CONFLICT"), "a restore of a record changed since the page was shown is refused")

            // The recycle bin undeletes.
            _ = try await erin.save([RecordOperation(.forceDelete, Record(recordName: "n"))], zone: "Notes")
            let bin = try await Self.request(server, .GET, "\(container)/recovery?\(place)", cookie: token)
            let tombstone = try #require(bin.text.components(separatedBy: "name=\"tag\" value=\"").dropFirst().first?.components(separatedBy: "\"").first)
            let undeleted = try await Self.request(server, .POST, "\(container)/history",
                                                   form: "\(place)&csrf=\(csrf)&op=undelete&name=n&tag=\(tombstone)", cookie: token)
            #expect(undeleted.status == 303)
            #expect(try await erin.lookup(["n"], zone: "Notes").first?.record?.fields["title"] == .string("First draft"))

            // A device deletes most of a zone: the alarm links to its zone restore, the moment filled in.
            _ = try await erin.save((0..<120).map { .create("m\($0)") }, zone: "Notes")
            await server.advanceClock(by: .seconds(61))
            _ = try await erin.save((0..<100).map { RecordOperation(.forceDelete, Record(recordName: "m\($0)")) }, zone: "Notes")
            let activity = try await Self.request(server, .GET, "/console/activity", cookie: token)
            let link = try #require(activity.text.components(separatedBy: "<a href=\"").first { $0.contains("class=\"restore-zone\"") }?
                .components(separatedBy: "\"").first?.replacingOccurrences(of: "&amp;", with: "&"))
            let recovery = try await Self.request(server, .GET, link, cookie: token)
            #expect(recovery.text.contains("id=\"alarm-moment\""))
            let moment = try #require(recovery.text.components(separatedBy: "id=\"restore-moment\"").first?
                .components(separatedBy: "name=\"at\" value=\"").last?.components(separatedBy: "\"").first)
            let zoneRestored = try await Self.request(server, .POST, "\(container)/history",
                                                      form: "\(place)&csrf=\(csrf)&op=restoreZone&at=\(moment.replacingOccurrences(of: "+", with: "%2B"))",
                                                      cookie: token)
            #expect(zoneRestored.status == 303, "\(zoneRestored.text)")
            let notice = try await Self.request(server, .GET, try #require(zoneRestored.headers["Location"].first), cookie: token)
            #expect(notice.text.contains("100 records restored, 0 deleted"), "\(moment) \(notice.text)")
            #expect(try await erin.lookup((0..<120).map { "m\($0)" }, zone: "Notes").allSatisfy { $0.record != nil })

            let audit = try await server.server.services.admin.auditEntries().filter { $0.action == "history.restore" }
            #expect(audit.count == 3 && audit.allSatisfy { $0.actor == "root" }, "\(audit)")
        }
    }
}
