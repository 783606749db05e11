import Foundation
import Testing
import StratusCore
@testable import StratusServer

@Suite struct LocationQueryTests {
    static let places: [(String, Double, Double)] = [
        ("london", 51.5074, -0.1278), ("oxford", 51.7520, -1.2577), ("paris", 48.8566, 2.3522), ("newyork", 40.7128, -74.0060),
    ]

    static func setUp(_ server: TestServer) async throws -> Caller {
        try await server.server.importSchema("DEFINE SCHEMA RECORD TYPE Shop (place LOCATION QUERYABLE SORTABLE);", container: TestServer.containerID)
        let alice = try await server.signUp()
        _ = try await alice.save(places.map { .create($0.0, type: "Shop", ["place": .location(Location(latitude: $0.1, longitude: $0.2))]) }
            + [.create("online", type: "Shop")])
        return alice
    }

    static let london = FieldValue.location(Location(latitude: 51.5074, longitude: -0.1278))

    @Test func greatCircleDistance() {
        let meters = QueryIndexing.greatCircleMeters(51.5074, -0.1278, 48.8566, 2.3522)
        #expect(abs(meters - 343_500) < 2_000)
        #expect(QueryIndexing.greatCircleMeters(10, 20, 10, 20) == 0)
    }

    @Test(arguments: [(1_000.0, ["london"]), (100_000.0, ["london", "oxford"]), (400_000.0, ["london", "oxford", "paris"]),
                      (10_000_000.0, ["london", "newyork", "oxford", "paris"])] as [(Double, [String])])
    func nearFindsWhatIsWithinTheDistance(_ meters: Double, _ expected: [String]) async throws {
        try await TestServer.with { server in
            let alice = try await Self.setUp(server)
            let response = try await alice.query(CloudQuery(recordType: "Shop", filterBy: [QueryFilter(.near, fieldName: "place", Self.london, distance: meters)]))
            #expect(response.records.compactMap(\.recordName).sorted() == expected)
        }
    }

    @Test func sortingByDistancePagesInOrder() async throws {
        try await TestServer.with { server in
            let alice = try await Self.setUp(server)
            var sort = QuerySort(fieldName: "place")
            sort.relativeLocation = RecordField(Self.london)
            var names: [String] = []
            var marker: String?
            repeat {
                let page = try await alice.query(CloudQuery(recordType: "Shop", sortBy: [sort]), limit: 2, marker: marker)
                names += page.records.compactMap(\.recordName)
                marker = page.continuationMarker
            } while marker != nil
            #expect(names == ["london", "oxford", "paris", "newyork", "online"], "nearest first; without a place last")
        }
    }

    @Test func nearNeedsALocationAndADistance() async throws {
        try await TestServer.with { server in
            let alice = try await Self.setUp(server)
            for filter in [QueryFilter(.near, fieldName: "place", Self.london), QueryFilter(.near, fieldName: "place", .string("London"), distance: 5)] {
                let response = try await alice.post(alice.path(.private, "records/query"), RecordsQueryRequest(query: CloudQuery(recordType: "Shop", filterBy: [filter])))
                #expect(response.errorCode == .badRequest)
            }
        }
    }
}
