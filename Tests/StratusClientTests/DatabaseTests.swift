import Foundation
import StratusClient
import StratusTesting
import Testing

/// The client's operations, through each transport it ships: AsyncHTTPClient, and URLSession
/// (FoundationNetworking here, the default on Apple platforms).
@Suite struct DatabaseTests {
    static let zone = ZoneID(zoneName: "Notes")

    static func note(_ name: String, _ title: String) -> CloudRecord {
        CloudRecord(recordType: "Note", recordID: RecordID(recordName: name, zoneID: zone), fields: ["title": .string(title)])
    }

    /// A lookup the server finds over its response budget is split until every part fits; an ID
    /// named twice is asked for once.
    @Test(.enabled(if: TestCloud.runsServerInProcess, "a response limit no serve option sets"), arguments: ClientTransport.allCases) func lookupsSplitWhenTheServerSaysTheyAreTooLarge(_ transport: ClientTransport) async throws {
        try await TestCloud.with(configure: { $0.maxResponseBytes = 300_000 }) { cloud in
            let alice = try await cloud.signUp("alice", transport: transport.make())
            let database = alice.privateCloudDatabase
            try await database.save(zone: Self.zone)
            let big = String(repeating: "b", count: 100_000)
            let ids = (0..<8).map { RecordID(recordName: "big\($0)", zoneID: Self.zone) }
            _ = try await database.modifyRecords(saving: ids.map { CloudRecord(recordType: "Note", recordID: $0, fields: ["body": .string(big)]) })
            let fetched = try await database.records(for: ids + [ids[0]])
            #expect(fetched.count == 8)
            #expect(try ids.allSatisfy { try fetched[$0]?.get().string("body") == big })
        }
    }

    /// `encryptedValues`, as CKRecord's: sent with `isEncrypted`, answered and fetched back
    /// encrypted (the server seals them; EncryptedFieldTests), and kept through an edit.
    @Test(arguments: ClientTransport.allCases) func encryptedValuesRoundTrip(_ transport: ClientTransport) async throws {
        try await TestCloud.with { cloud in
            let alice = try await cloud.signUp("alice", transport: transport.make())
            let database = alice.privateCloudDatabase
            try await database.save(zone: Self.zone)
            var note = Self.note("n1", "Hello")
            note.encryptedValues["secret"] = .string("the safe's code")
            #expect(note.encryptedKeys == ["secret"] && note.encryptedValues["title"] == nil)
            var saved = try await database.save(note)
            #expect(saved.encryptedKeys == ["secret"] && saved.encryptedValues["secret"] == .string("the safe's code"))
            saved["title"] = .string("Hello again")
            _ = try await database.save(saved)
            let fetched = try await database.record(for: note.recordID)
            #expect(fetched.encryptedValues["secret"] == .string("the safe's code") && fetched.string("title") == "Hello again")
            var removed = fetched
            removed.encryptedValues["secret"] = nil
            #expect(try await database.save(removed).encryptedKeys.isEmpty)
        }
    }

    /// A reset key (``TestCloud/resetEncryptedDataKey(of:)``) answers as CloudKit does, and the
    /// app recovers as it would there: it deletes the zone and uploads its records again.
    @Test(.enabled(if: TestCloud.runsServerInProcess, "the server's keys are reached in process")) func aResetKeyIsReportedAndTheAppRecovers() async throws {
        try await TestCloud.with { cloud in
            let alice = try await cloud.signUp("alice")
            let database = alice.privateCloudDatabase
            try await database.save(zone: Self.zone)
            var note = Self.note("n1", "Hello")
            note.encryptedValues["secret"] = .string("the safe's code")
            _ = try await database.save(note)
            try await cloud.resetEncryptedDataKey(of: try #require(await alice.userRecordName))
            let error = try await #require(throws: CloudError.self) { try await database.record(for: note.recordID) }
            #expect(error.code == .zoneNotFound && error.userDidResetEncryptedDataKey, "\(error)")
            #expect(try await database.save(Self.note("n2", "plain")).string("title") == "plain", "what holds no encrypted field still reads")
            try await database.deleteRecordZone(withID: Self.zone)
            try await database.save(zone: Self.zone)
            _ = try await database.save(note)
            #expect(try await database.record(for: note.recordID).encryptedValues["secret"] == .string("the safe's code"))
        }
    }

    @Test(arguments: ClientTransport.allCases) func saveFetchAndConflict(_ transport: ClientTransport) async throws {
        try await TestCloud.with { cloud in
            let alice = try await cloud.signUp("alice", transport: transport.make())
            let database = alice.privateCloudDatabase
            try await database.save(zone: Self.zone)
            var saved = try await database.save(Self.note("n1", "Hello"))
            #expect(saved.changeTag != nil && saved.changedKeys.isEmpty)

            let fetched = try await database.record(for: saved.recordID)
            #expect(fetched.string("title") == "Hello")

            saved["title"] = .string("Hello, world")
            saved["pinned"] = .int64(1)
            let updated = try await database.save(saved)
            #expect(updated.string("title") == "Hello, world" && updated.int64("pinned") == 1)

            // The fetched copy is now stale: saving it is a conflict carrying all three records.
            var stale = fetched
            stale["title"] = .string("Stale")
            let error = try await #require(throws: CloudError.self) { try await database.save(stale) }
            #expect(error.code == .serverRecordChanged)
            #expect(error.serverRecord?.string("title") == "Hello, world")
            #expect(error.clientRecord?.string("title") == "Stale")
            #expect(error.ancestorRecord?.string("title") == "Hello")

            // A new record whose name is taken is a conflict too.
            let taken = try await #require(throws: CloudError.self) { try await database.save(Self.note("n1", "again")) }
            #expect(taken.code == .serverRecordChanged)
        }
    }

    @Test(arguments: ClientTransport.allCases) func savePolicies(_ transport: ClientTransport) async throws {
        try await TestCloud.with { cloud in
            let database = try await cloud.signUp("alice", transport: transport.make()).privateCloudDatabase
            try await database.save(zone: Self.zone)
            var first = try await database.save(Self.note("n", "one"))
            first["extra"] = .string("kept?")
            _ = try await database.save(first)

            // changedKeys: only the changed key is sent, whatever the tag.
            var changed = CloudRecord(systemFields: try #require(first.systemFields))
            changed["title"] = .string("two")
            let afterChanged = try await database.save(changed, savePolicy: .changedKeys)
            #expect(afterChanged.string("title") == "two" && afterChanged.string("extra") == "kept?")

            // allKeys: the record replaces the server's, fields it lacks are gone.
            let replacing = CloudRecord(systemFields: try #require(first.systemFields), fields: ["title": .string("three")])
            let afterAll = try await database.save(replacing, savePolicy: .allKeys)
            #expect(afterAll.string("title") == "three" && afterAll["extra"] == nil)
        }
    }

    @Test(arguments: ClientTransport.allCases) func batchesAtomicAndPartial(_ transport: ClientTransport) async throws {
        try await TestCloud.with { cloud in
            let database = try await cloud.signUp("alice", transport: transport.make()).privateCloudDatabase
            try await database.save(zone: Self.zone)
            let bad = CloudRecord(recordType: "Note", recordID: RecordID(recordName: "_bad", zoneID: Self.zone))
            let atomic = try await database.modifyRecords(saving: [Self.note("a", "A"), bad])
            #expect(try #require(atomic.saveResults[RecordID(recordName: "a", zoneID: Self.zone)]).error?.code == .batchRequestFailed)
            #expect(try #require(atomic.saveResults[bad.recordID]).error?.code == .invalidArguments)

            let partial = try await database.modifyRecords(saving: [Self.note("a", "A"), bad], atomically: false)
            #expect((try? partial.saveResults[RecordID(recordName: "a", zoneID: Self.zone)]?.get()) != nil)
            #expect(try #require(partial.saveResults[bad.recordID]).error?.code == .invalidArguments)

            let deleted = try await database.modifyRecords(saving: [], deleting: [RecordID(recordName: "a", zoneID: Self.zone)])
            #expect((try? deleted.deleteResults[RecordID(recordName: "a", zoneID: Self.zone)]?.get()) != nil)
            let missing = try await #require(throws: CloudError.self) {
                try await database.record(for: RecordID(recordName: "a", zoneID: Self.zone))
            }
            #expect(missing.code == .unknownItem)
        }
    }

    @Test(arguments: ClientTransport.allCases) func zonesAndChangeFeeds(_ transport: ClientTransport) async throws {
        try await TestCloud.with { cloud in
            let database = try await cloud.signUp("alice", transport: transport.make()).privateCloudDatabase
            let missing = try await #require(throws: CloudError.self) { try await database.save(Self.note("x", "x")) }
            #expect(missing.code == .zoneNotFound)

            try await database.save(zone: Self.zone)
            try await database.save(zone: ZoneID(zoneName: "Other"))
            #expect(Set(try await database.allRecordZones().map(\.zoneID.zoneName)).isSuperset(of: ["Notes", "Other"]))
            let zones = try await database.databaseChanges(since: nil)
            #expect(zones.modifications.map(\.zoneName).contains("Notes"))

            _ = try await database.modifyRecords(saving: (0..<5).map { Self.note("n\($0)", "\($0)") })
            var token: ServerChangeToken?
            var seen: [String] = []
            var pages = 0
            repeat {
                let page = try await database.recordZoneChanges(inZoneWith: Self.zone, since: token, resultsLimit: 2)
                seen += page.modifications.map(\.recordID.recordName)
                token = page.changeToken
                pages += 1
                if !page.moreComing { break }
            } while true
            #expect(seen == ["n0", "n1", "n2", "n3", "n4"] && pages == 3)

            try await database.deleteRecord(withID: RecordID(recordName: "n2", zoneID: Self.zone))
            let after = try await database.recordZoneChanges(inZoneWith: Self.zone, since: token)
            #expect(after.deletions.map(\.recordID.recordName) == ["n2"] && after.modifications.isEmpty)

            try await database.deleteRecordZone(withID: ZoneID(zoneName: "Other"))
            let zoneChanges = try await database.databaseChanges(since: zones.changeToken)
            #expect(zoneChanges.deletions.map(\.zoneName) == ["Other"])
        }
    }

    @Test(arguments: ClientTransport.allCases) func queriesPage(_ transport: ClientTransport) async throws {
        try await TestCloud.with { cloud in
            try await cloud.importSchema("DEFINE SCHEMA RECORD TYPE Item (rank INT64 QUERYABLE SORTABLE, kind STRING QUERYABLE);")
            let database = try await cloud.signUp("alice", transport: transport.make()).privateCloudDatabase
            try await database.save(zone: Self.zone)
            _ = try await database.modifyRecords(saving: (0..<7).map {
                CloudRecord(recordType: "Item", recordID: RecordID(recordName: "i\($0)", zoneID: Self.zone),
                            fields: ["rank": .int64(Int64($0)), "kind": .string($0 % 2 == 0 ? "even" : "odd")])
            })
            let query = CloudQuery(recordType: "Item", filterBy: [QueryFilter(.equals, fieldName: "kind", .string("even"))],
                              sortBy: [QuerySort(fieldName: "rank", ascending: false)])
            var (records, cursor) = try await database.records(matching: query, inZoneWith: Self.zone, resultsLimit: 3)
            var names = records.map(\.recordID.recordName)
            while let next = cursor {
                (records, cursor) = try await database.records(continuingMatchFrom: next, resultsLimit: 3)
                names += records.map(\.recordID.recordName)
            }
            #expect(names == ["i6", "i4", "i2", "i0"])

            // A nil zone searches every zone; each record comes back with its own zone.
            _ = try await database.modifyRecords(saving: [CloudRecord(recordType: "Item", recordID: RecordID(recordName: "d"),
                                                                      fields: ["rank": .int64(9), "kind": .string("even")])])
            (records, cursor) = try await database.records(matching: query, inZoneWith: nil, resultsLimit: 2)
            var ids = records.map(\.recordID)
            while let next = cursor {
                (records, cursor) = try await database.records(continuingMatchFrom: next, resultsLimit: 2)
                ids += records.map(\.recordID)
            }
            #expect(ids == [RecordID(recordName: "d")] + [6, 4, 2, 0].map { RecordID(recordName: "i\($0)", zoneID: Self.zone) })
        }
    }

    @Test(arguments: ClientTransport.allCases) func assetsUploadOnSaveAndDownloadOnFetch(_ transport: ClientTransport) async throws {
        try await TestCloud.with { cloud in
            let files = FileManager.default.temporaryDirectory.appendingPathComponent("stratus-client-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: files) }
            try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
            let source = files.appendingPathComponent("text.txt")
            let text = String(repeating: "A note kept as an asset. ", count: 20_000)
            try Data(text.utf8).write(to: source)

            let alice = try await cloud.signUp("alice", transport: transport.make(), assetCacheDirectory: files.appendingPathComponent("cache"))
            let database = alice.privateCloudDatabase
            try await database.save(zone: Self.zone)
            var note = Self.note("with-file", "File")
            note.setAsset(fileURL: source, forKey: "text")
            let saved = try await database.save(note)
            #expect(saved.asset("text")?.size == Int64(text.utf8.count))

            let fetched = try await database.record(for: note.recordID)
            let file = try #require(fetched.assetFiles["text"])
            #expect(try String(contentsOf: file, encoding: .utf8) == text)
        }
    }

    @Test(arguments: ClientTransport.allCases) func archivedSystemFieldsKeepTheChangeTag(_ transport: ClientTransport) async throws {
        try await TestCloud.with { cloud in
            let database = try await cloud.signUp("alice", transport: transport.make()).privateCloudDatabase
            try await database.save(zone: Self.zone)
            let saved = try await database.save(Self.note("n", "v1"))
            let archive = try #require(saved.systemFields).archived()

            var restored = CloudRecord(systemFields: try RecordSystemFields(archived: archive))
            restored["title"] = .string("v2")
            #expect(try await database.save(restored).string("title") == "v2")
            // The same archive is now stale.
            var again = CloudRecord(systemFields: try RecordSystemFields(archived: archive))
            again["title"] = .string("v3")
            await #expect(throws: CloudError.self) { try await database.save(again) }
        }
    }

    @Test(arguments: ClientTransport.allCases) func errorsAreTyped(_ transport: ClientTransport) async throws {
        try await TestCloud.with { cloud in
            let anonymous = await cloud.container(transport: transport.make())
            let notSignedIn = try await #require(throws: CloudError.self) { try await anonymous.privateCloudDatabase.allRecordZones() }
            #expect(notSignedIn.code == .notAuthenticated)

            let alice = try await cloud.signUp("alice", transport: transport.make())
            await cloud.stopServer()
            // A connection kept alive from before may be closed under the request (networkFailure:
            // the client cannot know whether the server applied it); a new connection is refused.
            var codes: [CloudError.Code] = []
            while codes.last != .networkUnavailable && codes.count < 5 {
                codes.append(try await #require(throws: CloudError.self) { try await alice.privateCloudDatabase.allRecordZones() }.code)
            }
            #expect(codes.last == .networkUnavailable && codes.allSatisfy { $0 == .networkUnavailable || $0 == .networkFailure }, "\(codes)")
            try await cloud.startServer()
            #expect(try await alice.privateCloudDatabase.allRecordZones().contains { $0.zoneID.isDefaultZone })
        }
    }

    /// Literals and dates are field values of CloudKit's types, and come back from the server as such.
    @Test func literalsAndDatesAreCloudKitTypes() async throws {
        try await TestCloud.with { cloud in
            let database = try await cloud.signUp("alice").privateCloudDatabase
            try await database.save(zone: Self.zone)
            let due = Date(timeIntervalSince1970: 1_795_000_000.1234)
            var note = CloudRecord(recordType: "Note", recordID: RecordID(recordName: "typed", zoneID: Self.zone))
            note["title"] = "Hello"
            note["count"] = 3
            note["ratio"] = 0.5
            note["done"] = true
            note["due"] = .date(due)
            note["tags"] = .strings(["a", "b"])
            _ = try await database.save(note)

            let fetched = try await database.record(for: note.recordID)
            #expect(fetched["title"] == .string("Hello") && fetched["count"] == .int64(3) && fetched["ratio"] == .double(0.5))
            #expect(fetched["done"] == .int64(1) && fetched.bool("done") == true)
            #expect(fetched["due"] == .timestamp(1_795_000_000_123) && fetched.date("due") == Date(timeIntervalSince1970: 1_795_000_000.123))
            #expect(fetched.strings("tags") == ["a", "b"])
        }
    }

    /// A file to upload that is not there is `assetFileNotFound`, before anything is sent.
    @Test(arguments: ClientTransport.allCases) func aMissingAssetFileIsReported(_ transport: ClientTransport) async throws {
        try await TestCloud.with { cloud in
            let database = try await cloud.signUp("alice", transport: transport.make()).privateCloudDatabase
            try await database.save(zone: Self.zone)
            var note = Self.note("with-file", "File")
            note.setAsset(fileURL: URL(fileURLWithPath: "/nonexistent/\(UUID().uuidString)"), forKey: "text")
            let error = try await #require(throws: CloudError.self) { try await database.save(note) }
            #expect(error.code == .assetFileNotFound)
            #expect(try await database.records(for: [note.recordID])[note.recordID]?.error?.code == .unknownItem)
        }
    }

    /// An answer over the transport's bound fails the exchange; an asset larger than the bound
    /// still downloads, since it streams to its file.
    @Test(arguments: ClientTransport.allCases) func answersAreBoundedButDownloadsStream(_ transport: ClientTransport) async throws {
        try await TestCloud.with { cloud in
            let files = FileManager.default.temporaryDirectory.appendingPathComponent("stratus-client-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: files) }
            try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
            let source = files.appendingPathComponent("big.bin")
            try Data((0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }).write(to: source)

            let alice = try await cloud.signUp("alice", transport: transport.make())
            try await alice.privateCloudDatabase.save(zone: Self.zone)
            var note = Self.note("big", String(repeating: "t", count: 50_000))
            note.setAsset(fileURL: source, forKey: "file")
            _ = try await alice.privateCloudDatabase.save(note)

            let bounded = await cloud.container(transport: transport.make(maximumResponseBytes: 20_000))
            await bounded.restoreSession(webAuthToken: try #require(await alice.webAuthToken))
            let tooLarge = try await #require(throws: CloudError.self) { try await bounded.privateCloudDatabase.record(for: note.recordID) }
            #expect(tooLarge.code == .networkFailure)

            let fetched = try await alice.privateCloudDatabase.record(for: note.recordID)
            let copy = files.appendingPathComponent("copy.bin")
            try await bounded.privateCloudDatabase.downloadAsset(try #require(fetched.asset("file")), to: copy)
            #expect(try Data(contentsOf: copy) == Data(contentsOf: source))
        }
    }
}

/// A transport the client ships, for tests that run through each.
enum ClientTransport: String, CaseIterable, CustomTestStringConvertible {
    case asyncHTTPClient, urlSession

    func make(maximumResponseBytes: Int = TransportResponse.defaultMaximumBytes) -> any Transport {
        switch self {
        case .asyncHTTPClient: HTTPTransport(maximumResponseBytes: maximumResponseBytes)
        case .urlSession: URLSessionTransport(maximumResponseBytes: maximumResponseBytes)
        }
    }

    var testDescription: String { rawValue }
}

extension Result {
    var error: Failure? { if case .failure(let error) = self { error } else { nil } }
}
