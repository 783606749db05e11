import Foundation
import StratusClient
import StratusTesting
import Testing

/// Record history through the SDK (`CloudDatabase.history(of:)`, `restore(_:toVersion:)`,
/// `deletedRecords(in:)`, `restoreZone(_:to:)`), against the real server.
@Suite struct HistoryClientTests {
    static let zone = ZoneID(zoneName: "Notes")

    static func note(_ name: String, _ text: String) -> CloudRecord {
        CloudRecord(recordType: "Note", recordID: RecordID(recordName: name, zoneID: zone), fields: ["text": .string(text)])
    }

    @Test func aVersionIsRestoredAndADeletedRecordComesBackFromTheBin() async throws {
        try await TestCloud.with { cloud in
            let alice = try await cloud.signUp("alice")
            let user = try #require(await alice.userRecordName)
            let database = alice.privateCloudDatabase
            try await database.save(zone: Self.zone)
            let first = try await database.save(Self.note("n", "first"))
            var edited = first
            edited["text"] = .string("second")
            let second = try await database.save(edited)

            let versions = try await database.history(of: first.recordID)
            #expect(versions.map(\.changeTag) == [second.changeTag, first.changeTag].compactMap { $0 })
            #expect(versions.map { $0.fields["text"] } == [.string("second"), .string("first")])
            #expect(versions.allSatisfy { !$0.isDeleted && $0.modified?.userRecordName == user })
            #expect(try await database.history(of: first.recordID, limit: 1).map(\.changeTag) == [second.changeTag])

            await #expect(throws: CloudError.self) {
                _ = try await database.restore(first.recordID, toVersion: first.changeTag!, ifCurrentChangeTag: first.changeTag)
            }
            let (restored, cascaded) = try await database.restore(first.recordID, toVersion: first.changeTag!, ifCurrentChangeTag: second.changeTag)
            #expect(restored.string("text") == "first" && restored.changeTag != first.changeTag && cascaded.isEmpty)

            try await database.deleteRecord(withID: restored.recordID)
            let bin = try await database.deletedRecords(in: Self.zone)
            #expect(bin.map(\.recordID) == [restored.recordID] && bin[0].deleted.userRecordName == user)
            let kept = try #require(try await database.history(of: restored.recordID).first { !$0.isDeleted })
            let undeleted = try await database.restore(restored.recordID, toVersion: kept.changeTag).restored
            #expect(undeleted.string("text") == "first")
            #expect(try await database.record(for: restored.recordID).string("text") == "first")
            #expect(try await database.deletedRecords(in: Self.zone).isEmpty)
        }
    }

    @Test func aZoneIsRestoredToAMoment() async throws {
        try await TestCloud.with { cloud in
            let alice = try await cloud.signUp("alice")
            let database = alice.privateCloudDatabase
            try await database.save(zone: Self.zone)
            let kept = try await database.modifyRecords(saving: [Self.note("a", "a1"), Self.note("b", "b1")]).saveResults
            #expect(kept.values.allSatisfy { (try? $0.get()) != nil })
            let moment = Date()
            try await Task.sleep(for: .milliseconds(20))
            var changed = try await database.record(for: RecordID(recordName: "a", zoneID: Self.zone))
            changed["text"] = .string("a2")
            _ = try await database.modifyRecords(saving: [changed, Self.note("c", "c1")], deleting: [RecordID(recordName: "b", zoneID: Self.zone)])

            let summary = try await database.restoreZone(Self.zone, to: moment)
            #expect(Set(summary.restored.map(\.recordName)) == ["a", "b"] && summary.deleted.map(\.recordName) == ["c"] && summary.failures.isEmpty)
            let records = try await database.records(for: ["a", "b", "c"].map { RecordID(recordName: $0, zoneID: Self.zone) })
            #expect(records.values.compactMap { try? $0.get().string("text") }.sorted() == ["a1", "b1"])
            let again = try await database.restoreZone(Self.zone, to: moment)
            #expect(again.restored.isEmpty && again.deleted.isEmpty)
        }
    }
}
