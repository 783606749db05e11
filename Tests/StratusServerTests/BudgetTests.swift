import Foundation
import Testing
import StratusCore

/// Every response is bounded: names repeated to multiply a response are refused, feeds and
/// queries page at the response budget, lookups over it are refused, and queries, zones and
/// subscriptions have counted bounds.
@Suite struct BudgetTests {
    static let budget = 400_000
    static let bigText = String(repeating: "x", count: 100_000)

    /// A server whose response budget (and request limit) holds about three 100 KB records, and
    /// ten of them saved.
    static func withTenBigRecords(_ body: @Sendable (TestServer, Caller) async throws -> Void) async throws {
        try await TestServer.with(configure: {
            $0.maxResponseBytes = budget
            $0.maxRequestBytes = 300_000
        }) { server in
            try await server.server.importSchema(QueryTests.schema, container: TestServer.containerID)
            let alice = try await server.signUp()
            try await alice.createZone("Big")
            for index in 0..<10 {
                _ = try await alice.save([.create("big\(index)", type: "Item", ["name": .string("big\(index)"), "note": .string(bigText)])], zone: "Big")
            }
            try await body(server, alice)
        }
    }

    @Test func repeatedZonesAndRecordNamesAreBadRequest() async throws {
        try await TestServer.with { server in
            let alice = try await server.signUp()
            try await alice.createZone("Z")
            let zone = ZoneChangesRequest.ZoneQuery(zoneID: ZoneID(zoneName: "Z"))
            let changes = try await alice.post(alice.path(.private, "changes/zone"), ZoneChangesRequest(zones: [zone, zone]))
            #expect(changes.status == 400 && changes.errorCode == .badRequest)
            _ = try await alice.save([.create("r")])
            let lookup = try await alice.post(alice.path(.private, "records/lookup"),
                                              RecordsLookupRequest(records: [.init(recordName: "r"), .init(recordName: "r")]))
            #expect(lookup.status == 400 && lookup.errorCode == .badRequest)
        }
    }

    @Test func zoneChangesStopAtTheBudgetAndResumeThere() async throws {
        try await Self.withTenBigRecords { _, alice in
            var token: String?
            var names: [String] = []
            var pages = 0
            while true {
                let request = ZoneChangesRequest(zones: [.init(zoneID: ZoneID(zoneName: "Big"), syncToken: token)])
                let response = try await alice.post(alice.path(.private, "changes/zone"), request)
                #expect(response.body.count <= Self.budget, "a page of \(response.body.count) bytes")
                let page = try #require(try response.decode(ZoneChangesResponse.self).zones.first?.changes)
                names += page.records.compactMap(\.recordName)
                token = page.syncToken
                pages += 1
                if !page.moreComing { break }
            }
            #expect(pages >= 4, "ten 100 KB records cannot fit a 400 KB budget in fewer than four pages")
            #expect(names.sorted() == (0..<10).map { "big\($0)" }.sorted(), "each record exactly once")
        }
    }

    @Test func aLookupOverTheBudgetIsLimitExceeded() async throws {
        try await Self.withTenBigRecords { _, alice in
            let all = RecordsLookupRequest(records: (0..<10).map { .init(recordName: "big\($0)") }, zoneID: ZoneID(zoneName: "Big"))
            let refused = try await alice.post(alice.path(.private, "records/lookup"), all)
            #expect(refused.status == 413 && refused.errorCode == .limitExceeded)
            let some = try await alice.lookup(["big0", "big1"], zone: "Big")
            #expect(some.compactMap(\.record).count == 2)
        }
    }

    /// A small request touching many large records (updates merge with them, deletions drop them)
    /// would make a large answer and large notifications: over the budget it is refused whole.
    @Test func aBatchTouchingTooManyBytesIsRefusedWhole() async throws {
        try await Self.withTenBigRecords { _, alice in
            let updates = (0..<10).map { RecordOperation(.forceUpdate, Record(recordName: "big\($0)", recordType: "Item", fields: ["qty": .int64(1)])) }
            let refused = try await alice.post(alice.path(.private, "records/modify"),
                                               RecordsModifyRequest(operations: updates, zoneID: ZoneID(zoneName: "Big"), atomic: false))
            #expect(refused.status == 413 && refused.errorCode == .limitExceeded, "\(refused.text)")
            let deletes = (0..<10).map { RecordOperation(.forceDelete, Record(recordName: "big\($0)")) }
            let refusedDeletes = try await alice.post(alice.path(.private, "records/modify"),
                                                      RecordsModifyRequest(operations: deletes, zoneID: ZoneID(zoneName: "Big"), atomic: false))
            #expect(refusedDeletes.errorCode == .limitExceeded)
            let untouched = try await alice.lookup(["big0", "big1"], zone: "Big")
            #expect(untouched.allSatisfy { $0.record?.fields["qty"] == nil }, "nothing of a refused batch is written")
            let split = try await alice.modify(Array(updates.prefix(2)), zone: "Big", atomic: false)
            #expect(split.allSatisfy { $0.record != nil })
        }
    }

    @Test func queriesPageAtTheBudget() async throws {
        try await Self.withTenBigRecords { _, alice in
            var marker: String?
            var names: [String] = []
            repeat {
                let request = RecordsQueryRequest(query: CloudQuery(recordType: "Item", sortBy: [QuerySort(fieldName: "name")]),
                                                  zoneID: ZoneID(zoneName: "Big"), continuationMarker: marker)
                let response = try await alice.post(alice.path(.private, "records/query"), request)
                #expect(response.body.count <= Self.budget)
                let page = try response.decode(RecordsQueryResponse.self)
                names += page.records.compactMap(\.recordName)
                marker = page.continuationMarker
            } while marker != nil
            #expect(names == (0..<10).map { "big\($0)" }, "in order, each once")
        }
    }

    @Test func continuationMarkersCannotBeReadOrForged() async throws {
        try await Self.withTenBigRecords { _, alice in
            let first = try await alice.query(CloudQuery(recordType: "Item", sortBy: [QuerySort(fieldName: "name")]), zone: "Big", limit: 2)
            let marker = try #require(first.continuationMarker)
            let decoded = Data(base64Encoded: marker.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
                .padding(toLength: (marker.count + 3) / 4 * 4, withPad: "=", startingAt: 0)) ?? Data()
            #expect(!String(decoding: decoded, as: UTF8.self).contains("big1"), "a marker must not carry a readable record name")
            var tampered = Array(marker)
            tampered[tampered.count / 2] = tampered[tampered.count / 2] == "A" ? "B" : "A"
            let forged = [String(tampered), "eyJmaW5nZXJwcmludCI6IngiLCJ2YWx1ZXMiOltdLCJyZWNvcmROYW1lIjoiYmlnOSJ9"]
            for text in forged {
                let request = RecordsQueryRequest(query: CloudQuery(recordType: "Item", sortBy: [QuerySort(fieldName: "name")]),
                                                  zoneID: ZoneID(zoneName: "Big"), continuationMarker: text)
                let response = try await alice.post(alice.path(.private, "records/query"), request)
                #expect(response.status == 400 && response.errorCode == .badRequest)
            }
            let next = try await alice.query(CloudQuery(recordType: "Item", sortBy: [QuerySort(fieldName: "name")]), zone: "Big", limit: 2, marker: marker)
            #expect(next.records.compactMap(\.recordName) == ["big2", "big3"])
        }
    }

    @Test func queryZoneAndSubscriptionCountsAreBounded() async throws {
        try await TestServer.with(configure: {
            $0.maxQueryFilters = 2
            $0.maxQuerySortKeys = 1
            $0.maxFilterListValues = 3
            $0.maxZonesPerRequest = 2
            $0.maxSubscriptionsPerUser = 2
        }) { server in
            try await server.server.importSchema(QueryTests.schema, container: TestServer.containerID)
            let alice = try await server.signUp()
            let filter = QueryFilter(.equals, fieldName: "qty", .int64(1))
            let queries = [
                CloudQuery(recordType: "Item", filterBy: [filter, filter, filter]),
                CloudQuery(recordType: "Item", sortBy: [QuerySort(fieldName: "qty"), QuerySort(fieldName: "name")]),
                CloudQuery(recordType: "Item", filterBy: [QueryFilter(.in, fieldName: "qty", .list(.int64, (0..<4).map { .int64($0) }))]),
            ]
            for query in queries {
                let response = try await alice.post(alice.path(.private, "records/query"), RecordsQueryRequest(query: query))
                #expect(response.status == 413 && response.errorCode == .limitExceeded, "\(response.text)")
            }
            let zones = (0..<3).map { ZoneChangesRequest.ZoneQuery(zoneID: ZoneID(zoneName: "Z\($0)")) }
            let changes = try await alice.post(alice.path(.private, "changes/zone"), ZoneChangesRequest(zones: zones))
            #expect(changes.status == 413 && changes.errorCode == .limitExceeded)

            let subscriptions = (0..<3).map { index in
                SubscriptionsModifyRequest.Operation(.create, CloudSubscription(subscriptionID: "s\(index)", subscriptionType: .database))
            }
            let response = try await alice.post(alice.path(.private, "subscriptions/modify"), SubscriptionsModifyRequest(operations: subscriptions))
            let codes = try response.decode(SubscriptionsResponse.self).subscriptions.map { result -> ServerErrorCode? in
                if case .failure(let error) = result { return error.serverErrorCode }
                return nil
            }
            #expect(codes == [nil, nil, .limitExceeded])
        }
    }
}
