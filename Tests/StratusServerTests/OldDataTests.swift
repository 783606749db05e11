import Foundation
import Testing
import StratusCore
@testable import StratusServer
import StratusTesting

/// Data written by an earlier build opens and is served by this one: the storage seam may change
/// shape, the rows on disk may not.
@Suite struct OldDataTests {
    /// A data directory, and a PostgreSQL database (`pg_dump --inserts`), that the release build
    /// of `e0afcd8` (the last commit before the storage seam was split into stores over a shared
    /// SQL layer; its storage is `6fbf35d`'s) wrote through its HTTP API, the same on both: user
    /// `fixture-alice`, zone `Notes` with `note-1` (text, number, list, an asset file), `note-2`
    /// (a reference to `note-1`), a deleted `gone`, and a zone subscription; `MS56LjIuNg` is the
    /// zone's change token after those writes.
    static let fixture = FixtureStore(build: "e0afcd8")
    static let tokenBeforeTheRedesign = "MS56LjIuNg"

    /// On SQLite, the data directory; in the PostgreSQL run, the database.
    @Test func dataWrittenBeforeTheStorageRedesignOpensAndServes() async throws {
        let directory = try await Self.fixture.copy()
        defer { try? FileManager.default.removeItem(at: directory) }
        try await TestServer.with(dataDirectory: directory) { server in
            let signIn = try await server.anonymous.post("/auth/1/\(TestServer.containerID)/development/signin",
                                                         Credentials(username: "fixture-alice", password: "fixture password"))
                .decode(SignInResponse.self)
            let alice = Caller(server: server.endpoint, webAuthToken: signIn.ckWebAuthToken, userRecordName: signIn.userRecordName,
                               username: "fixture-alice")

            let lookup = try await alice.post(alice.path(.private, "records/lookup"),
                                              json: #"{"zoneID":{"zoneName":"Notes"},"records":[{"recordName":"note-1"},{"recordName":"note-2"},{"recordName":"gone"}]}"#)
            #expect(lookup.status == 200)
            for expected in [#""title":{"value":"Written before the redesign","type":"STRING"}"#, #""count":{"value":42,"type":"INT64"}"#,
                             #""tags":{"value":["a","b"],"type":"STRING_LIST"}"#, #""recordName":"note-1","action":"DELETE_SELF""#,
                             #""serverErrorCode":"NOT_FOUND""#] {
                #expect(lookup.text.contains(expected), "the lookup answers \(expected): \(lookup.text)")
            }
            let download = try #require(AuthorizationMatrixTests.downloadURLs(in: lookup).first)
            let file = try await alice.download(download)
            #expect(String(decoding: file.body, as: UTF8.self) == "fixture asset bytes written by the e0afcd8 build")

            let subscriptions = try await alice.get(alice.path(.private, "subscriptions/list"))
            #expect(subscriptions.text.contains(#""subscriptionID":"notes""#), "\(subscriptions.text)")

            // A device's token from before still holds: nothing new, then the next write.
            let unchanged = try #require(try await alice.zoneChanges("Notes", token: Self.tokenBeforeTheRedesign).changes)
            #expect(unchanged.records.isEmpty)
            _ = try await alice.save([.create("note-3")], zone: "Notes")
            let changed = try #require(try await alice.zoneChanges("Notes", token: Self.tokenBeforeTheRedesign).changes)
            #expect(changed.records.map(\.recordName) == ["note-3"])
        }
    }
}
