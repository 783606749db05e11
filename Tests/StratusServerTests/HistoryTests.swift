import Foundation
import Testing
import StratusCore
@testable import StratusServer

/// Record history (issue 65) through real HTTP, on the backend the suite runs on: kept versions,
/// the recycle bin, restore as a forward change, purge, retention and who may.
@Suite struct HistoryTests {
    @Test func versionsAreListedNewestFirstAndPaged() async throws {
        try await TestServer.with { server in
            let alice = try await server.signUp("alice")
            try await alice.createZone("Notes")
            var tags = [try await alice.save([.create("n", ["text": .string("v0")])], zone: "Notes")[0].recordChangeTag!]
            for version in 1...5 {
                let saved = try await alice.save([RecordOperation(.update, Record(recordName: "n", recordChangeTag: tags.last,
                                                                                   fields: ["text": .string("v\(version)")]))], zone: "Notes")
                tags.append(saved[0].recordChangeTag!)
            }
            let whole = try await alice.history("n", zone: "Notes")
            #expect(whole.versions.map(\.recordChangeTag) == tags.reversed())
            #expect(whole.versions.map { $0.fields["text"] } == (0...5).reversed().map { .string("v\($0)") })
            #expect(whole.versions.allSatisfy { $0.deleted == false && $0.modified?.userRecordName == alice.userRecordName })
            #expect(whole.versions.allSatisfy { $0.recordName == nil && $0.created == nil && $0.recordType == "Note" })
            #expect(whole.continuationMarker == nil)

            var paged: [String] = []
            var marker: String?
            repeat {
                let page = try await alice.history("n", zone: "Notes", limit: 4, marker: marker)
                paged += page.versions.compactMap(\.recordChangeTag)
                marker = page.continuationMarker
                #expect(page.versions.count <= 4)
            } while marker != nil
            #expect(paged == tags.reversed())
        }
    }

    @Test func restoreIsANewSaveThatDevicesFetch() async throws {
        try await TestServer.with { server in
            let alice = try await server.signUp("alice")
            try await alice.createZone("Notes")
            let first = try await alice.save([.create("n", ["text": .string("kept")])], zone: "Notes")[0]
            let second = try await alice.save([RecordOperation(.update, Record(recordName: "n", recordChangeTag: first.recordChangeTag,
                                                                                fields: ["text": .string("mistake")]))], zone: "Notes")[0]
            let token = try await alice.allZoneChanges("Notes").token

            let stale = try await alice.restore([.init(recordName: "n", recordChangeTag: first.recordChangeTag!,
                                                       expectedCurrentChangeTag: first.recordChangeTag)], zone: "Notes")
            #expect(stale.records[0].error?.serverErrorCode == .conflict)
            #expect(stale.records[0].error?.serverRecord?.recordChangeTag == second.recordChangeTag)

            let restored = try await alice.restore([.init(recordName: "n", recordChangeTag: first.recordChangeTag!,
                                                          expectedCurrentChangeTag: second.recordChangeTag)], zone: "Notes")
            let record = try #require(restored.records[0].record, "\(restored)")
            #expect(record.fields["text"] == .string("kept"))
            #expect(record.recordChangeTag != first.recordChangeTag && record.recordChangeTag != second.recordChangeTag)
            #expect(record.created?.timestamp == first.created?.timestamp)

            let fetched = try await alice.allZoneChanges("Notes", from: token).records
            #expect(fetched.map(\.recordChangeTag) == [record.recordChangeTag])
            #expect(fetched.first?.fields["text"] == .string("kept"))
            // The restore is itself a version: the mistake stays in history, restorable.
            #expect(try await alice.history("n", zone: "Notes").versions.map(\.recordChangeTag)
                    == [record.recordChangeTag, second.recordChangeTag, first.recordChangeTag])
            let unknown = try await alice.restore([.init(recordName: "n", recordChangeTag: "nope")], zone: "Notes")
            #expect(unknown.records[0].error?.serverErrorCode == .notFound)
        }
    }

    @Test func theRecycleBinListsDeletionsAndUndeleteBringsTheCascadeBack() async throws {
        try await TestServer.with { server in
            let alice = try await server.signUp("alice")
            try await alice.createZone("Lists")
            let list = FieldValue.reference(Reference(recordName: "list", action: .deleteSelf))
            _ = try await alice.save([.create("list", type: "List", ["title": .string("Groceries")]),
                                      .create("milk", type: "Item", ["list": list]), .create("eggs", type: "Item", ["list": list]),
                                      .create("loose", type: "Item")], zone: "Lists")
            _ = try await alice.save([RecordOperation(.forceDelete, Record(recordName: "loose"))], zone: "Lists")
            _ = try await alice.save([RecordOperation(.forceDelete, Record(recordName: "list"))], zone: "Lists")

            let bin = try await alice.deletedRecords(zone: "Lists")
            #expect(bin.records.map(\.recordName).first == "list" || Set(bin.records.prefix(3).map(\.recordName)) == ["list", "milk", "eggs"])
            #expect(Set(bin.records.map(\.recordName)) == ["list", "milk", "eggs", "loose"])
            #expect(bin.records.last?.recordName == "loose")
            #expect(bin.records.allSatisfy { $0.deleted.userRecordName == alice.userRecordName })

            let listTombstone = try #require(bin.records.first { $0.recordName == "list" })
            let history = try await alice.history("list", zone: "Lists")
            #expect(history.versions.first?.deleted == true && history.versions.first?.recordChangeTag == listTombstone.recordChangeTag)
            let live = try #require(history.versions.dropFirst().first)
            let restored = try await alice.restore([.init(recordName: "list", recordChangeTag: live.recordChangeTag!,
                                                          expectedCurrentChangeTag: listTombstone.recordChangeTag)], zone: "Lists")
            #expect(restored.records[0].record?.fields["title"] == .string("Groceries"), "\(restored)")
            #expect(Set(restored.cascaded.compactMap(\.recordName)) == ["milk", "eggs"])
            #expect(try await alice.lookup(["list", "milk", "eggs", "loose"], zone: "Lists").map { $0.record != nil } == [true, true, true, false])
            #expect(try await alice.deletedRecords(zone: "Lists").records.map(\.recordName) == ["loose"])
            // The cascade came back intact: deleting the list takes the items again.
            _ = try await alice.save([RecordOperation(.forceDelete, Record(recordName: "list"))], zone: "Lists")
            #expect(try await alice.lookup(["milk"], zone: "Lists")[0].error?.serverErrorCode == .notFound)
        }
    }

    @Test func versionsPastRetentionArePurged() async throws {
        try await TestServer.with(configure: { $0.sessionLifetime = .seconds(60 * 24 * 3600) }) { server in
            let alice = try await server.signUp("alice")
            let first = try await alice.save([.create("n", ["text": .string("old")])])[0]
            _ = try await alice.save([RecordOperation(.forceUpdate, Record(recordName: "n", fields: ["text": .string("new")]))])
            await server.advanceClock(by: .seconds(29 * 24 * 3600))
            #expect(try await alice.history("n").versions.count == 2)
            await server.advanceClock(by: .seconds(2 * 24 * 3600))
            let after = try await alice.history("n")
            #expect(after.versions.map { $0.fields["text"] } == [.string("new")])
            let gone = try await alice.restore([.init(recordName: "n", recordChangeTag: first.recordChangeTag!)])
            #expect(gone.records[0].error?.serverErrorCode == .notFound)
        }
    }

    @Test func historyOffKeepsNoVersions() async throws {
        try await TestServer.with(configure: { $0.historyRetention = .zero }) { server in
            let alice = try await server.signUp("alice")
            let first = try await alice.save([.create("n", ["text": .string("old")])])[0]
            _ = try await alice.save([RecordOperation(.forceUpdate, Record(recordName: "n", fields: ["text": .string("new")]))])
            _ = try await alice.save([.create("gone")])
            _ = try await alice.save([RecordOperation(.forceDelete, Record(recordName: "gone"))])
            #expect(try await alice.history("n").versions.map(\.recordChangeTag).count == 1)
            #expect(try await alice.deletedRecords().records.isEmpty)
            let restored = try await alice.restore([.init(recordName: "n", recordChangeTag: first.recordChangeTag!)])
            #expect(restored.records[0].error?.serverErrorCode == .notFound)
        }
    }

    @Test func aContainerKeepsHistoryForItsOwnNumberOfDays() async throws {
        try await TestServer.with(configure: { $0.historyRetention = .zero; $0.sessionLifetime = .seconds(60 * 24 * 3600) }) { server in
            let admin = server.server.services.admin
            let alice = try await server.signUp("alice")
            func edit(_ text: String) async throws {
                _ = try await alice.save([RecordOperation(.forceUpdate, Record(recordName: "n", fields: ["text": .string(text)]))])
            }
            func kept() async throws -> [FieldValue?] { try await alice.history("n").versions.map { $0.fields["text"] ?? nil } }
            _ = try await alice.save([.create("n", ["text": .string("v1")])])
            try await edit("v2")
            #expect(try await kept() == [.string("v2")], "the server keeps no history")

            try await admin.setHistoryDays(3, containerID: TestServer.containerID)
            #expect(try await admin.historyDays(containerID: TestServer.containerID) == 3)
            try await edit("v3")
            #expect(try await kept() == [.string("v3"), .string("v2")], "the container's own setting applies at once")
            await server.advanceClock(by: .seconds(2 * 24 * 3600))
            #expect(try await kept().count == 2)
            await server.advanceClock(by: .seconds(2 * 24 * 3600))
            #expect(try await kept() == [.string("v3")], "purged past the container's 3 days, not the server's")

            try await admin.setHistoryDays(0, containerID: TestServer.containerID)
            try await edit("v4")
            #expect(try await kept() == [.string("v4")], "0 keeps none")
            await #expect(throws: CloudKitError.self) { try await admin.setHistoryDays(-1, containerID: TestServer.containerID) }
            await #expect(throws: CloudKitError.self) { try await admin.setHistoryDays(3651, containerID: TestServer.containerID) }
            try await admin.setHistoryDays(nil, containerID: TestServer.containerID)
            #expect(try await admin.historyDays(containerID: TestServer.containerID) == nil)
            try await edit("v5")
            #expect(try await kept() == [.string("v5")], "back to the server's: none")
        }
    }

    @Test func theConsoleSetsAContainersHistoryDays() async throws {
        let directory = TestServer.temporaryDirectory()
        try await TestServer.with(dataDirectory: directory) { server in
            let (token, csrf) = try await ConsoleTests.administrator(server, directory: directory)
            let (page, settings) = ("/console/containers/\(TestServer.containerID)", "/console/containers/\(TestServer.containerID)/settings")
            #expect(try await ConsoleTests.request(server, .GET, page, cookie: token).text.contains("as the server's <code>--history-days</code> says (30 days)"))
            _ = try await ConsoleTests.request(server, .POST, "\(settings)/set-history-days", form: "csrf=\(csrf)&days=0", cookie: token)
            #expect(try await server.server.services.admin.historyDays(containerID: TestServer.containerID) == 0)
            #expect(try await ConsoleTests.request(server, .GET, page, cookie: token).text.contains("Versions and deletions are kept 0 days."))
            _ = try await ConsoleTests.request(server, .POST, "\(settings)/set-history-days", form: "csrf=\(csrf)&days=", cookie: token)
            #expect(try await server.server.services.admin.historyDays(containerID: TestServer.containerID) == nil)
        }
    }

    /// The log's contract (docs/architecture.md, "The record log"): in commit order, a zone's
    /// creation, its records' and its share's saves and deletions, and the zone's deletion (read
    /// here through an export with history, the log's reader that lists everything).
    @Test func theLogHoldsZoneAndShareEventsInCommitOrder() async throws {
        try await TestServer.with { server in
            let alice = try await server.signUp("alice")
            let bob = try await server.signUp("bob")
            try await alice.createZone("Log")
            _ = try await alice.save([.create("n")], zone: "Log")
            _ = try await alice.share(nil, zone: "Log", participants: [(try #require(bob.username), .readOnly)])
            _ = try await alice.save([RecordOperation(.forceDelete, Record(recordName: ShareKeys.zoneShareName, recordType: ShareKeys.recordType))],
                                     zone: "Log")
            _ = try await alice.save([RecordOperation(.forceUpdate, Record(recordName: "n", fields: ["text": .string("edited")]))], zone: "Log")
            let deleted = try await alice.post(alice.path(.private, "zones/modify"), ZonesModifyRequest(operations: [.init(.delete, ZoneID(zoneName: "Log"))]))
            #expect(deleted.status == 200)

            let archive = TestServer.temporaryDirectory()
            _ = try await server.server.services.admin.exportContainer(id: TestServer.containerID, to: archive, includingSecrets: false,
                                                                       includingHistory: true, progress: { _ in })
            let entries = try ArchiveTests.lines(archive).split(separator: "\n").compactMap { line -> (String, String, Int)? in
                guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], object["kind"] as? String == "logEntry",
                      let name = object["recordName"] as? String, let type = object["recordType"] as? String, let change = object["change"] as? Int else { return nil }
                return (name, type, change)
            }
            let share = ShareKeys.zoneShareName
            #expect(entries.map { "\($0.0):\($0.2)" } == [":3", "n:0", "\(share):0", "\(share):2", "n:1", "n:2", ":4"],
                    "zone created, record created, share saved and deleted, record updated, record deleted with its zone, zone deleted")
            #expect(entries.filter { $0.0 == share }.allSatisfy { $0.1 == ShareKeys.recordType })
        }
    }

    @Test func onlyTheOwnerPurgesAndOnlyWritersSeeHistory() async throws {
        try await TestServer.with { server in
            let alice = try await server.signUp("alice")
            let bob = try await server.signUp("bob")
            let carol = try await server.signUp("carol")
            try await alice.createZone("Family")
            _ = try await alice.save([.create("n", ["text": .string("one")])], zone: "Family")
            _ = try await alice.save([RecordOperation(.forceUpdate, Record(recordName: "n", fields: ["text": .string("two")]))], zone: "Family")
            let share = try await alice.share(nil, zone: "Family", participants: [(bob.username!, .readWrite), (carol.username!, .readOnly)])
            for participant in [bob, carol] { _ = try await participant.shareMetadata(share.shareKeys!.shortGUID!, accept: true) }
            let zone = ZoneID(zoneName: "Family", ownerRecordName: alice.userRecordName)

            let writer = try await bob.post(bob.path(.shared, "records/history"), RecordHistoryRequest(zoneID: zone, recordName: "n"))
            // The current version only: "one" was replaced before Bob accepted.
            #expect(try writer.decode(RecordHistoryResponse.self).versions.map { $0.fields["text"] } == [.string("two")])
            let reader = try await carol.post(carol.path(.shared, "records/history"), RecordHistoryRequest(zoneID: zone, recordName: "n"))
            #expect(reader.errorCode == .notFound, "\(reader.text)")
            // Another user's private database has no such zone.
            #expect(try await bob.post(bob.path(.private, "records/history"),
                                       RecordHistoryRequest(zoneID: ZoneID(zoneName: "Family"), recordName: "n")).status != 200)

            let participantPurge = try await bob.post(bob.path(.shared, "records/history/purge"), RecordHistoryPurgeRequest(zoneID: zone, recordName: "n"))
            #expect(participantPurge.errorCode == .accessDenied, "\(participantPurge.text)")
            let purge = try await alice.post(alice.path(.private, "records/history/purge"),
                                             RecordHistoryPurgeRequest(zoneID: ZoneID(zoneName: "Family"), recordName: "n"))
            #expect(try purge.decode(RecordHistoryPurgeResponse.self).purgedVersions == 1, "the version 'one'")
            #expect(try await alice.history("n", zone: "Family").versions.map { $0.fields["text"] } == [.string("two")])
        }
    }

    /// A participant sees the versions that were current since they accepted, and deletions
    /// since then: never what the owner wrote and replaced before sharing.
    @Test func aParticipantSeesOnlyWhatChangedSinceTheyAccepted() async throws {
        try await TestServer.with { server in
            let alice = try await server.signUp("alice")
            let bob = try await server.signUp("bob")
            try await alice.createZone("Family")
            let draft = try await alice.save([.create("n", ["text": .string("private draft")]), .create("early")], zone: "Family")
            _ = try await alice.save([RecordOperation(.forceUpdate, Record(recordName: "n", fields: ["text": .string("shared")])),
                                      RecordOperation(.forceDelete, Record(recordName: "early"))], zone: "Family")
            _ = try await alice.save([.create("later")], zone: "Family")
            let share = try await alice.share(nil, zone: "Family", participants: [(bob.username!, .readWrite)])
            _ = try await bob.shareMetadata(share.shareKeys!.shortGUID!, accept: true)
            _ = try await alice.save([RecordOperation(.forceUpdate, Record(recordName: "n", fields: ["text": .string("edited")])),
                                      RecordOperation(.forceDelete, Record(recordName: "later"))], zone: "Family")
            let zone = ZoneID(zoneName: "Family", ownerRecordName: alice.userRecordName)

            #expect(try await alice.history("n", zone: "Family").versions.map { $0.fields["text"] }
                    == ["edited", "shared", "private draft"].map { .string($0) })
            let seen = try await bob.post(bob.path(.shared, "records/history"), RecordHistoryRequest(zoneID: zone, recordName: "n"))
                .decode(RecordHistoryResponse.self)
            #expect(seen.versions.map { $0.fields["text"] } == ["edited", "shared"].map { .string($0) })
            #expect(seen.continuationMarker == nil)
            let paged = try await bob.post(bob.path(.shared, "records/history"), RecordHistoryRequest(zoneID: zone, recordName: "n", resultsLimit: 2))
                .decode(RecordHistoryResponse.self)
            #expect(paged.versions.count == 2 && paged.continuationMarker == nil)

            #expect(Set(try await alice.deletedRecords(zone: "Family").records.map(\.recordName)) == ["early", "later"])
            let bin = try await bob.post(bob.path(.shared, "records/deleted"), DeletedRecordsRequest(zoneID: zone))
                .decode(DeletedRecordsResponse.self)
            #expect(bin.records.map(\.recordName) == ["later"])

            let refused = try await bob.post(bob.path(.shared, "records/restore"), RecordsRestoreRequest(zoneID: zone, operations: [
                .init(recordName: "n", recordChangeTag: draft[0].recordChangeTag!)])).decode(RecordsRestoreResponse.self)
            #expect(refused.records[0].error?.serverErrorCode == .notFound, "\(refused)")
        }
    }

    /// A file that a replaced or deleted version refers to stays, downloadable from the history by
    /// whoever sees the version, and goes once the last such version goes.
    @Test func filesOfKeptVersionsStayWhileTheirVersionsDo() async throws {
        try await TestServer.with(configure: { $0.sessionLifetime = .seconds(60 * 24 * 3600) }) { server in
            let alice = try await server.signUp("alice")
            let directory = server.server.configuration.dataDirectory
            let firstBytes = TestFile.bytes(count: 20_000, seed: 11)
            let first = try await alice.upload(firstBytes, record: "photo")
            _ = try await alice.save([.create("photo", ["file": .asset(first)])])
            let second = try await alice.upload(TestFile.bytes(count: 20_000, seed: 12), record: "photo")
            _ = try await alice.save([RecordOperation(.forceUpdate, Record(recordName: "photo", fields: ["file": .asset(second)]))])
            await server.advanceClock(by: .seconds(25 * 3600))
            #expect(try await TestFile.storedBlobs(in: directory).count == 2, "the replaced version keeps its file")

            let kept = try AssetTests.asset(try #require(await alice.history("photo").versions.last))
            #expect(Array(try await alice.download(try #require(kept.downloadURL)).body) == firstBytes)
            _ = try await alice.save([RecordOperation(.forceDelete, Record(recordName: "photo"))])
            await server.advanceClock(by: .seconds(25 * 3600))
            #expect(try await TestFile.storedBlobs(in: directory).count == 2, "the deleted version keeps its file")
            let undeleted = try await alice.restore([.init(recordName: "photo",
                                                           recordChangeTag: try #require(await alice.history("photo").versions[1].recordChangeTag))])
            let current = try AssetTests.asset(undeleted.records[0].record)
            #expect(try await alice.download(try #require(current.downloadURL)).status == 200)

            // Past retention the first version goes, and its file with it; the current one stays.
            await server.advanceClock(by: .seconds(31 * 24 * 3600))
            #expect(try await TestFile.storedBlobs(in: directory).count == 1)
            #expect(try await alice.history("photo").versions.count == 1)
        }
    }

    /// A deleted account's versions and deletions in another user's zone stay with the zone's
    /// owner, the author shown as a deleted user.
    @Test func aDeletedAccountsVersionsStayWithTheZonesOwner() async throws {
        try await TestServer.with { server in
            let alice = try await server.signUp("alice")
            let bob = try await server.signUp("bob")
            try await alice.createZone("Family")
            _ = try await alice.save([.create("n", ["text": .string("alice's")]), .create("m")], zone: "Family")
            let share = try await alice.share(nil, zone: "Family", participants: [(bob.username!, .readWrite)])
            _ = try await bob.shareMetadata(share.shareKeys!.shortGUID!, accept: true)
            _ = try await bob.modify([RecordOperation(.forceUpdate, Record(recordName: "n", fields: ["text": .string("bob's")]))],
                                     zone: "Family", owner: alice.userRecordName)
            _ = try await bob.modify([RecordOperation(.forceDelete, Record(recordName: "m"))], zone: "Family", owner: alice.userRecordName)
            _ = try await alice.save([RecordOperation(.forceUpdate, Record(recordName: "n", fields: ["text": .string("alice's again")]))], zone: "Family")
            #expect(try await alice.history("n", zone: "Family").versions[1].modified?.userRecordName == bob.userRecordName)

            try await server.server.services.admin.deleteAccount(user: bob.userRecordName!, containerID: TestServer.containerID)
            let versions = try await alice.history("n", zone: "Family").versions
            #expect(versions.map { $0.fields["text"] } == ["alice's again", "bob's", "alice's"].map { .string($0) })
            #expect(versions.map { $0.modified?.userRecordName } == [alice.userRecordName, HistoryService.deletedUser, alice.userRecordName])
            #expect(try await alice.deletedRecords(zone: "Family").records.map(\.deleted.userRecordName) == [HistoryService.deletedUser])
        }
    }

    /// A kept version's file downloads for a participant who may write the record, and stops
    /// when their permission drops to read-only (checked on every download, as history is).
    @Test func aParticipantsVersionURLEndsWithTheirWriteAccess() async throws {
        try await TestServer.with { server in
            let alice = try await server.signUp("alice")
            let bob = try await server.signUp("bob")
            try await alice.createZone("Photos")
            var share = try await alice.share(nil, zone: "Photos", participants: [(bob.username!, .readWrite)])
            _ = try await bob.shareMetadata(share.shareKeys!.shortGUID!, accept: true)
            let firstBytes = TestFile.bytes(count: 20_000, seed: 21)
            let token = try await alice.uploadURL(record: "p", zone: "Photos")
            let first = try await Caller.post(firstBytes, to: token.url).decode(AssetUploadReceipt.self).singleFile
            _ = try await alice.save([.create("p", ["file": .asset(first)])], zone: "Photos")
            let secondToken = try await alice.uploadURL(record: "p", zone: "Photos")
            let second = try await Caller.post(TestFile.bytes(count: 20_000, seed: 22), to: secondToken.url).decode(AssetUploadReceipt.self).singleFile
            _ = try await alice.save([RecordOperation(.forceUpdate, Record(recordName: "p", fields: ["file": .asset(second)]))], zone: "Photos")

            let zone = ZoneID(zoneName: "Photos", ownerRecordName: alice.userRecordName)
            let versions = try await bob.post(bob.path(.shared, "records/history"), RecordHistoryRequest(zoneID: zone, recordName: "p"))
                .decode(RecordHistoryResponse.self).versions
            let url = try #require(try AssetTests.asset(try #require(versions.last)).downloadURL)
            #expect(Array(try await bob.download(url).body) == firstBytes)

            share = try #require(try await alice.lookup([share.recordName!], zone: "Photos", owner: nil).first?.record)
            share.shareKeys = ShareKeys(participants: [ShareParticipant(userIdentity: UserIdentity(lookupInfo: LookupInfo(username: bob.username)),
                                                                        permission: .readOnly)])
            #expect(try await alice.modify([RecordOperation(.update, share)], zone: "Photos", owner: nil).first?.record != nil)
            #expect(try await bob.download(url).errorCode == .accessDenied)
        }
    }

    /// Past the byte budget per zone, maintenance cuts every record down to the same number of
    /// versions, the most-edited first, never a deleted record's last version; evicting versions
    /// replaced within the day raises the loss alarm.
    @Test func theBudgetEvictsTheMostEditedRecordsOldestVersionsFirst() async throws {
        try await TestServer.with(configure: { $0.historyZoneBytes = 1000 }) { server in
            let alice = try await server.signUp("alice")
            let text = { (version: Int) in FieldValue.string(String(repeating: "\(version % 10)", count: 100)) }
            _ = try await alice.save([.create("busy", ["text": text(0)]), .create("calm", ["text": text(0)]), .create("gone", ["text": text(0)])])
            for version in 1...20 {
                _ = try await alice.save([RecordOperation(.forceUpdate, Record(recordName: "busy", fields: ["text": text(version)]))])
            }
            for name in ["calm", "gone"] {
                _ = try await alice.save([RecordOperation(.forceUpdate, Record(recordName: name, fields: ["text": text(1)]))])
            }
            _ = try await alice.save([RecordOperation(.forceDelete, Record(recordName: "gone"))])
            #expect(try await alice.history("busy").versions.count == 21)

            await server.advanceClock(by: .seconds(60))
            let busy = try await alice.history("busy").versions
            #expect(busy.map { $0.fields["text"] } == (16...20).reversed().map(text), "the current version and the four newest kept")
            #expect(try await alice.history("calm").versions.count == 2)
            let gone = try await alice.history("gone").versions
            #expect(gone.count == 3 && gone.first?.deleted == true, "a deleted record keeps its last versions")
            let alarm = try #require(server.server.services.activity.recent.first { $0.change == "loss alarm" }?.lossAlarm)
            #expect(alarm.cause == .historyBudget && alarm.deleted == 16 && alarm.userRecordName == alice.userRecordName)

            // Within the budget nothing more goes.
            await server.advanceClock(by: .seconds(60))
            #expect(try await alice.history("busy").versions.count == 5)
        }
    }

    /// The budget's plan: one cap for every record, the largest that frees enough.
    @Test func theBudgetLevelsRecordsToOneCap() {
        let records = [KeptVersions(recordName: "a", versions: 10, bytes: 1000, deleted: false),
                       KeptVersions(recordName: "b", versions: 4, bytes: 400, deleted: false),
                       KeptVersions(recordName: "c", versions: 1, bytes: 100, deleted: true),
                       KeptVersions(recordName: "d", versions: 1, bytes: 100, deleted: false)]
        #expect(HistoryBudget.evictions(records, excess: 0).isEmpty)
        #expect(HistoryBudget.evictions(records, excess: 100).map(\.recordName) == ["a"])
        #expect(HistoryBudget.evictions(records, excess: 100).map(\.count) == [1])
        #expect(HistoryBudget.evictions(records, excess: 700).map { "\($0.recordName)\($0.count)" } == ["a7", "b1"], "cap 3")
        #expect(HistoryBudget.evictions(records, excess: 100_000).map { "\($0.recordName)\($0.count)" } == ["a10", "b4", "d1"],
                "all but a deleted record's last version")
    }

    @Test func aShareIsNeverRestored() async throws {
        try await TestServer.with { server in
            let alice = try await server.signUp("alice")
            let bob = try await server.signUp("bob")
            try await alice.createZone("Lists")
            _ = try await alice.save([.create("list", type: "List")], zone: "Lists")
            let share = try await alice.share("list", zone: "Lists", participants: [(bob.username!, .readWrite)])
            _ = try await alice.save([RecordOperation(.forceDelete, Record(recordName: share.recordName))], zone: "Lists")
            let versions = try await alice.history(share.recordName!, zone: "Lists").versions
            let kept = try #require(versions.first { $0.deleted == false })
            let refused = try await alice.restore([.init(recordName: share.recordName!, recordChangeTag: kept.recordChangeTag!)], zone: "Lists")
            #expect(refused.records[0].error?.serverErrorCode == .badRequest, "\(refused)")
        }
    }

    @Test func encryptedFieldsStaySealedAndComeBackOpened() async throws {
        try await TestServer.with { server in
            let alice = try await server.signUp("alice")
            var record = Record(recordName: "n", recordType: "Note", fields: ["secret": .string("first")])
            record.encryptedFields = ["secret"]
            let first = try await alice.save([RecordOperation(.create, record)])[0]
            record.fields["secret"] = .string("second")
            _ = try await alice.save([RecordOperation(.forceReplace, record)])
            let versions = try await alice.history("n").versions
            #expect(versions.map { $0.fields["secret"] } == [.string("second"), .string("first")])
            #expect(versions.allSatisfy { $0.encryptedFields == ["secret"] })
            let restored = try await alice.restore([.init(recordName: "n", recordChangeTag: first.recordChangeTag!)])
            #expect(restored.records[0].record?.fields["secret"] == .string("first"), "\(restored)")
            #expect(restored.records[0].record?.encryptedFields == ["secret"])
        }
    }

    @Test func aZoneIsRestoredToAMomentAsForwardChanges() async throws {
        try await TestServer.with { server in
            let alice = try await server.signUp("alice")
            try await alice.createZone("Notes")
            _ = try await alice.save([.create("a", ["t": .string("a1")]), .create("b", ["t": .string("b1")]), .create("c", ["t": .string("c1")])],
                                     zone: "Notes")
            let moment = server.now
            await server.advanceClock(by: .seconds(1))
            _ = try await alice.save([RecordOperation(.forceUpdate, Record(recordName: "a", fields: ["t": .string("a2")])),
                                      RecordOperation(.forceDelete, Record(recordName: "b")), .create("d", ["t": .string("d1")])], zone: "Notes")
            let token = try await alice.allZoneChanges("Notes").token

            let step = try await alice.restoreZone("Notes", to: moment)
            #expect(step.restoredRecords.sorted() == ["a", "b"] && step.deletedRecords == ["d"] && step.errors.isEmpty, "\(step)")
            #expect(step.continuationMarker == nil)
            let lookup = try await alice.lookup(["a", "b", "c", "d"], zone: "Notes")
            #expect(lookup.map { $0.record?.fields["t"] } == [.string("a1"), .string("b1"), .string("c1"), nil])
            let fetched = try await alice.allZoneChanges("Notes", from: token).records
            #expect(Set(fetched.compactMap(\.recordName)) == ["a", "b", "d"], "devices fetch the restore as changes")
            #expect(fetched.first { $0.recordName == "d" }?.deleted == true)

            let again = try await alice.restoreZone("Notes", to: moment)
            #expect(again.restoredRecords.isEmpty && again.deletedRecords.isEmpty, "a step run again changes nothing: \(again)")
        }
    }

    @Test func aDeletedZoneComesBackUnderItsZoneIDInSteps() async throws {
        try await TestServer.with { server in
            let alice = try await server.signUp("alice")
            try await alice.createZone("Big")
            let count = HistoryService.zoneRestoreStep + 50
            for start in stride(from: 0, to: count, by: 200) {
                _ = try await alice.save((start..<min(start + 200, count)).map { .create("r\($0)", ["n": .int64(Int64($0))]) }, zone: "Big")
            }
            let moment = server.now
            await server.advanceClock(by: .seconds(1))
            let deleted = try await alice.post(alice.path(.private, "zones/modify"), ZonesModifyRequest(operations: [.init(.delete, ZoneID(zoneName: "Big"))]))
            #expect(deleted.status == 200)
            let bin = try await alice.post(alice.path(.private, "zones/deleted"), DeletedZonesRequest()).decode(DeletedZonesResponse.self)
            #expect(bin.zones.map(\.zoneID.zoneName) == ["Big"] && bin.zones[0].deleted > moment)

            var restored: [String] = []
            var marker: String?
            var steps = 0
            repeat {
                let step = try await alice.restoreZone("Big", to: moment, marker: marker)
                #expect(step.errors.isEmpty && step.deletedRecords.isEmpty)
                restored += step.restoredRecords
                marker = step.continuationMarker
                steps += 1
            } while marker != nil && steps < 10
            #expect(steps == 2 && restored.count == count)
            let listed = try await alice.get(alice.path(.private, "zones/list")).decode(ZonesResponse.self).zones
            let names: [String] = listed.compactMap { result in result.zone.map { $0.zoneID.zoneName } }
            #expect(names.contains("Big"))
            let all = try await alice.allZoneChanges("Big").records
            #expect(all.count == count && Set(all.compactMap { $0.fields["n"] }).count == count)
        }
    }

    @Test func zoneRestoresAreBounded() async throws {
        try await TestServer.with { server in
            let alice = try await server.signUp("alice")
            try await alice.createZone("Notes")
            let old = try await alice.post(alice.path(.private, "zones/restore"),
                                           ZoneRestoreRequest(zoneID: ZoneID(zoneName: "Notes"), timestamp: server.now - 31 * 86_400_000))
            #expect(old.errorCode == .badRequest, "\(old.text)")
            let future = try await alice.post(alice.path(.private, "zones/restore"),
                                              ZoneRestoreRequest(zoneID: ZoneID(zoneName: "Notes"), timestamp: server.now + 60_000))
            #expect(future.errorCode == .badRequest)
            let forged = try await alice.post(alice.path(.private, "zones/restore"),
                                              ZoneRestoreRequest(zoneID: ZoneID(zoneName: "Notes"), timestamp: server.now, continuationMarker: "forged"))
            #expect(forged.errorCode == .badRequest)
            let shared = try await alice.post(alice.path(.shared, "zones/restore"),
                                              ZoneRestoreRequest(zoneID: ZoneID(zoneName: "Notes", ownerRecordName: alice.userRecordName), timestamp: server.now))
            #expect(shared.errorCode == .badRequest)
            let missing = try await alice.post(alice.path(.private, "zones/restore"), ZoneRestoreRequest(zoneID: ZoneID(zoneName: "Never"), timestamp: server.now))
            #expect(missing.errorCode == .zoneNotFound, "\(missing.text)")
        }
    }

    @Test func aDeviceDeletingMostOfAZoneWithinAMinuteRaisesTheLossAlarm() async throws {
        try await TestServer.with { server in
            let alice = try await server.signUp("alice")
            try await alice.createZone("Notes")
            _ = try await alice.save((0..<120).map { .create("n\($0)", ["t": .string("note \($0)")]) }, zone: "Notes")
            func delete(_ range: Range<Int>, from device: String) async throws {
                let request = RecordsModifyRequest(operations: range.map { RecordOperation(.forceDelete, Record(recordName: "n\($0)")) },
                                                   zoneID: ZoneID(zoneName: "Notes"))
                let response = try await alice.send(.POST, alice.path(.private, "records/modify"), body: try JSONEncoder().encode(request),
                                                    headers: [("X-Stratus-Device-ID", device)])
                #expect(response.status == 200, "\(response.text)")
            }
            func alarms() -> [ActivityFeed.Entry] { server.server.services.activity.recent.filter { $0.change == "loss alarm" } }
            let before = server.now
            await server.advanceClock(by: .seconds(1))
            try await delete(0..<40, from: "phone")
            try await delete(40..<70, from: "laptop")
            #expect(alarms().isEmpty, "two devices, each under half")
            await server.advanceClock(by: .seconds(61))
            try await delete(70..<100, from: "phone")
            #expect(alarms().isEmpty, "the phone's first deletions were more than a minute ago")
            try await delete(100..<110, from: "phone")
            try await delete(110..<120, from: "phone")
            #expect(alarms().isEmpty, "50 records were left when the burst began: under the alarm's smallest zone")

            _ = try await alice.save((0..<120).map { .create("m\($0)") }, zone: "Notes")
            await server.advanceClock(by: .seconds(61))
            let request = RecordsModifyRequest(operations: (0..<61).map { RecordOperation(.forceDelete, Record(recordName: "m\($0)")) },
                                               zoneID: ZoneID(zoneName: "Notes"))
            _ = try await alice.send(.POST, alice.path(.private, "records/modify"), body: try JSONEncoder().encode(request),
                                     headers: [("X-Stratus-Device-ID", "tablet")])
            let raised = try #require(alarms().first?.lossAlarm)
            #expect(alarms().count == 1 && alarms()[0].zone == "Notes")
            #expect(raised.deviceID == "tablet" && raised.userRecordName == alice.userRecordName && raised.deleted == 61 && raised.zoneRecords == 120)
            #expect(raised.restoreTo > before)
            let step = try await alice.restoreZone("Notes", to: raised.restoreTo)
            #expect(step.restoredRecords.count == 61 && step.deletedRecords.isEmpty, "the alarm's moment restores what the burst deleted")
        }
    }

    @Test func badRequestsGetCloudKitCodes() async throws {
        try await TestServer.with { server in
            let alice = try await server.signUp("alice")
            _ = try await alice.save([.create("n")])
            let negative = try await alice.post(alice.path(.private, "records/history"), RecordHistoryRequest(recordName: "n", resultsLimit: -1))
            #expect(negative.errorCode == .badRequest)
            let forged = try await alice.post(alice.path(.private, "records/history"), RecordHistoryRequest(recordName: "n", continuationMarker: "forged"))
            #expect(forged.errorCode == .badRequest)
            let binMarker = try await alice.post(alice.path(.private, "records/deleted"), DeletedRecordsRequest(continuationMarker: "forged"))
            #expect(binMarker.errorCode == .badRequest)
            let many = (0...ServerConfiguration(dataDirectory: URL(fileURLWithPath: "/")).maxOperationsPerRequest).map {
                RecordsRestoreRequest.Operation(recordName: "r\($0)", recordChangeTag: "1")
            }
            let tooMany = try await alice.post(alice.path(.private, "records/restore"), RecordsRestoreRequest(operations: many))
            #expect(tooMany.errorCode == .limitExceeded)
            let twice = try await alice.post(alice.path(.private, "records/restore"),
                                             RecordsRestoreRequest(operations: [.init(recordName: "n", recordChangeTag: "1"),
                                                                                .init(recordName: "n", recordChangeTag: "2")]))
            #expect(twice.errorCode == .badRequest)
            let unknown = try await alice.post(alice.path(.private, "records/history"), RecordHistoryRequest(recordName: "never"))
            #expect(unknown.errorCode == .notFound)
            let anonymous = try await server.anonymous.post(alice.path(.public, "records/history"), RecordHistoryRequest(recordName: "n"))
            #expect(anonymous.errorCode == .authenticationRequired)
        }
    }
}

extension Caller {
    /// `records/history` of a record in one of the caller's zones.
    func history(_ name: String, zone: String = ZoneID.defaultZoneName, limit: Int? = nil, marker: String? = nil) async throws -> RecordHistoryResponse {
        try await post(path(.private, "records/history"),
                       RecordHistoryRequest(zoneID: ZoneID(zoneName: zone), recordName: name, resultsLimit: limit, continuationMarker: marker))
            .decode(RecordHistoryResponse.self)
    }

    /// `records/restore` in one of the caller's zones.
    func restore(_ operations: [RecordsRestoreRequest.Operation], zone: String = ZoneID.defaultZoneName,
                 atomic: Bool? = nil) async throws -> RecordsRestoreResponse {
        try await post(path(.private, "records/restore"), RecordsRestoreRequest(zoneID: ZoneID(zoneName: zone), operations: operations, atomic: atomic))
            .decode(RecordsRestoreResponse.self)
    }

    /// One step of `zones/restore` of one of the caller's zones.
    func restoreZone(_ zone: String, to moment: Int64, marker: String? = nil) async throws -> ZoneRestoreResponse {
        try await post(path(.private, "zones/restore"), ZoneRestoreRequest(zoneID: ZoneID(zoneName: zone), timestamp: moment, continuationMarker: marker))
            .decode(ZoneRestoreResponse.self)
    }

    /// `records/deleted`: the recycle bin of one of the caller's zones.
    func deletedRecords(zone: String = ZoneID.defaultZoneName, limit: Int? = nil, marker: String? = nil) async throws -> DeletedRecordsResponse {
        try await post(path(.private, "records/deleted"),
                       DeletedRecordsRequest(zoneID: ZoneID(zoneName: zone), resultsLimit: limit, continuationMarker: marker))
            .decode(DeletedRecordsResponse.self)
    }
}
