import Foundation
import StratusClient
import StratusSync
import StratusTesting
import Testing

/// Devices syncing the public database through its change feed (issue 66): a catalogue everyone
/// reads and its owner edits, drafts only their creator reads, sends where the roles allow with
/// the private database's conflict handling, and push.
@Suite struct PublicSyncTests {
    static let schema = """
        DEFINE SCHEMA
            RECORD TYPE Recipe (title STRING, modified TIMESTAMP, GRANT READ TO "_world", GRANT CREATE TO "_icloud", GRANT WRITE TO "_creator");
            RECORD TYPE Draft (title STRING, GRANT READ, WRITE TO "_creator", GRANT CREATE TO "_icloud");
        """

    static func recipe(_ name: String, _ title: String, at modified: Int64 = 0) -> CloudRecord {
        CloudRecord(recordType: "Recipe", recordID: RecordID(recordName: name), fields: ["title": .string(title), "modified": .timestamp(modified)])
    }

    static func names(_ device: TestDevice) async -> Set<String> {
        Set(await device.records().keys.map(\.recordName))
    }

    @Test func devicesSyncWhatTheyMayReadOfAPublicCatalogue() async throws {
        try await TestCloud.with { cloud in
            try await cloud.importSchema(Self.schema)
            let alice = try await cloud.createUser("alice"), bob = try await cloud.createUser("bob")
            let latest: @Sendable (inout SyncEngine.Configuration) -> Void = { $0.conflictResolver = .latestModified(field: "modified") }
            let phone = try await cloud.device("alice-phone", of: alice, database: .public, configure: latest)
            let laptop = try await cloud.device("alice-laptop", of: alice, database: .public, configure: latest)
            let reader = try await cloud.device("bob-phone", of: bob, database: .public)

            try await phone.save(Self.recipe("soup", "Soup"))
            try await phone.save(CloudRecord(recordType: "Draft", recordID: RecordID(recordName: "secret"), fields: ["title": .string("Mine")]))
            try await phone.sync()
            try await laptop.sync()
            try await reader.sync()
            #expect(await Self.names(laptop) == ["soup", "secret"])
            #expect(await Self.names(reader) == ["soup"])

            // Bob may create his own recipes, not change Alice's: that save is set aside.
            try await reader.save(Self.recipe("bread", "Bread"))
            try await reader.save(Self.recipe("soup", "Bob's soup"))
            try await reader.sync()
            let setAside = try await reader.engine.snapshot().setAsideChanges
            #expect(setAside.map(\.change.recordID.recordName) == ["soup"], "\(setAside.map(\.reason))")
            try await phone.sync()
            #expect(await phone.record(RecordID(recordName: "bread"))?.string("title") == "Bread")
            #expect(await phone.record(RecordID(recordName: "soup"))?.string("title") == "Soup")

            // Alice's devices edit the same recipe offline: the later edit wins everywhere, as in
            // the private database.
            try await phone.save(Self.recipe("soup", "Soup, phone", at: 10))
            try await laptop.save(Self.recipe("soup", "Soup, laptop, later", at: 20))
            try await laptop.sync()
            try await phone.sync()
            try await laptop.sync()
            for device in [phone, laptop] {
                #expect(await device.record(RecordID(recordName: "soup"))?.string("title") == "Soup, laptop, later")
            }

            // Bob hears of it by push (the engine subscribes to the public zone) and fetches.
            try await reader.sync()
            await reader.connectPush()
            try await phone.save(Self.recipe("soup", "Soup, final", at: 30))
            try await phone.sync()
            try await eventually("bob's device fetches the pushed change") {
                await reader.record(RecordID(recordName: "soup"))?.string("title") == "Soup, final"
            }
            // A deletion reaches him; the draft's deletion tells him nothing, and nothing is missing.
            try await phone.delete(RecordID(recordName: "soup"))
            try await phone.delete(RecordID(recordName: "secret"))
            try await phone.sync()
            try await reader.sync()
            #expect(await Self.names(reader) == ["bread"])
            try await laptop.sync()
            #expect(await Self.names(laptop) == ["bread"])
        }
    }
}
