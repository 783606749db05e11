import Foundation
import Testing
import StratusCore

@Suite struct QueryTests {
    static let schema = """
        DEFINE SCHEMA
            RECORD TYPE Item (
                name   STRING QUERYABLE SORTABLE,
                qty    INT64 QUERYABLE SORTABLE,
                price  DOUBLE QUERYABLE SORTABLE,
                at     TIMESTAMP QUERYABLE SORTABLE,
                owner  REFERENCE QUERYABLE,
                tags   LIST<STRING> QUERYABLE,
                nums   LIST<INT64> QUERYABLE,
                note   STRING SEARCHABLE
            );
        """

    static let notes = ["apple": "Crisp, red apple.", "apricot": "Soft orange fruit", "bread": "Fresh loaf; RED crust",
                        "cherry": "small red cherries", "dates": "Dried fruit, very sweet"]

    static func item(_ name: String, qty: Int64, price: Double, tags: [String], nums: [Int64], owner: String) -> RecordOperation {
        .create(name, type: "Item", [
            "name": .string(name), "qty": .int64(qty), "price": .double(price), "at": .timestamp(1000 + qty),
            "owner": .reference(Reference(recordName: owner)), "tags": .list(.string, tags.map(FieldValue.string)),
            "nums": .list(.int64, nums.map(FieldValue.int64)), "note": .string(notes[name] ?? "plain"),
        ])
    }

    /// Five items over every indexed type.
    static func stock(_ caller: Caller) async throws {
        _ = try await caller.save([
            item("apple", qty: 3, price: 0.5, tags: ["fruit", "red"], nums: [1, 2], owner: "alice"),
            item("apricot", qty: 0, price: 1.25, tags: ["fruit"], nums: [2], owner: "bob"),
            item("bread", qty: 7, price: 2.0, tags: ["bakery"], nums: [], owner: "alice"),
            item("cherry", qty: 12, price: 4.75, tags: ["fruit", "red", "small"], nums: [1, 3], owner: "bob"),
            item("dates", qty: 5, price: 3.0, tags: ["dried"], nums: [3], owner: "carol"),
        ])
    }

    static func names(_ caller: Caller, _ filters: [QueryFilter], sort: [QuerySort]? = nil) async throws -> [String] {
        try await caller.query(CloudQuery(recordType: "Item", filterBy: filters, sortBy: sort)).records.compactMap(\.recordName)
    }

    @Test(arguments: [
        (QueryFilter(.equals, fieldName: "name", .string("bread")), ["bread"]),
        (QueryFilter(.notEquals, fieldName: "name", .string("bread")), ["apple", "apricot", "cherry", "dates"]),
        (QueryFilter(.lessThan, fieldName: "qty", .int64(5)), ["apple", "apricot"]),
        (QueryFilter(.lessThanOrEquals, fieldName: "qty", .int64(5)), ["apple", "apricot", "dates"]),
        (QueryFilter(.greaterThan, fieldName: "price", .double(2)), ["cherry", "dates"]),
        (QueryFilter(.greaterThanOrEquals, fieldName: "price", .int64(2)), ["bread", "cherry", "dates"]),
        (QueryFilter(.greaterThan, fieldName: "at", .timestamp(1005)), ["bread", "cherry"]),
        (QueryFilter(.lessThan, fieldName: "name", .string("b")), ["apple", "apricot"]),
        (QueryFilter(.in, fieldName: "qty", .list(.int64, [.int64(0), .int64(12), .int64(99)])), ["apricot", "cherry"]),
        (QueryFilter(.notIn, fieldName: "name", .list(.string, [.string("apple"), .string("dates")])), ["apricot", "bread", "cherry"]),
        (QueryFilter(.beginsWith, fieldName: "name", .string("ap")), ["apple", "apricot"]),
        (QueryFilter(.notBeginsWith, fieldName: "name", .string("ap")), ["bread", "cherry", "dates"]),
        (QueryFilter(.equals, fieldName: "owner", .reference(Reference(recordName: "bob"))), ["apricot", "cherry"]),
        (QueryFilter(.listContains, fieldName: "tags", .string("red")), ["apple", "cherry"]),
        (QueryFilter(.notListContains, fieldName: "tags", .string("fruit")), ["bread", "dates"]),
        (QueryFilter(.listContainsAny, fieldName: "tags", .list(.string, [.string("dried"), .string("bakery")])), ["bread", "dates"]),
        (QueryFilter(.notListContainsAny, fieldName: "tags", .list(.string, [.string("fruit"), .string("dried")])), ["bread"]),
        (QueryFilter(.listContainsAll, fieldName: "tags", .list(.string, [.string("fruit"), .string("red")])), ["apple", "cherry"]),
        (QueryFilter(.notListContainsAll, fieldName: "tags", .list(.string, [.string("fruit"), .string("red")])), ["apricot", "bread", "dates"]),
        (QueryFilter(.listMemberBeginsWith, fieldName: "tags", .string("sm")), ["cherry"]),
        (QueryFilter(.notListMemberBeginsWith, fieldName: "tags", .string("fr")), ["bread", "dates"]),
        (QueryFilter(.listContains, fieldName: "nums", .int64(3)), ["cherry", "dates"]),
        (QueryFilter(.listContainsAll, fieldName: "nums", .list(.int64, [.int64(1), .int64(2)])), ["apple"]),
        (QueryFilter(.equals, systemFieldName: "recordName", .string("dates")), ["dates"]),
        // An empty list: nothing is in it, and everything is not (once PostgreSQL matched nothing
        // for NOT_IN over a system field).
        (QueryFilter(.in, systemFieldName: "recordName", .list(.string, [])), []),
        (QueryFilter(.notIn, systemFieldName: "recordName", .list(.string, [])), ["apple", "apricot", "bread", "cherry", "dates"]),
        (QueryFilter(.notIn, fieldName: "name", .list(.string, [])), ["apple", "apricot", "bread", "cherry", "dates"]),
        (QueryFilter(.beginsWith, fieldName: "___recordID", .string("c")), ["cherry"]),
        (QueryFilter(.containsAnyTokens, fieldName: "note", .string("red orange")), ["apple", "apricot", "bread", "cherry"]),
        (QueryFilter(.containsAllTokens, fieldName: "note", .string("Red, APPLE")), ["apple"]),
        (QueryFilter(.containsAllTokens, fieldName: "note", .string("fruit")), ["apricot", "dates"]),
    ])
    func comparators(_ filter: QueryFilter, _ expected: [String]) async throws {
        try await TestServer.with { server in
            try await server.server.importSchema(Self.schema, container: TestServer.containerID)
            let alice = try await server.signUp()
            try await Self.stock(alice)
            #expect(try await Self.names(alice, [filter]).sorted() == expected)
        }
    }

    @Test func filtersCombineAndSystemFieldsWork() async throws {
        try await TestServer.with { server in
            try await server.server.importSchema(Self.schema, container: TestServer.containerID)
            let alice = try await server.signUp()
            try await Self.stock(alice)
            let both = try await Self.names(alice, [QueryFilter(.listContains, fieldName: "tags", .string("fruit")),
                                                    QueryFilter(.greaterThan, fieldName: "qty", .int64(1))])
            #expect(both.sorted() == ["apple", "cherry"])
            let mine = try await Self.names(alice, [QueryFilter(.equals, systemFieldName: "createdUserRecordName",
                                                                .reference(Reference(recordName: alice.userRecordName!)))])
            #expect(mine.count == 5)
            let recent = try await Self.names(alice, [QueryFilter(.greaterThan, systemFieldName: "modifiedTimestamp", .timestamp(0))])
            #expect(recent.count == 5)
        }
    }

    @Test func sorting() async throws {
        try await TestServer.with { server in
            try await server.server.importSchema(Self.schema, container: TestServer.containerID)
            let alice = try await server.signUp()
            try await Self.stock(alice)
            _ = try await alice.save([.create("nameless", type: "Item", ["qty": .int64(1)])])
            #expect(try await Self.names(alice, [], sort: [QuerySort(fieldName: "qty", ascending: false)])
                == ["cherry", "bread", "dates", "apple", "nameless", "apricot"])
            #expect(try await Self.names(alice, [], sort: [QuerySort(fieldName: "name")])
                == ["apple", "apricot", "bread", "cherry", "dates", "nameless"], "records without the field sort last")
            #expect(try await Self.names(alice, [QueryFilter(.lessThan, fieldName: "price", .double(3))], sort: [QuerySort(fieldName: "price", ascending: false)])
                == ["bread", "apricot", "apple"])
            #expect(try await Self.names(alice, [], sort: [QuerySort(systemFieldName: "recordName", ascending: false)]).first == "nameless")
        }
    }

    @Test func indexFollowsUpdatesDeletesAndSchemaChanges() async throws {
        try await TestServer.with { server in
            let alice = try await server.signUp()
            // Saved before any index exists: the import that adds one indexes them.
            let saved = try await alice.save([.create("a", type: "Item", ["name": .string("old")]), .create("b", type: "Item", ["name": .string("keep")])])
            try await server.server.importSchema(Self.schema, container: TestServer.containerID)
            #expect(try await Self.names(alice, [QueryFilter(.equals, fieldName: "name", .string("old"))]) == ["a"])

            _ = try await alice.save([RecordOperation(.update, Record(recordName: "a", recordChangeTag: saved[0].recordChangeTag, fields: ["name": .string("new")]))])
            #expect(try await Self.names(alice, [QueryFilter(.equals, fieldName: "name", .string("old"))]).isEmpty)
            #expect(try await Self.names(alice, [QueryFilter(.equals, fieldName: "name", .string("new"))]) == ["a"])
            _ = try await alice.save([RecordOperation(.forceDelete, Record(recordName: "a"))])
            #expect(try await Self.names(alice, [QueryFilter(.beginsWith, fieldName: "name", .string(""))]) == ["b"])

            try await server.server.importSchema("DEFINE SCHEMA RECORD TYPE Item (name STRING QUERYABLE SORTABLE SEARCHABLE);", container: TestServer.containerID)
            #expect(try await Self.names(alice, [QueryFilter(.containsAnyTokens, fieldName: "name", .string("KEEP"))]) == ["b"],
                    "adding SEARCHABLE to an indexed field builds its words")
            try await server.server.importSchema("DEFINE SCHEMA RECORD TYPE Item (name STRING);", container: TestServer.containerID)
            let unindexed = try await alice.post(alice.path(.private, "records/query"),
                                                 RecordsQueryRequest(query: CloudQuery(recordType: "Item", filterBy: [QueryFilter(.equals, fieldName: "name", .string("keep"))])))
            #expect(unindexed.errorCode == .badRequest)
            #expect(unindexed.error?.reason.contains("'Item.name' is not marked QUERYABLE") == true)
        }
    }

    @Test(arguments: [
        (#"{"query":{"recordType":"Item","filterBy":[{"comparator":"EQUALS","fieldName":"note","fieldValue":{"value":"n"}}]}}"#, "not marked QUERYABLE"),
        (#"{"query":{"recordType":"Item","filterBy":[{"comparator":"EQUALS","fieldName":"nope","fieldValue":{"value":"n"}}]}}"#, "has no field 'nope'"),
        (#"{"query":{"recordType":"Item","filterBy":[{"comparator":"BEGINS_WITH","fieldName":"qty","fieldValue":{"value":1}}]}}"#, "does not apply"),
        (#"{"query":{"recordType":"Item","filterBy":[{"comparator":"EQUALS","fieldName":"qty","fieldValue":{"value":"many"}}]}}"#, "does not apply"),
        (#"{"query":{"recordType":"Item","filterBy":[{"comparator":"LIST_CONTAINS","fieldName":"name","fieldValue":{"value":"x"}}]}}"#, "does not apply"),
        (#"{"query":{"recordType":"Item","filterBy":[{"comparator":"IN","fieldName":"qty","fieldValue":{"value":3}}]}}"#, "does not apply"),
        (#"{"query":{"recordType":"Item","filterBy":[{"comparator":"SIMILAR","fieldName":"qty","fieldValue":{"value":3}}]}}"#, "comparator"),
        (#"{"query":{"recordType":"Item","filterBy":[{"comparator":"CONTAINS_ANY_TOKENS","fieldName":"name","fieldValue":{"value":"a"}}]}}"#, "not marked SEARCHABLE"),
        (#"{"query":{"recordType":"Item","filterBy":[{"comparator":"CONTAINS_ANY_TOKENS","fieldName":"note","fieldValue":{"value":" ,. "}}]}}"#, "at least one word"),
        (#"{"query":{"recordType":"Item","filterBy":[{"comparator":"NEAR","fieldName":"qty","fieldValue":{"value":1}}]}}"#, "does not apply"),
        (#"{"query":{"recordType":"Item","sortBy":[{"fieldName":"tags"}]}}"#, "not marked SORTABLE"),
        (#"{"query":{"recordType":"Item"},"continuationMarker":"garbage"}"#, "continuationMarker"),
    ])
    func badQueriesAreBadRequests(_ body: String, _ reason: String) async throws {
        try await TestServer.with { server in
            try await server.server.importSchema(Self.schema, container: TestServer.containerID)
            let alice = try await server.signUp()
            let response = try await alice.post(alice.path(.private, "records/query"), json: body)
            #expect(response.status == 400 && response.errorCode == .badRequest)
            #expect(response.error?.reason.contains(reason) == true, "\(response.text)")
        }
    }

    @Test func pagingIsStableWhileRecordsAreAdded() async throws {
        try await TestServer.with { server in
            try await server.server.importSchema(Self.schema, container: TestServer.containerID)
            let alice = try await server.signUp()
            try await alice.createZone("Z")
            var existing = Set<String>()
            for batch in 0..<5 {
                let saved = try await alice.save((0..<400).map { index in
                    .create(String(format: "i%05d", batch * 400 + index), type: "Item", ["qty": .int64(Int64((batch * 400 + index) % 97))])
                }, zone: "Z")
                existing.formUnion(saved.compactMap(\.recordName))
            }
            let query = CloudQuery(recordType: "Item", filterBy: [QueryFilter(.greaterThanOrEquals, fieldName: "qty", .int64(0))],
                              sortBy: [QuerySort(fieldName: "qty"), QuerySort(systemFieldName: "createdTimestamp", ascending: false)])
            var seen: [String] = []
            var marker: String?
            var page = 0
            repeat {
                let response = try await alice.query(query, zone: "Z", limit: 150, marker: marker)
                seen += response.records.compactMap(\.recordName)
                marker = response.continuationMarker
                page += 1
                // Inserts between pages, at sort positions before and after the cursor.
                _ = try await alice.save([.create("new-\(page)-low", type: "Item", ["qty": .int64(0)]),
                                          .create("new-\(page)-high", type: "Item", ["qty": .int64(96)])], zone: "Z")
            } while marker != nil
            #expect(Set(seen).count == seen.count, "no duplicates")
            #expect(existing.isSubset(of: Set(seen)), "nothing that existed before the query began is skipped")

            let other = try await alice.post(alice.path(.private, "records/query"), RecordsQueryRequest(
                query: CloudQuery(recordType: "Item", sortBy: [QuerySort(fieldName: "name")]), zoneID: ZoneID(zoneName: "Z"), continuationMarker: try #require(
                    try await alice.query(query, zone: "Z", limit: 10, marker: nil).continuationMarker)))
            #expect(other.errorCode == .badRequest && other.error?.reason.contains("another query") == true)
        }
    }

    @Test func aZoneWideQuerySearchesEveryZoneInOneOrderAndNamesEachRecordsZone() async throws {
        try await TestServer.with { server in
            try await server.server.importSchema(Self.schema, container: TestServer.containerID)
            let alice = try await server.signUp("alice")
            try await alice.createZone("A")
            try await alice.createZone("B")
            try await alice.createZone("Gone")
            // The same record names in two zones: the order breaks their tie by zone.
            for (zone, offset) in [("A", 0), ("B", 1), ("Gone", 2)] {
                _ = try await alice.save((0..<4).map { Self.item("n\($0)", qty: Int64($0 * 3 + offset), price: 1, tags: [], nums: [], owner: "x") },
                                         zone: zone)
            }
            _ = try await alice.save([Self.item("d", qty: 100, price: 1, tags: [], nums: [], owner: "x")])
            _ = try await alice.post(alice.path(.private, "zones/modify"), ZonesModifyRequest(operations: [.init(.delete, ZoneID(zoneName: "Gone"))]))

            for sort in [[QuerySort(fieldName: "qty", ascending: false)], []] {
                let query = CloudQuery(recordType: "Item", filterBy: [QueryFilter(.greaterThanOrEquals, fieldName: "qty", .int64(1))], sortBy: sort)
                var seen: [String] = []
                var marker: String?
                repeat {
                    let response = try await alice.post(alice.path(.private, "records/query"), RecordsQueryRequest(
                        query: query, resultsLimit: 3, continuationMarker: marker, zoneWide: true)).decode(RecordsQueryResponse.self)
                    #expect(response.records.count <= 3)
                    seen += response.records.map { "\($0.zoneID?.zoneName ?? "?")/\($0.recordName ?? "?")" }
                    marker = response.continuationMarker
                } while marker != nil
                let expected = sort.isEmpty
                    ? ["_defaultZone/d", "B/n0", "A/n1", "B/n1", "A/n2", "B/n2", "A/n3", "B/n3"]
                    : ["_defaultZone/d", "B/n3", "A/n3", "B/n2", "A/n2", "B/n1", "A/n1", "B/n0"]
                #expect(seen == expected, "sorted \(sort.isEmpty ? "by name, then zone" : "by qty")")
            }

            // Without zoneWide (or with a zone named) the query stays in one zone, records unlabelled.
            let one = try await alice.post(alice.path(.private, "records/query"), RecordsQueryRequest(
                query: CloudQuery(recordType: "Item"), zoneID: ZoneID(zoneName: "A"), zoneWide: true)).decode(RecordsQueryResponse.self)
            #expect(one.records.count == 4 && one.records.allSatisfy { $0.zoneID == nil })
            let plain = try await alice.post(alice.path(.private, "records/query"), RecordsQueryRequest(query: CloudQuery(recordType: "Item")))
                .decode(RecordsQueryResponse.self)
            #expect(plain.records.compactMap(\.recordName) == ["d"])

            // A marker of a one-zone query does not continue a zone-wide one.
            let marker = try #require(try await alice.query(CloudQuery(recordType: "Item"), zone: "A", limit: 1).continuationMarker)
            let mixed = try await alice.post(alice.path(.private, "records/query"), RecordsQueryRequest(
                query: CloudQuery(recordType: "Item"), continuationMarker: marker, zoneWide: true))
            #expect(mixed.errorCode == .badRequest)
        }
    }

    @Test func aZoneWideQueryOverTooManyZonesIsRefused() async throws {
        try await TestServer.with { server in
            let alice = try await server.signUp()
            for batch in 0..<10 {
                let zones = (0..<100).map { ZonesModifyRequest.Operation(.create, ZoneID(zoneName: "z\(batch)-\($0)")) }
                #expect(try await alice.post(alice.path(.private, "zones/modify"), ZonesModifyRequest(operations: zones)).error == nil)
            }
            let request = RecordsQueryRequest(query: CloudQuery(recordType: "Item"), zoneWide: true)
            // The default zone and 1,000 others: one over the bound.
            _ = try await alice.save([.create("d")])
            let refused = try await alice.post(alice.path(.private, "records/query"), request)
            #expect(refused.errorCode == .limitExceeded)
            _ = try await alice.post(alice.path(.private, "zones/modify"), ZonesModifyRequest(operations: [.init(.delete, ZoneID(zoneName: "z0-0"))]))
            #expect(try await alice.post(alice.path(.private, "records/query"), request).error == nil)
        }
    }

    @Test func aParticipantsZoneWideQuerySeesOnlyWhatTheirSharesCover() async throws {
        try await TestServer.with { server in
            try await server.server.importSchema(Self.schema, container: TestServer.containerID)
            let bob = try await server.signUp("bob")
            let alice = try await server.signUp("alice")
            let carol = try await server.signUp("carol")
            for (owner, zone) in [(alice, "Lists"), (carol, "Trips")] {
                try await owner.createZone(zone)
                let root = Self.item("root-\(zone)", qty: 1, price: 1, tags: [], nums: [], owner: "x")
                var child = Self.item("child-\(zone)", qty: 2, price: 1, tags: [], nums: [], owner: "x")
                child.record.parent = RecordPointer(recordName: "root-\(zone)")
                _ = try await owner.save([root, child, Self.item("private-\(zone)", qty: 3, price: 1, tags: [], nums: [], owner: "x")], zone: zone)
                let share = try await owner.share("root-\(zone)", zone: zone, participants: [(bob.username!, .readOnly)])
                _ = try await bob.shareMetadata(try #require(share.shareKeys?.shortGUID), accept: true)
            }
            let response = try await bob.post(bob.path(.shared, "records/query"), RecordsQueryRequest(
                query: CloudQuery(recordType: "Item", sortBy: [QuerySort(fieldName: "qty")]), resultsLimit: 10, zoneWide: true))
                .decode(RecordsQueryResponse.self)
            let seen = Set(response.records.map { "\($0.zoneID?.ownerRecordName == alice.userRecordName ? "alice" : "carol")/\($0.recordName ?? "")" })
            #expect(seen == ["alice/root-Lists", "alice/child-Lists", "carol/root-Trips", "carol/child-Trips"])
            #expect(response.continuationMarker == nil)
        }
    }

    @Test func productionAndPublicQueries() async throws {
        try await TestServer.with { server in
            let user = try await server.signUp("user", environment: "production")
            let unknown = try await user.post(user.path(.private, "records/query"), RecordsQueryRequest(query: CloudQuery(recordType: "Item")))
            #expect(unknown.errorCode == .badRequest && unknown.error?.reason.contains("not in the production schema") == true)

            try await server.server.importSchema(Self.schema, container: TestServer.containerID)
            let alice = try await server.signUp()
            _ = try await alice.save([Self.item("pub", qty: 1, price: 1, tags: [], nums: [], owner: "x")], database: .public)
            let anonymous = try await server.anonymous.query(CloudQuery(recordType: "Item", filterBy: [QueryFilter(.equals, fieldName: "qty", .int64(1))]),
                                                             database: .public)
            #expect(anonymous.records.compactMap(\.recordName) == ["pub"])
        }
    }
}

extension Caller {
    func query(_ query: CloudQuery, zone: String = ZoneID.defaultZoneName, limit: Int? = nil, marker: String? = nil,
               database: DatabaseScope = .private) async throws -> RecordsQueryResponse {
        let request = RecordsQueryRequest(query: query, zoneID: ZoneID(zoneName: zone), resultsLimit: limit, continuationMarker: marker)
        return try await post(path(database, "records/query"), request).decode(RecordsQueryResponse.self)
    }
}
