import Foundation
import Testing
import StratusCore
@testable import StratusServer

@Suite struct ChangeFeedTests {
    /// What the client should believe after applying changes: live records by name (with their
    /// change tags) and the names known to be deleted.
    struct Model {
        var live: [String: String] = [:]
        var deleted: Set<String> = []

        mutating func apply(_ records: [Record]) {
            for record in records {
                guard let name = record.recordName else { continue }
                if record.deleted == true {
                    live[name] = nil
                    deleted.insert(name)
                } else {
                    live[name] = record.recordChangeTag
                    deleted.remove(name)
                }
            }
        }
    }

    /// Creates, updates and deletes records in rounds, returning the server's truth.
    static func churn(_ caller: Caller, zone: String, rounds: Range<Int>, perRound: Int, truth: inout Model) async throws -> Set<String> {
        var touched = Set<String>()
        for round in rounds {
            let creates = (0..<perRound).map { RecordOperation.create("r\(round)-\($0)", ["round": .int64(Int64(round)), "i": .int64(Int64($0))]) }
            var operations = creates
            let earlier = truth.live.keys.sorted().prefix(30)
            for (index, name) in earlier.enumerated() {
                if index % 3 == 0 {
                    operations.append(RecordOperation(.forceDelete, Record(recordName: name)))
                } else {
                    operations.append(RecordOperation(.forceUpdate, Record(recordName: name, fields: ["touched": .int64(Int64(round))])))
                }
            }
            let results = try await caller.save(operations, zone: zone)
            truth.apply(results)
            touched.formUnion(results.compactMap(\.recordName))
        }
        return touched
    }

    @Test func pagingOverManyRecordsWithInterleavedUpdatesAndDeletes() async throws {
        try await TestServer.with { server in
            let alice = try await server.signUp()
            try await alice.createZone("Feed")
            var truth = Model()
            _ = try await Self.churn(alice, zone: "Feed", rounds: 0..<6, perRound: 200, truth: &truth)
            #expect(truth.live.count + truth.deleted.count >= 1200)

            let full = try await alice.allZoneChanges("Feed", limit: 150)
            #expect(Set(full.records.compactMap(\.recordName)).count == full.records.count, "a quiet zone lists each record once")
            var client = Model()
            client.apply(full.records)
            #expect(client.live == truth.live)
            #expect(client.deleted.isEmpty, "a first sync hears of no deletion made before it")

            // A token taken now sees exactly the changes made after it.
            let touched = try await Self.churn(alice, zone: "Feed", rounds: 6..<8, perRound: 50, truth: &truth)
            let later = try await alice.allZoneChanges("Feed", from: full.token, limit: 70)
            #expect(Set(later.records.compactMap(\.recordName)) == touched)
            client.apply(later.records)
            #expect(client.live == truth.live)

            let nothing = try await alice.allZoneChanges("Feed", from: later.token)
            #expect(nothing.records.isEmpty && nothing.token == later.token)
        }
    }

    @Test func tokenTakenMidPagingStillSeesEverythingAfterIt() async throws {
        try await TestServer.with { server in
            let alice = try await server.signUp()
            try await alice.createZone("Feed")
            var truth = Model()
            _ = try await Self.churn(alice, zone: "Feed", rounds: 0..<3, perRound: 200, truth: &truth)
            let deletedBefore = truth.deleted
            let firstPage = try #require(try await alice.zoneChanges("Feed", limit: 100).changes)
            #expect(firstPage.moreComing && firstPage.records.count == 100)
            _ = try await Self.churn(alice, zone: "Feed", rounds: 3..<5, perRound: 40, truth: &truth)
            let rest = try await alice.allZoneChanges("Feed", from: firstPage.syncToken, limit: 100)
            var client = Model()
            client.apply(firstPage.records)
            client.apply(rest.records)
            #expect(client.live == truth.live)
            #expect(client.deleted == truth.deleted.subtracting(deletedBefore), "deletions after the first page began, no older")
        }
    }

    @Test func tombstonesCarryNameTypeAndDeletedFlag() async throws {
        try await TestServer.with { server in
            let alice = try await server.signUp()
            try await alice.createZone("Z")
            _ = try await alice.save([.create("gone", type: "Thing", ["secret": .string("x")])], zone: "Z")
            let synced = try await alice.allZoneChanges("Z")
            _ = try await alice.save([RecordOperation(.forceDelete, Record(recordName: "gone"))], zone: "Z")
            let changes = try await alice.allZoneChanges("Z", from: synced.token)
            let tombstone = try #require(changes.records.first)
            #expect(changes.records.count == 1)
            #expect(tombstone.recordName == "gone" && tombstone.recordType == "Thing" && tombstone.deleted == true)
            #expect(tombstone.fields.isEmpty)
        }
    }

    @Test func aFirstFetchHearsOfNoDeletionMadeBeforeIt() async throws {
        try await TestServer.with { server in
            let alice = try await server.signUp()
            try await alice.createZone("Z")
            try await alice.createZone("Dropped")
            _ = try await alice.save((0..<6).map { .create("r\($0)") }, zone: "Z")
            _ = try await alice.save((0..<3).map { RecordOperation(.forceDelete, Record(recordName: "r\($0)")) }, zone: "Z")
            _ = try await alice.post(alice.path(.private, "zones/modify"),
                                     ZonesModifyRequest(operations: [.init(.delete, ZoneID(zoneName: "Dropped"))]))

            // Paged in twos, with a deletion between pages: only that one is heard of.
            let first = try #require(try await alice.zoneChanges("Z", limit: 2).changes)
            #expect(first.records.map(\.recordName) == ["r3", "r4"] && first.moreComing)
            _ = try await alice.save([RecordOperation(.forceDelete, Record(recordName: "r4"))], zone: "Z")
            let rest = try await alice.allZoneChanges("Z", from: first.syncToken, limit: 2)
            #expect(rest.records.map(\.recordName) == ["r5", "r4"])
            #expect(rest.records.map { $0.deleted == true } == [false, true])

            // The older records/changes path and the database feed behave the same.
            let older = try await alice.post(alice.path(.private, "records/changes"), RecordsChangesRequest(zoneID: ZoneID(zoneName: "Z")))
                .decode(RecordsChangesResponse.self)
            #expect(older.records.map(\.recordName) == ["r3", "r5"])
            let zones = try await alice.databaseChanges().zones.map(\.zoneID.zoneName)
            #expect(!zones.contains("Dropped") && zones.contains("Z"))
        }
    }

    @Test func olderRecordsChangesPathWorksToo() async throws {
        try await TestServer.with { server in
            let alice = try await server.signUp()
            try await alice.createZone("Z")
            _ = try await alice.save((0..<5).map { .create("r\($0)") }, zone: "Z")
            let response = try await alice.post(alice.path(.private, "records/changes"),
                                                RecordsChangesRequest(zoneID: ZoneID(zoneName: "Z"), resultsLimit: 3))
                .decode(RecordsChangesResponse.self)
            #expect(response.records.count == 3 && response.moreComing && !response.reverse)
            let next = try await alice.post(alice.path(.private, "records/changes"),
                                            RecordsChangesRequest(zoneID: ZoneID(zoneName: "Z"), syncToken: response.syncToken))
                .decode(RecordsChangesResponse.self)
            #expect(next.records.compactMap(\.recordName) == ["r3", "r4"] && !next.moreComing)
        }
    }

    @Test func badTokensAreBadRequests() async throws {
        try await TestServer.with { server in
            let alice = try await server.signUp()
            let bob = try await server.signUp()
            try await alice.createZone("A")
            try await alice.createZone("B")
            try await bob.createZone("A")
            let tokenOfB = try #require(try await alice.zoneChanges("B").changes?.syncToken)
            let bobsToken = try #require(try await bob.zoneChanges("A").changes?.syncToken)
            let databaseToken = try await alice.databaseChanges().syncToken
            let beyond = ChangeToken(kind: .zone, ownerID: try ChangeToken(decoding: tokenOfB, as: .zone).ownerID, sequence: 1 << 40, epoch: 0).encoded
            let epochZero = Base64URL.encode(Data("2.z.1.1.0.0".utf8))
            for token in ["garbage", "", "MS56LjEuMQ==", databaseToken, tokenOfB, bobsToken, beyond, epochZero] {
                let result = try await alice.zoneChanges(token == beyond ? "B" : "A", token: token)
                guard case .failure(let error) = result else {
                    Issue.record("token \(token) was accepted")
                    continue
                }
                #expect(error.serverErrorCode == .badRequest, "token \(token)")
            }
            let recordsChanges = try await alice.post(alice.path(.private, "records/changes"),
                                                      RecordsChangesRequest(zoneID: ZoneID(zoneName: "A"), syncToken: "garbage"))
            #expect(recordsChanges.status == 400 && recordsChanges.errorCode == .badRequest)
            let database = try await alice.post(alice.path(.private, "changes/database"), DatabaseChangesRequest(syncToken: tokenOfB))
            #expect(database.errorCode == .badRequest)
            let bobsDatabaseToken = try await bob.databaseChanges().syncToken
            let foreign = try await alice.post(alice.path(.private, "changes/database"), DatabaseChangesRequest(syncToken: bobsDatabaseToken))
            #expect(foreign.errorCode == .badRequest)
        }
    }

    @Test func tokensExpireOnlyWhenNewerTombstonesArePurged() async throws {
        try await TestServer.with(configure: { $0.tombstoneRetention = .seconds(3600) }) { server in
            let alice = try await server.signUp()
            try await alice.createZone("Z")
            _ = try await alice.save([.create("keep"), .create("drop")], zone: "Z")
            let before = try await alice.allZoneChanges("Z").token
            _ = try await alice.save([RecordOperation(.forceDelete, Record(recordName: "drop"))], zone: "Z")
            let after = try await alice.allZoneChanges("Z").token

            server.clock.advance(by: .seconds(3601))
            let purged = try await server.server.services.changes.purgeTombstones()
            #expect(purged == 1)

            let expired = try await alice.zoneChanges("Z", token: before)
            guard case .failure(let error) = expired else { Issue.record("an expired token was honoured"); return }
            #expect(error.serverErrorCode == .changeTokenExpired)
            let olderPath = try await alice.post(alice.path(.private, "records/changes"),
                                                 RecordsChangesRequest(zoneID: ZoneID(zoneName: "Z"), syncToken: before))
            #expect(olderPath.status == 410 && olderPath.errorCode == .changeTokenExpired)

            #expect(try await alice.zoneChanges("Z", token: after).changes?.records.isEmpty == true, "a token newer than the purge stays valid")
            let fresh = try await alice.allZoneChanges("Z")
            #expect(fresh.records.compactMap(\.recordName) == ["keep"])
        }
    }

    /// `zones/changes`, the older endpoint: the same feed as `changes/database`, its token named
    /// `metaSyncToken`, and the tokens of either endpoint good for the other.
    @Test func zonesChangesIsTheDatabaseFeedWithAMetaSyncToken() async throws {
        try await TestServer.with { server in
            let alice = try await server.signUp()
            try await alice.createZone("A")
            try await alice.createZone("B")
            let path = alice.path(.private, "zones/changes")
            let first = try await alice.post(path, ZonesChangesRequest()).decode(ZonesChangesResponse.self)
            #expect(Set(first.zones.map(\.zoneID.zoneName)).isSuperset(of: ["A", "B"]) && !first.moreComing)
            let paged = try await alice.post(path, ZonesChangesRequest(resultsLimit: 1)).decode(ZonesChangesResponse.self)
            #expect(paged.zones.count == 1 && paged.moreComing)

            try await alice.createZone("C")
            let next = try await alice.post(path, ZonesChangesRequest(metaSyncToken: first.metaSyncToken)).decode(ZonesChangesResponse.self)
            #expect(next.zones.map(\.zoneID.zoneName) == ["C"])
            #expect(try await alice.databaseChanges(token: first.metaSyncToken).zones.map(\.zoneID.zoneName) == ["C"])
            let viaDatabase = try await alice.databaseChanges()
            let again = try await alice.post(path, ZonesChangesRequest(metaSyncToken: viaDatabase.syncToken)).decode(ZonesChangesResponse.self)
            #expect(again.zones.isEmpty && again.metaSyncToken == viaDatabase.syncToken)

            let bad = try await alice.post(path, ZonesChangesRequest(metaSyncToken: "not a token"))
            #expect(bad.status == 400 && bad.errorCode == .badRequest)
        }
    }

    @Test func databaseChangesReportCreatedChangedAndDeletedZones() async throws {
        try await TestServer.with(configure: { $0.tombstoneRetention = .seconds(3600) }) { server in
            let alice = try await server.signUp()
            try await alice.createZone("A")
            try await alice.createZone("B")
            let first = try await alice.databaseChanges()
            #expect(Set(first.zones.map(\.zoneID.zoneName)).isSuperset(of: ["A", "B"]))
            #expect(try await alice.databaseChanges(token: first.syncToken).zones.isEmpty)

            _ = try await alice.post(alice.path(.private, "zones/modify"), ZonesModifyRequest(operations: [.init(.delete, ZoneID(zoneName: "A"))]))
            _ = try await alice.save([.create("r")], zone: "B")
            try await alice.createZone("C")
            let second = try await alice.databaseChanges(token: first.syncToken)
            let byName = Dictionary(uniqueKeysWithValues: second.zones.map { ($0.zoneID.zoneName, $0) })
            #expect(byName.keys.sorted() == ["A", "B", "C"])
            #expect(byName["A"]?.deleted == true)
            #expect(byName["B"]?.deleted == nil && byName["B"]?.syncToken != nil)

            let paged = try await alice.databaseChanges(limit: 1)
            #expect(paged.zones.count == 1 && paged.moreComing)

            // Recreating a deleted zone: tokens of the old zone are expired, not silently reused.
            let oldToken = try #require(try await alice.zoneChanges("B").changes?.syncToken)
            _ = try await alice.post(alice.path(.private, "zones/modify"), ZonesModifyRequest(operations: [.init(.delete, ZoneID(zoneName: "B"))]))
            try await alice.createZone("B")
            let stale = try await alice.zoneChanges("B", token: oldToken)
            guard case .failure(let error) = stale else { Issue.record("old zone token honoured"); return }
            #expect(error.serverErrorCode == .changeTokenExpired)

            await server.advanceClock(by: .seconds(3601))
            let expired = try await alice.post(alice.path(.private, "changes/database"), DatabaseChangesRequest(syncToken: first.syncToken))
            #expect(expired.errorCode == .changeTokenExpired)

            // Found by the simulation: once the deleted zone itself is purged, its tokens still
            // expire (they were BAD_REQUEST, and a device kept the deleted zone's records).
            let purgedZone = try await alice.zoneChanges("B", token: oldToken)
            guard case .failure(let purgedError) = purgedZone else { Issue.record("purged zone token honoured"); return }
            #expect(purgedError.serverErrorCode == .changeTokenExpired)
        }
    }
}
