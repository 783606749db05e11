import Foundation
import StratusClient
import StratusTesting
import Testing

/// The Swift blocks of the README and the guides, run as written against the real server
/// (`Generated/`, made from the guides by `scripts/lib/doc_blocks.py`), and what each should have
/// left there. The Swift files the guides show whole (a test among them) are compiled beside these.
@Suite struct GuideTests {
    static let password = "correct horse battery"

    /// Runs a block with a fresh server, then `check` with `username` signed in on another
    /// container; `username` is signed up first for a block that signs in.
    static func run(_ block: (Guide) async throws -> Void, as username: String = "alice", signingUp: Bool = true,
                    then check: (Container) async throws -> Void) async throws {
        try await TestCloud.with { cloud in
            let guide = try await Guide(cloud)
            defer { guide.remove() }
            let checker = await cloud.container(deviceID: "checker")
            if signingUp { try await checker.signUp(username: username, password: password) }
            try await block(guide)
            try await checker.signIn(username: username, password: password)
            try await check(checker)
        }
    }

    static func records(in zone: String, of container: Container) async throws -> [String: CloudRecord] {
        let changes = try await container.privateCloudDatabase.recordZoneChanges(inZoneWith: ZoneID(zoneName: zone), since: nil)
        return Dictionary(uniqueKeysWithValues: changes.modifications.map { ($0.recordID.recordName, $0) })
    }

    /// README, "Your first synced app": the row inserted is a Note record in the user's private database.
    @Test func readmeFirstApp() async throws {
        try await Self.run(GuideBlocks.firstApp, signingUp: false) { alice in
            let notes = try await Self.records(in: "StratusData", of: alice)
            #expect(notes.count == 1 && notes.values.first?.recordType == "Note" && notes.values.first?.string("text") == "Buy milk")
        }
    }

    /// Getting started, "Talk to the server": bob's zone and record.
    @Test func gettingStartedClient() async throws {
        try await Self.run(GuideBlocks.client, as: "bob", signingUp: false) { bob in
            let records = try await Self.records(in: "Notes", of: bob)
            #expect(records["first"]?.string("text") == "Hello", "\(records)")
        }
    }

    /// Getting started, "Keep a table in sync": the launch code sends the note it writes.
    @Test func gettingStartedLaunch() async throws {
        try await Self.run(GuideBlocks.launch) { alice in
            let records = try await Self.records(in: "StratusData", of: alice)
            #expect(records["groceries"]?.string("text") == "Buy milk", "\(records)")
        }
    }

    /// The SDK guide's client: a record with its asset uploaded.
    @Test func sdkClient() async throws {
        try await Self.run(GuideBlocks.sdkClient) { alice in
            let note = try #require(try await Self.records(in: "Notes", of: alice)["n1"])
            #expect(note.string("title") == "Hello" && note.asset("body") != nil)
        }
    }

    /// The SDK guide's sync engine: the note queued is on the server.
    @Test func sdkEngine() async throws {
        try await Self.run(GuideBlocks.sdkEngineUse) { alice in
            let records = try await Self.records(in: "Notes", of: alice)
            #expect(records["n2"]?.string("title") == "Buy milk", "\(records)")
        }
    }

    /// The SDK guide's TestCloud block (it checks what it expects itself).
    @Test func sdkTestCloud() async throws {
        try await Self.run(GuideBlocks.sdkTestcloud) { _ in }
    }
}
