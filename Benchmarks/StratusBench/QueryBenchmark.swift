import ArgumentParser
import Foundation
import StratusCore

/// `stratus-bench query`: the same indexed query (EQUALS on a QUERYABLE field, 20 results)
/// against a zone of 1,000 records and one of 1,000,000; p50 latency of each over loopback HTTP.
struct QueryBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "query", abstract: "Indexed query latency: small zone vs large zone.")

    @Option(help: "Records in the small zone.") var small = 1_000
    @Option(help: "Records in the large zone.") var large = 1_000_000
    @Option(help: "Queries per zone.") var runs = 200

    func run() async throws {
        let directory = try ScratchDirectory.make()
        defer { ScratchDirectory.remove(directory) }
        print("EQUALS on a QUERYABLE field, 20 results; \(small) vs \(large) records; p50 of \(runs) queries")
        let (smallP50, largeP50) = try await BenchmarkServer.with(directory: directory) { server in
            try await server.importSchema("DEFINE SCHEMA RECORD TYPE Item (category STRING QUERYABLE, title STRING, qty INT64);")
            try await Self.fill(server, zone: "Small", count: small)
            try await Self.fill(server, zone: "Large", count: large)
            return (try await Self.p50(server, zone: "Small", count: small, runs: runs),
                    try await Self.p50(server, zone: "Large", count: large, runs: runs))
        }
        print(String(format: "p50 %d records:  %.3f ms", small, smallP50 * 1000))
        print(String(format: "p50 %d records:  %.3f ms   ratio %.2f (target ≤ 3)", large, largeP50 * 1000, largeP50 / smallP50))
        Report.figure("query_1k_p50_ms", smallP50 * 1000, decimals: 3)
        Report.figure("query_1m_p50_ms", largeP50 * 1000, decimals: 3)
        Report.ratio("query_1m_vs_1k", largeP50 / smallP50, of: "query_1m_p50_ms", to: "query_1k_p50_ms")
    }

    /// Saves `count` records whose categories each hold 20 of them.
    private static func fill(_ server: BenchmarkServer, zone: String, count: Int) async throws {
        let zoneID = ZoneID(zoneName: zone)
        _ = try await server.post(server.databasePath("zones/modify"),
                                  body: try JSONEncoder().encode(ZonesModifyRequest(operations: [.init(.create, zoneID)])))
        let categories = max(count / 20, 1)
        for start in stride(from: 0, to: count, by: 400) {
            let operations = (start..<min(start + 400, count)).map { index in
                RecordOperation(.create, Record(recordName: "item-\(index)", recordType: "Item", fields: [
                    "category": .string("c\(index % categories)"), "title": .string("Item \(index)"), "qty": .int64(Int64(index % 17)),
                ]))
            }
            _ = try await server.post(server.databasePath("records/modify"),
                                      body: try JSONEncoder().encode(RecordsModifyRequest(operations: operations, zoneID: zoneID)))
        }
    }

    private static func p50(_ server: BenchmarkServer, zone: String, count: Int, runs: Int) async throws -> Double {
        let categories = max(count / 20, 1)
        var generator = SystemRandomNumberGenerator()
        var latencies: [Double] = []
        for _ in 0..<runs {
            let category = "c\(Int.random(in: 0..<categories, using: &generator))"
            let request = RecordsQueryRequest(query: CloudQuery(recordType: "Item", filterBy: [QueryFilter(.equals, fieldName: "category", .string(category))]),
                                              zoneID: ZoneID(zoneName: zone))
            let body = try JSONEncoder().encode(request)
            var data = Data()
            latencies.append(try await Stopwatch.seconds { data = try await server.post(server.databasePath("records/query"), body: body) })
            let found = try JSONDecoder().decode(RecordsQueryResponse.self, from: data).records.count
            guard found == 20 else { throw BenchmarkError("query for \(category) in \(zone) found \(found) records, expected 20") }
        }
        return latencies.sorted()[latencies.count / 2]
    }
}
