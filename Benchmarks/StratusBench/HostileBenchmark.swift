import ArgumentParser
import Foundation
import StratusCore

/// `stratus-bench hostile`: a client holding the app's API token tries what a hostile user
/// would — repeated names and zones, huge lists, forged markers, floods of sign-ins,
/// subscriptions, couriers, sockets and concurrent large reads — against a server in a child
/// process, then the fixed combined attack (``combinedAttack(_:tally:)``) while a well-behaved client
/// reads. Reports the server's peak RSS (`VmHWM`, target ≤ 300 MiB), how many answers were 5xx
/// (target 0), and the well-behaved client's p99 (target < 100 ms) and failed requests (target 0).
/// Every loop is bounded in count.
struct HostileBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "hostile", abstract: "Abuse the server; report its peak memory and 5xx answers.")

    @Option(help: "WebSockets to open at once for one user.") var sockets = 2000
    @Option(help: "Concurrent clients reading large records.") var readers = 64

    func run() async throws {
        let directory = try ScratchDirectory.make()
        defer { ScratchDirectory.remove(directory) }
        let (sockets, readers) = (self.sockets, self.readers)
        let (peak, tally, good) = try await BenchmarkServer.inChildProcess(directory: directory.appendingPathComponent("server")) { server in
            let tally = Tally()
            try await Self.attack(server, tally: tally, sockets: sockets, readers: readers)
            let good = try await Self.combinedAttack(server, tally: tally)
            return (Double(PeakMemory.status("VmHWM", of: "\(server.processID ?? 0)")) / 1_048_576, tally, good)
        }
        for (step, codes) in await tally.byStep.sorted(by: { $0.key < $1.key }) {
            print("  \(step): " + codes.sorted { $0.key < $1.key }.map { "\($0.key)×\($0.value)" }.joined(separator: " "))
        }
        print(String(format: "server peak RSS %.0f MiB (target ≤ 300), 5xx answers %d (target 0)", peak, await tally.serverErrors))
        Report.figure("hostile_peak_rss_mib", peak, decimals: 0)
        Report.figure("hostile_5xx", Double(await tally.serverErrors), decimals: 0)
        print(String(format: "well-behaved client under the combined attack: %d requests, p99 %.1f ms (target < 100), %d failed (target 0)",
                     good.latencies.count, good.p99, good.failures))
        Report.figure("hostile_good_p99_ms", good.p99, decimals: 1)
        Report.figure("hostile_good_failures", Double(good.failures), decimals: 0)
    }

    actor Tally {
        var byStep: [String: [Int: Int]] = [:]
        var serverErrors: Int { byStep.values.reduce(0) { $0 + $1.filter { $0.key >= 500 }.values.reduce(0, +) } }
        func count(_ step: String, _ status: Int) { byStep[step, default: [:]][status, default: 0] += 1 }
    }

    static func attack(_ server: BenchmarkServer, tally: Tally, sockets: Int, readers: Int) async throws {
        let encoder = JSONEncoder()
        let zone = ZoneID(zoneName: "Z")
        func send(_ step: String, _ path: String, _ body: some Encodable, signedIn: Bool = true) async throws -> Data {
            let (status, data) = try await server.send(.POST, path, body: try encoder.encode(body), signedIn: signedIn)
            await tally.count(step, status)
            return data
        }
        func peak(after step: String) {
            print(String(format: "  after %@: server peak RSS %.0f MiB", step, Double(PeakMemory.status("VmHWM", of: "\(server.processID ?? 0)")) / 1_048_576))
        }
        _ = try await send("setup", server.databasePath("zones/modify"), ZonesModifyRequest(operations: [.init(.create, zone)]))
        let big = String(repeating: "x", count: 900_000)
        for index in 0..<24 {
            let record = Record(recordName: "big\(index)", recordType: "Blob", fields: ["text": .string(big)])
            _ = try await send("setup", server.databasePath("records/modify"), RecordsModifyRequest(operations: [RecordOperation(.create, record)], zoneID: zone))
        }
        let publicPath = "/database/1/\(BenchmarkServer.containerID)/development/public/"
        _ = try await send("setup", publicPath + "records/modify",
                           RecordsModifyRequest(operations: [RecordOperation(.create, Record(recordName: "pub", recordType: "Blob", fields: ["text": .string(big)]))]))

        peak(after: "setup")
        // One small request naming the same thing many times.
        _ = try await send("zone named 200 times", server.databasePath("changes/zone"),
                           ZoneChangesRequest(zones: Array(repeating: .init(zoneID: zone), count: 200)))
        _ = try await send("record named 400 times", server.databasePath("records/lookup"),
                           RecordsLookupRequest(records: Array(repeating: .init(recordName: "big0"), count: 400), zoneID: zone))
        _ = try await send("public record named 400 times, no sign-in", publicPath + "records/lookup",
                           RecordsLookupRequest(records: Array(repeating: .init(recordName: "pub"), count: 400)), signedIn: false)
        _ = try await send("24 large records in one lookup", server.databasePath("records/lookup"),
                           RecordsLookupRequest(records: (0..<24).map { .init(recordName: "big\($0)") }, zoneID: zone))
        peak(after: "repeated names")
        // Huge queries and forged markers.
        let filters = (0..<2000).map { QueryFilter(.equals, fieldName: "text", .string("\($0)")) }
        _ = try await send("2,000 filters", server.databasePath("records/query"), RecordsQueryRequest(query: CloudQuery(recordType: "Blob", filterBy: filters), zoneID: zone))
        let list = QueryFilter(.in, fieldName: "text", .list(.string, (0..<50_000).map { .string("\($0)") }))
        _ = try await send("50,000-value list", server.databasePath("records/query"), RecordsQueryRequest(query: CloudQuery(recordType: "Blob", filterBy: [list]), zoneID: zone))
        for forged in ["AAAA", String(repeating: "A", count: 4000), "eyJmaW5nZXJwcmludCI6IngiLCJ2YWx1ZXMiOltdLCJyZWNvcmROYW1lIjoiYmlnOSJ9"] {
            _ = try await send("forged marker", server.databasePath("records/query"),
                               RecordsQueryRequest(query: CloudQuery(recordType: "Blob"), zoneID: zone, continuationMarker: forged))
        }
        peak(after: "huge queries")
        // Floods.
        let signUp = try await send("setup", "/auth/1/\(BenchmarkServer.containerID)/development/signup", Credentials(username: "victim", password: "victim-password"))
        _ = signUp
        try await withThrowingTaskGroup(of: Void.self) { group in
            for attempt in 0..<300 {
                group.addTask {
                    _ = try await send("wrong passwords for one account", "/auth/1/\(BenchmarkServer.containerID)/development/signin",
                                       Credentials(username: "victim", password: "guess-\(attempt)"), signedIn: false)
                }
                if attempt % 16 == 15 { try await group.waitForAll() }
            }
        }
        peak(after: "sign-in flood")
        for index in 0..<300 {
            let subscription = CloudSubscription(subscriptionID: "s\(index)", subscriptionType: .database)
            _ = try await send("subscriptions", server.databasePath("subscriptions/modify"),
                               SubscriptionsModifyRequest(operations: [.init(.create, subscription)]))
        }
        for _ in 0..<200 {
            _ = try await send("couriers", "/device/1/\(BenchmarkServer.containerID)/development/tokens/create", TokenCreateRequest())
        }
        let url = server.baseURL.replacingOccurrences(of: "http://", with: "ws://")
            + "/push/1/\(BenchmarkServer.containerID)/development/websocket?ckAPIToken=\(server.apiToken)&ckWebAuthToken="
            + (server.webAuthToken.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
        peak(after: "subscriptions and couriers")
        let listeners = (0..<sockets).map { _ in RawListener() }
        for listener in listeners { listener.start(url: url) }
        try await Task.sleep(for: .seconds(2))
        peak(after: "sockets")
        // Concurrent readers of large records while the sockets are open.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for reader in 0..<readers {
                group.addTask {
                    for round in 0..<4 {
                        let names = (0..<4).map { "big\(($0 + reader + round) % 24)" }
                        _ = try await send("concurrent large lookups", server.databasePath("records/lookup"),
                                           RecordsLookupRequest(records: names.map { .init(recordName: $0) }, zoneID: zone))
                        _ = try await send("concurrent change feeds", server.databasePath("changes/zone"), ZoneChangesRequest(zones: [.init(zoneID: zone)]))
                    }
                }
            }
            try await group.waitForAll()
        }
        peak(after: "concurrent reads")
        var connected = 0
        for _ in 0..<50 where connected < sockets {
            connected = listeners.filter(\.isConnected).count
            try await Task.sleep(for: .milliseconds(100))
        }
        print("  sockets connected: \(connected) of \(sockets)")
        for listener in listeners { listener.stop() }
    }
}
