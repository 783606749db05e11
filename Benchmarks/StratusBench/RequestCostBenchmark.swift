import ArgumentParser
import AsyncHTTPClient
import Foundation
import NIOCore
import StratusCore

/// `stratus-bench requests`: the fixed cost of a small authenticated request against the cheapest
/// route, on a server as `stratus serve` runs it (its access log on, read by a reader as journald
/// would). One client, one keep-alive connection, the three requests taking turns: `GET /healthz`,
/// a one-record `records/lookup`, and a `changes/database` that returns nothing.
struct RequestCostBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "requests", abstract: "The fixed cost of a small request against /healthz.")

    @Option(help: "Requests of each kind.") var requests = 3000

    func run() async throws {
        let directory = try ScratchDirectory.make()
        defer { ScratchDirectory.remove(directory) }
        let requests = self.requests
        let (healthz, lookup, changes) = try await BenchmarkServer.inChildProcess(directory: directory.appendingPathComponent("server"),
                                                                                  logLevel: "info", userRequestsPerSecond: 100_000) { server in
            let record = #"{"operations":[{"operationType":"create","record":{"recordName":"r","recordType":"Item","fields":{"n":{"value":1}}}}]}"#
            _ = try await server.post(server.databasePath("records/modify"), body: Data(record.utf8))
            let token = try JSONDecoder().decode(DatabaseChangesResponse.self,
                                                 from: try await server.post(server.databasePath("changes/database"), body: Data("{}".utf8))).syncToken
            let lookupBody = Data(#"{"records":[{"recordName":"r"}]}"#.utf8)
            let changesBody = try JSONEncoder().encode(DatabaseChangesRequest(syncToken: token))
            var samples: ([Double], [Double], [Double]) = ([], [], [])
            for index in -200..<requests {     // 200 warm-up rounds
                let h = try await Stopwatch.seconds { _ = try await server.send(.GET, "/healthz", body: nil, signedIn: false) }
                let l = try await Stopwatch.seconds { _ = try await server.post(server.databasePath("records/lookup"), body: lookupBody) }
                let c = try await Stopwatch.seconds { _ = try await server.post(server.databasePath("changes/database"), body: changesBody) }
                if index >= 0 {
                    samples.0.append(h * 1000)
                    samples.1.append(l * 1000)
                    samples.2.append(c * 1000)
                }
            }
            return (median(samples.0), median(samples.1), median(samples.2))
        }
        print(String(format: "one connection, access log on: GET /healthz p50 %.3f ms; records/lookup (one record) p50 %.3f ms; changes/database (nothing new) p50 %.3f ms",
                     healthz, lookup, changes))
        Report.figure("small_healthz_p50_ms", healthz, decimals: 3)
        Report.figure("small_lookup_p50_ms", lookup, decimals: 3)
        Report.figure("small_changes_p50_ms", changes, decimals: 3)
        Report.ratio("lookup_vs_healthz", lookup / healthz, of: "small_lookup_p50_ms", to: "small_healthz_p50_ms")
        Report.ratio("changes_vs_healthz", changes / healthz, of: "small_changes_p50_ms", to: "small_healthz_p50_ms")
    }
}
