import Foundation
import GRDB
import StratusClient
import StratusHarness
import StratusSync
import StratusTesting
import Testing

/// The Notes app, run as a real child process, killed with `SIGKILL` at each named crash point
/// (a ``SyncMoment``, armed through ``ProcessHarness``) and started again on the same files: nothing committed is lost, nothing is
/// applied twice, and no fetched change comes back as a change to send.
@Suite struct CrashWindowTests {
    /// The built `notes` binary next to the test bundle (`swift build` builds it).
    static var notes: String {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("notes").path
    }

    struct App {
        let root: URL

        /// Runs `notes` for a device; killed at `crashPoint` if one is given (and must be).
        @discardableResult
        func run(_ device: String, _ arguments: [String], crashingAt crashPoint: SyncMoment? = nil) async throws -> String {
            let (status, output) = try await ChildProcess.run(CrashWindowTests.notes, arguments + ["--device", directory(device).path],
                                                              environment: crashPoint.map { [ProcessHarness.crashMomentVariable: $0.rawValue] } ?? [:])
            if crashPoint != nil {
                #expect(status == 128 + SIGKILL, "notes \(arguments) should have been killed at \(crashPoint!.rawValue): \(output)")
            } else {
                #expect(status == 0, "notes \(arguments): \(output)")
            }
            return output
        }

        func directory(_ device: String) -> URL { root.appendingPathComponent(device) }

        /// The device's stored change token of the note's zone.
        func zoneToken(_ device: String) throws -> String? {
            let queue = try DatabaseQueue(path: directory(device).appendingPathComponent("notes.sqlite").path)
            return try queue.read { try String.fetchOne($0, sql: "SELECT token FROM _stratus_sync_private_tokens WHERE scope = 'zone::note-zone'") }
        }
    }

    static func withApp(_ body: @Sendable (App, Container) async throws -> Void) async throws {
        try await TestCloud.with { cloud in
            let user = try await cloud.createUser("alice")
            let app = App(root: cloud.root.appendingPathComponent("notes-devices"))
            let (url, token) = (await cloud.baseURL, await cloud.apiToken)
            for device in ["phone", "laptop"] {
                try await app.run(device, ["setup", "--server", url, "--container", TestCloud.containerID, "--api-token", token,
                                           "--user", user, "--password", "password-\(user)"])
            }
            let observer = await cloud.container(deviceID: "observer")
            try await observer.signIn(username: user, password: "password-\(user)")
            try await body(app, observer)
        }
    }

    @Test func aChangeCommittedJustBeforeTheAppIsKilledIsSentAfterRelaunch() async throws {
        try await Self.withApp { app, _ in
            try await app.run("phone", ["edit", "Buy milk"], crashingAt: .localChangeCommitted)
            #expect(try await app.run("phone", ["show"]).contains("Buy milk\n(not synced yet)"))
            try await app.run("phone", ["sync"])
            #expect(try await app.run("laptop", ["sync"]).contains("Buy milk"))
        }
    }

    @Test func aPageFetchedButNotYetAppliedIsFetchedAgain() async throws {
        try await Self.withApp { app, _ in
            try await app.run("phone", ["edit", "Buy milk"])
            try await app.run("laptop", ["sync"], crashingAt: .fetchedPageArrived)
            #expect(try await app.run("laptop", ["show"]).contains("(no note yet)"))
            #expect(try app.zoneToken("laptop") == nil, "the page's token was not stored without the page")
            #expect(try await app.run("laptop", ["sync"]).contains("Buy milk"))
        }
    }

    @Test func aPageAppliedIsStoredWithItsTokenAndNotSentBack() async throws {
        try await Self.withApp { app, observer in
            try await app.run("phone", ["edit", "Buy milk"])
            try await app.run("laptop", ["sync"], crashingAt: .fetchedPageCommitted)
            let shown = try await app.run("laptop", ["show"])
            #expect(shown.contains("Buy milk") && !shown.contains("not synced yet"), "applied, and not queued to be sent back: \(shown)")
            // The stored token is the page's: fetching from it brings nothing to apply again.
            let token = try #require(try app.zoneToken("laptop"))
            let again = try await observer.privateCloudDatabase.recordZoneChanges(inZoneWith: ZoneID(zoneName: "note-zone"),
                                                                                since: ServerChangeToken(rawValue: token))
            #expect(again.modifications.isEmpty && again.deletions.isEmpty)
        }
    }

    @Test func aBatchTheServerSavedBeforeTheAppWasKilledIsSettledOnRelaunch() async throws {
        try await Self.withApp { app, observer in
            try await app.run("phone", ["edit", "Buy milk"], crashingAt: .sentBatchAnswered)
            #expect(try await app.run("phone", ["show"]).contains("(not synced yet)"), "the outcome was not recorded")
            try await app.run("phone", ["sync"])
            #expect(!(try await app.run("phone", ["show"]).contains("not synced yet")))
            #expect(try await app.run("laptop", ["sync"]).contains("Buy milk"))
            let records = try await observer.privateCloudDatabase.recordZoneChanges(inZoneWith: ZoneID(zoneName: "note-zone"), since: nil)
            #expect(records.modifications.count == 1, "one note on the server, not two")
        }
    }
}
