import ArgumentParser
import Foundation
import StratusClient
import StratusTesting
import Synchronization

/// `stratus-sim soak`: a real `stratus serve` under a steady mix of writers, readers, change-feed
/// followers, push listeners and asset uploads for a fixed time, reporting per minute the
/// requests, errors, latency percentiles, and the server's memory and open file descriptors.
struct Soak: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "soak", abstract: "A steady load for a long time; watch for leaks and drift.")

    @Option(help: "How long to run, in minutes.") var minutes = 30.0
    @Option(help: "Requests per second to send.") var rate = 200
    @Option(help: "Users, each with a zone, a subscription and a share of the load.") var users = 4
    @Option(help: "Push connections listening (spread over the users).") var listeners = 20
    @Option(help: "Seconds per report line (and per latency sample).") var reportEvery = 60.0
    @Option(help: "Minutes at the start left out of the slope and drift figures.") var warmUp = 2.0
    @Option(help: "The seed of the request mix (random when absent; printed either way).") var seed: UInt64?
    @Option(help: "The stratus executable (default: the one built next to this tool).") var stratus: String?

    func run() async throws {
        let seed = self.seed ?? UInt64.random(in: 1...UInt64.max)
        print("soak: seed \(seed), \(rate) requests/s for \(minutes) min, \(users) users, \(listeners) push listeners")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("stratus-soak-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = ServerProcess(executable: stratus.map(URL.init(fileURLWithPath:)) ?? ServerProcess.siblingExecutable,
                                   dataDirectory: directory.appendingPathComponent("server"))
        try await server.start()
        defer { server.stop() }
        let asset = directory.appendingPathComponent("asset.bin")
        try Data((0..<65_536).map { UInt8(truncatingIfNeeded: $0 &* 31) }).write(to: asset)

        var clients: [SoakClient] = []
        for index in 0..<users { clients.append(try await SoakClient.signedUp(index: index, server: server, asset: asset)) }
        var connections: [PushConnection] = []
        let heard = PushCount()
        for index in 0..<listeners {
            let connection = PushConnection(container: clients[index % users].container)
            await connection.start()
            Task { for await _ in connection.notifications { heard.value.add(1, ordering: .relaxed) } }
            connections.append(connection)
        }

        let stats = SoakStats()
        let end = ContinuousClock.now + .seconds(minutes * 60)
        let interval = Duration.seconds(1) / rate
        var generator = SeededGenerator(seed: seed)
        var samples: [SoakStats.Window] = []
        var nextReport = ContinuousClock.now + .seconds(reportEvery)
        var behind = 0
        print("minute  requests  errors  p50 ms  p99 ms  RSS MiB  fds  pushes heard")
        try await withThrowingDiscardingTaskGroup { group in
            var next = ContinuousClock.now
            while next < end {
                if stats.tryStart(limit: 64) {
                    let client = clients[Int.random(in: 0..<clients.count, using: &generator)]
                    let kind = SoakClient.Kind.pick(using: &generator)
                    group.addTask {
                        let started = ContinuousClock.now
                        do {
                            try await client.perform(kind)
                            stats.finish(latency: ContinuousClock.now - started, error: nil)
                        } catch {
                            stats.finish(latency: ContinuousClock.now - started, error: "\(kind.rawValue): \(error)")
                        }
                    }
                } else {
                    behind += 1
                }
                next += interval
                if next >= nextReport {
                    var window = stats.takeWindow()
                    let usage = server.usage()
                    window.rssMiB = usage?.rssMiB ?? 0
                    window.fileDescriptors = usage?.fileDescriptors ?? 0
                    window.minute = Double(samples.count + 1) * reportEvery / 60
                    samples.append(window)
                    print(String(format: "%6.1f  %8d  %6d  %6.2f  %6.2f  %7.1f  %3d  %d", window.minute, window.requests, window.errors,
                                 window.p50, window.p99, window.rssMiB, window.fileDescriptors, heard.value.load(ordering: .relaxed)))
                    flushOutput()
                    nextReport += .seconds(reportEvery)
                }
                try await Task.sleep(until: next)
            }
        }
        for connection in connections { await connection.stop() }

        let errors = samples.reduce(0) { $0 + $1.errors } + stats.takeWindow().errors
        let requests = samples.reduce(0) { $0 + $1.requests }
        let settled = samples.filter { $0.minute > warmUp }
        let slope = Self.slope(settled.map { ($0.minute, $0.rssMiB) }) * 10
        let third = max(1, settled.count / 3)
        let early = settled.prefix(third).map(\.p99).reduce(0, +) / Double(third)
        let late = settled.suffix(third).map(\.p99).reduce(0, +) / Double(third)
        let drift = early > 0 ? late / early - 1 : 0
        let fdGrowth = (settled.last?.fileDescriptors ?? 0) - (settled.first?.fileDescriptors ?? 0)
        print("requests \(requests) (\(String(format: "%.0f", Double(requests) / (minutes * 60)))/s, \(behind) ticks skipped at 64 in flight), errors \(errors)")
        for message in stats.firstErrors { print("  error: \(message)") }
        print(String(format: "after %.0f min of warm-up: RSS slope %.2f MiB per 10 min, p99 drift %+.0f%% (first third %.2f ms, last third %.2f ms), fds %+d",
                     warmUp, slope, drift * 100, early, late, fdGrowth))
        print("figure soak_requests \(requests)")
        print("figure soak_errors \(errors)")
        print(String(format: "figure soak_rss_mib_per_10_min %.2f", slope))
        print(String(format: "figure soak_p99_drift %.2f", drift))
        print("figure soak_fd_growth \(fdGrowth)")
        guard errors == 0 else { throw SimulationError("soak: \(errors) errors (seed \(seed))") }
    }

    /// The least-squares slope of y over x.
    static func slope(_ points: [(x: Double, y: Double)]) -> Double {
        guard points.count >= 2 else { return 0 }
        let n = Double(points.count)
        let meanX = points.map(\.x).reduce(0, +) / n
        let meanY = points.map(\.y).reduce(0, +) / n
        let numerator = points.reduce(0) { $0 + ($1.x - meanX) * ($1.y - meanY) }
        let denominator = points.reduce(0) { $0 + ($1.x - meanX) * ($1.x - meanX) }
        return denominator == 0 ? 0 : numerator / denominator
    }
}

/// Notifications heard by the push listeners.
final class PushCount: Sendable {
    let value = Atomic<Int>(0)
}

/// Latencies and errors of the requests in flight and finished, a window at a time.
final class SoakStats: Sendable {
    struct Window {
        var minute = 0.0
        var requests = 0
        var errors = 0
        var p50 = 0.0
        var p99 = 0.0
        var rssMiB = 0.0
        var fileDescriptors = 0
    }

    private struct State {
        var inFlight = 0
        var latencies: [Double] = []
        var errors = 0
        var firstErrors: [String] = []
    }

    private let state = Mutex(State())

    /// Counts a request in, unless `limit` are in flight already.
    func tryStart(limit: Int) -> Bool {
        state.withLock { state in
            guard state.inFlight < limit else { return false }
            state.inFlight += 1
            return true
        }
    }

    func finish(latency: Duration, error: String?) {
        state.withLock { state in
            state.inFlight -= 1
            state.latencies.append(Double(latency.components.seconds) * 1000 + Double(latency.components.attoseconds) / 1e15)
            if let error {
                state.errors += 1
                if state.firstErrors.count < 10 { state.firstErrors.append(error) }
            }
        }
    }

    /// The requests finished since the last window.
    func takeWindow() -> Window {
        state.withLock { state in
            let sorted = state.latencies.sorted()
            var window = Window(requests: sorted.count, errors: state.errors)
            if !sorted.isEmpty {
                window.p50 = sorted[sorted.count / 2]
                window.p99 = sorted[min(sorted.count - 1, sorted.count * 99 / 100)]
            }
            state.latencies.removeAll(keepingCapacity: true)
            state.errors = 0
            return window
        }
    }

    var firstErrors: [String] { state.withLock { $0.firstErrors } }
}

/// One user's share of the load: saves, lookups of saved records, a followed change feed and
/// asset uploads, in a zone of their own with a zone subscription (so saves push).
final class SoakClient: Sendable {
    enum Kind: String {
        case save, lookup, follow, upload

        /// Four saves, three lookups and two feed reads for each asset upload.
        static func pick(using generator: inout SeededGenerator) -> Kind {
            switch Int.random(in: 0..<10, using: &generator) {
            case 0..<4: .save
            case 4..<7: .lookup
            case 7..<9: .follow
            default: .upload
            }
        }
    }

    let container: Container
    let zone: ZoneID
    let asset: URL
    private struct State {
        var saved = 0
        var token: ServerChangeToken?
    }
    private let state = Mutex(State())
    private let name: String

    private init(container: Container, zone: ZoneID, asset: URL, name: String) {
        self.container = container
        self.zone = zone
        self.asset = asset
        self.name = name
    }

    static func signedUp(index: Int, server: ServerProcess, asset: URL) async throws -> SoakClient {
        let container = Container(baseURL: server.baseURL, containerIdentifier: "iCloud.dev.stratus", apiToken: server.apiToken)
        _ = try await container.signUp(username: "soak-\(index)", password: "soak password \(index)")
        let zone = ZoneID(zoneName: "Soak")
        _ = try await container.privateCloudDatabase.save(zone: zone)
        _ = try await container.privateCloudDatabase.save(subscription: CloudSubscription(subscriptionID: "soak", subscriptionType: .zone, zoneID: zone))
        return SoakClient(container: container, zone: zone, asset: asset, name: "soak-\(index)")
    }

    func perform(_ kind: Kind) async throws {
        let database = container.privateCloudDatabase
        switch kind {
        case .save, .upload:
            let number = state.withLock { state in
                state.saved += 1
                return state.saved
            }
            var record = CloudRecord(recordType: "Entry", recordID: RecordID(recordName: "\(name)-\(number)", zoneID: zone),
                                     fields: ["number": .int64(Int64(number)), "title": .string("Entry \(number) of \(name)")])
            if kind == .upload { record.setAsset(fileURL: asset, forKey: "attachment") }
            _ = try await database.save(record)
        case .lookup:
            // The newest 64 numbers may still be in flight (at most 64 requests are); older ones
            // were saved, so each lookup must find its record.
            let saved = state.withLock { $0.saved }
            guard saved > 64 else { return }
            let number = Int.random(in: max(1, saved - 500)...(saved - 64))
            let results = try await database.records(for: [RecordID(recordName: "\(name)-\(number)", zoneID: zone)])
            for (_, result) in results { _ = try result.get() }
        case .follow:
            let token = state.withLock { $0.token }
            let page = try await database.recordZoneChanges(inZoneWith: zone, since: token, resultsLimit: 200)
            state.withLock { $0.token = page.changeToken }
        }
    }
}
