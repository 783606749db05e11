import Foundation
import StratusCore
import StratusServer

/// The concurrent part of `stratus-bench server`: single-record saves the way apps make them,
/// each acknowledged only once fsynced.
///
/// - `modify_concurrent_16_vs_1`: saves per second of 16 clients (16 users, one request at a
///   time each) ÷ saves per second of one client. Group commit is what lets the 16 share fsyncs.
/// - `single_save_p50_vs_no_group_commit`: a lone client's median save latency with group commit
///   ÷ the same without it (same build, same run): grouping must add no wait to a lone write.
struct ConcurrentSaves {
    var saves: Int
    var repeats: Int
    static let clients = 16

    func run(in directory: URL) async throws {
        print("single-record saves: 1 client x \(saves) vs \(Self.clients) clients x \(saves), median of \(repeats)")
        var ratios: [Double] = []
        var latencyRatios: [Double] = []
        var single: [Double] = []
        var concurrent: [Double] = []
        var p50s: [Double] = []
        var ungroupedP50s: [Double] = []
        for run in 0..<repeats {
            let (oneRate, manyRate, p50) = try await BenchmarkServer.with(directory: directory.appendingPathComponent("concurrent-\(run)")) { server in
                var callers: [BenchmarkServer] = []
                for index in 0..<Self.clients { callers.append(try await server.anotherUser("writer-\(index)")) }
                let (oneSeconds, latencies) = try await Self.saveAll([callers[0]], saves: saves, prefix: "one")
                let (manySeconds, _) = try await Self.saveAll(callers, saves: saves, prefix: "many")
                return (Double(saves) / oneSeconds, Double(saves * Self.clients) / manySeconds, median(latencies))
            }
            let ungroupedP50 = try await BenchmarkServer.with(directory: directory.appendingPathComponent("ungrouped-\(run)"),
                                                              configure: { $0.groupCommit = false }) { server in
                median(try await Self.saveAll([server], saves: saves, prefix: "one").latencies)
            }
            print(String(format: "  run %d: 1 client %.0f saves/s (p50 %.2f ms; without group commit %.2f ms)  %d clients %.0f saves/s  ratio %.2f",
                         run + 1, oneRate, p50 * 1000, ungroupedP50 * 1000, Self.clients, manyRate, manyRate / oneRate))
            single.append(oneRate)
            concurrent.append(manyRate)
            p50s.append(p50)
            ungroupedP50s.append(ungroupedP50)
            ratios.append(manyRate / oneRate)
            latencyRatios.append(p50 / ungroupedP50)
        }
        Report.figure("save_1_client_per_s", median(single), decimals: 0)
        Report.figure("save_16_clients_per_s", median(concurrent), decimals: 0)
        Report.figure("single_save_p50_ms", median(p50s) * 1000)
        Report.figure("single_save_p50_no_group_commit_ms", median(ungroupedP50s) * 1000)
        Report.ratio("modify_concurrent_16_vs_1", median(ratios), of: "save_16_clients_per_s", to: "save_1_client_per_s")
        Report.ratio("single_save_p50_vs_no_group_commit", median(latencyRatios), of: "single_save_p50_ms", to: "single_save_p50_no_group_commit_ms")
    }

    /// Each caller saves `saves` one-record batches in turn, all callers at once. Returns the
    /// wall time and every save's latency. The bodies are encoded before the clock starts, as in
    /// the batch scenario: the client shares the machine, and its encoding is not the server's work.
    static func saveAll(_ callers: [BenchmarkServer], saves: Int, prefix: String) async throws -> (seconds: Double, latencies: [Double]) {
        let bodies = try callers.indices.map { index in
            try (0..<saves).map { item in
                let record = StratusCore.Record(recordName: "\(prefix)-\(index)-\(item)", recordType: "Item",
                                                fields: ["title": .string("Item \(item)"), "quantity": .int64(Int64(item))])
                return try JSONEncoder().encode(RecordsModifyRequest(operations: [RecordOperation(.create, record)]))
            }
        }
        var latencies: [Double] = []
        let seconds = try await Stopwatch.seconds {
            latencies = try await withThrowingTaskGroup(of: [Double].self) { group in
                for (caller, bodies) in zip(callers, bodies) {
                    group.addTask {
                        var own: [Double] = []
                        own.reserveCapacity(saves)
                        for body in bodies {
                            own.append(try await Stopwatch.seconds {
                                _ = try await caller.post(caller.databasePath("records/modify"), body: body)
                            })
                        }
                        return own
                    }
                }
                return try await group.reduce(into: []) { $0 += $1 }
            }
        }
        return (seconds, latencies)
    }
}
