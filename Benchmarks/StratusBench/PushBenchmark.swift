import ArgumentParser
import AsyncHTTPClient
import Foundation
import Logging
import StratusClient
import Synchronization
import StratusSync

/// `stratus-bench push`: how long after device A's save returns device B's sync engine delivers
/// the record, with 1, 100 and 1,000 devices connected and subscribed to the zone (one change at
/// a time), against the loopback round trip of an empty request in the same run; then the server's
/// memory per idle push connection. The server runs in a child process.
struct PushBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "push", abstract: "Push latency and the cost of idle connections.")

    @Option(help: "Changes per device count.") var changes = 500
    /// The devices and idle connections here are one user's (up to 10,000), far above the default
    /// of 32 push connections per user.
    static let pushConnectionsPerUser = 16_384
    @Option(help: "Device counts to measure, comma separated.") var devices = "1,100,1000"
    @Option(help: "Idle connections to open for the memory figure.") var idle = 10_000
    @Option(help: "The store: sqlite, or postgres (with --database).") var backend = "sqlite"
    @Option(help: "With --backend postgres: the PostgreSQL server to make a database on (postgres://user@host:port).") var database: String?

    func run() async throws {
        let directory = try ScratchDirectory.make()
        defer { ScratchDirectory.remove(directory) }
        let counts = devices.split(separator: ",").compactMap { Int($0) }
        switch backend {
        case "sqlite": break
        case "postgres":
            guard let database, let largest = counts.max() else { throw ValidationError("--backend postgres needs --database postgres://user@host:port") }
            return try await instances(on: database, devices: largest, in: directory)
        default: throw ValidationError("--backend is sqlite or postgres")
        }
        let (changes, idle) = (self.changes, self.idle)
        let figures = try await BenchmarkServer.inChildProcess(directory: directory.appendingPathComponent("server"),
                                                               pushConnectionsPerUser: Self.pushConnectionsPerUser) { server in
            let zone = try await Self.subscribedZone(server)
            let rtt = try await LoopbackRoundTrip.medianMilliseconds(server.baseURL + "/ping")
            let healthz = try await LoopbackRoundTrip.medianMilliseconds(server.baseURL + "/healthz")
            var latencies: [Int: (p50: Double, p99: Double, fromSendP50: Double)] = [:]
            for count in counts {
                latencies[count] = try await Self.latency(devices: count, changes: changes, zone: zone, server: server, readers: server,
                                                          state: directory.appendingPathComponent("b-\(count).sqlite"), label: "d\(count)")
            }
            let perConnection = try await Self.idleCost(connections: idle, server: server)
            return (rtt, healthz, latencies, perConnection)
        }
        let (rtt, healthz, latencies, perConnection) = figures
        print(String(format: "loopback round trip of an empty request: p50 %.3f ms; of GET /healthz: p50 %.3f ms", rtt, healthz))
        for count in counts {
            guard let figure = latencies[count] else { continue }
            print(String(format: "%5d devices: save returned → B's engine event  p50 %6.2f ms  p99 %6.2f ms", count, figure.p50, figure.p99))
        }
        print(String(format: "%d idle push connections: %.1f KB of server memory each (target ≤ 30)", idle, perConnection))
        if let largest = counts.max(), let figure = latencies[largest] {
            Report.figure("push_p50_ms_\(largest)", figure.p50, decimals: 2)
            Report.figure("push_p99_ms_\(largest)", figure.p99, decimals: 2)
            Report.figure("push_from_send_p50_ms_\(largest)", figure.fromSendP50, decimals: 2)
        }
        Report.figure("loopback_rtt_ms", rtt, decimals: 3)
        Report.figure("healthz_p50_ms", healthz, decimals: 3)
        Report.figure("kb_per_connection", perConnection, decimals: 1)
    }

    /// On PostgreSQL: the latency with `devices` devices on the writer's instance, then with them
    /// on a second instance of the same database (the notification crosses `LISTEN`/`NOTIFY`).
    private func instances(on server: String, devices: Int, in directory: URL) async throws {
        let database = try await PostgresBenchmark.newDatabase(on: server)
        let changes = self.changes
        let (single, across) = try await BenchmarkServer.inChildProcess(directory: directory.appendingPathComponent("a"), database: database,
                                                                        pushConnectionsPerUser: Self.pushConnectionsPerUser) { a in
            // Every instance on one database takes the same master key: the one the first made.
            try await BenchmarkServer.inChildProcess(directory: directory.appendingPathComponent("b"), database: database, username: "bench-b",
                                                     pushConnectionsPerUser: Self.pushConnectionsPerUser,
                                                     encryptionKeyFile: directory.appendingPathComponent("a/master.key").path) { b in
                let zone = try await Self.subscribedZone(a)
                var onB = b
                onB.webAuthToken = a.webAuthToken
                let single = try await Self.latency(devices: devices, changes: changes, zone: zone, server: a, readers: a,
                                                    state: directory.appendingPathComponent("single.sqlite"), label: "single")
                let across = try await Self.latency(devices: devices, changes: changes, zone: zone, server: a, readers: onB,
                                                    state: directory.appendingPathComponent("across.sqlite"), label: "across")
                return (single, across)
            }
        }
        print(String(format: "%5d devices on the writer's instance: p50 %6.2f ms  p99 %6.2f ms", devices, single.p50, single.p99))
        print(String(format: "%5d devices on another instance:      p50 %6.2f ms  p99 %6.2f ms", devices, across.p50, across.p99))
        Report.figure("pg_push_p50_ms_\(devices)", single.p50, decimals: 2)
        Report.figure("pg_push_p99_ms_\(devices)", single.p99, decimals: 2)
        Report.figure("pg_push_from_send_p50_ms_\(devices)", single.fromSendP50, decimals: 2)
        Report.figure("pg_push_across_p50_ms_\(devices)", across.p50, decimals: 2)
        Report.figure("pg_push_across_p99_ms_\(devices)", across.p99, decimals: 2)
    }

    /// The zone the latency is measured in, with the signed-in user's subscription to it.
    private static func subscribedZone(_ server: BenchmarkServer) async throws -> ZoneID {
        let container = try await container(server)
        let zone = ZoneID(zoneName: "Live")
        try await container.privateCloudDatabase.save(zone: zone)
        try await container.privateCloudDatabase.save(subscription: CloudSubscription(subscriptionID: "live", subscriptionType: .zone, zoneID: zone))
        return zone
    }

    /// Latency percentiles with `devices` devices of the user connected to `readers`: B (a
    /// SyncEngine that fetches on push) and `devices - 1` others that only listen; A saves
    /// through `server`.
    ///
    /// `p50` and `p99` count from the save's answer, which a backend may send before or after
    /// the fan-out: on PostgreSQL the answer waits for the commit's NOTIFY to the other instances
    /// and leaves after most notifications (B hears of the change before A's save returns), on
    /// SQLite it leaves at once. `fromSendP50` counts from the save's request, the same for both.
    private static func latency(devices: Int, changes: Int, zone: ZoneID, server: BenchmarkServer, readers: BenchmarkServer,
                                state: URL, label: String) async throws -> (p50: Double, p99: Double, fromSendP50: Double) {
        let writer = try await Self.container(server)
        let reader = try await Self.container(readers)
        let others = try await (1..<max(devices, 1)).asyncMap { _ in try await Self.listener(readers) }
        let (arrivals, arrived) = AsyncStream.makeStream(of: String.self)
        let fetchStarts = Mutex<[ContinuousClock.Instant]>([])
        let delegate = ClosureDelegate(events: { event in
            if case .willFetchChanges = event { fetchStarts.withLock { $0.append(.now) } }
            if case .fetchedRecordZoneChanges(let modifications, _) = event {
                for record in modifications { arrived.yield(record.recordID.recordName) }
            }
        })
        var configuration = SyncEngine.Configuration(database: reader.privateCloudDatabase, stateURL: state, delegate: delegate)
        configuration.automaticallySync = false
        configuration.subscriptionID = nil
        let engine = try SyncEngine(configuration: configuration)
        try await engine.fetchChanges()
        let push = PushConnection(container: reader)
        await push.start()
        await engine.listen(to: push)
        for connection in others {
            while !connection.isConnected { try await Task.sleep(for: .milliseconds(5)) }
        }
        while await !push.isConnected { try await Task.sleep(for: .milliseconds(5)) }
        var iterator = arrivals.makeAsyncIterator()
        var samples: [Double] = []
        var notified: [Double] = []
        var fromSend: [Double] = []
        for index in -5..<changes {     // five warm-up changes
            let name = "\(label)-c\(index)"
            let record = CloudRecord(recordType: "Item", recordID: RecordID(recordName: name, zoneID: zone), fields: ["n": .int64(Int64(index))])
            fetchStarts.withLock { $0.removeAll() }
            let sent = ContinuousClock.now
            _ = try await writer.privateCloudDatabase.save(record)
            let saved = ContinuousClock.now
            while let arrivedName = await iterator.next(), arrivedName != name {}
            let elapsed = ContinuousClock.now - saved
            if index >= 0 {
                samples.append(Self.milliseconds(elapsed))
                fromSend.append(Self.milliseconds(ContinuousClock.now - sent))
                if let started = fetchStarts.withLock({ $0.first }) { notified.append(Self.milliseconds(started - saved)) }
            }
        }
        // Where the time goes: when B hears (relative to the save's answer, which a backend may
        // send before or after the fan-out), and the whole from the save's request on.
        notified.sort()
        fromSend.sort()
        if !notified.isEmpty {
            print(String(format: "%@: save returned → B notified (its engine starts fetching) p50 %.2f ms; save sent → B's event p50 %.2f ms, p99 %.2f ms",
                         label, notified[notified.count / 2], fromSend[fromSend.count / 2], fromSend[fromSend.count * 99 / 100]))
        }
        withExtendedLifetime(delegate) {}
        await push.stop()
        for connection in others { connection.stop() }
        samples.sort()
        return (samples[samples.count / 2], samples[min(samples.count - 1, samples.count * 99 / 100)], fromSend[fromSend.count / 2])
    }

    static func milliseconds(_ duration: Duration) -> Double {
        Double(duration.components.attoseconds) / 1e15 + Double(duration.components.seconds) * 1000
    }

    /// Server memory growth per idle push connection.
    private static func idleCost(connections: Int, server: BenchmarkServer) async throws -> Double {
        guard let pid = server.processID else { throw BenchmarkError("no server process") }
        try await Task.sleep(for: .seconds(1))
        let before = PeakMemory.status("VmRSS", of: "\(pid)")
        var opened: [RawListener] = []
        for start in stride(from: 0, to: connections, by: 500) {
            let batch = try await (start..<min(start + 500, connections)).asyncMap { _ in try await Self.listener(server) }
            for connection in batch { while !connection.isConnected { try await Task.sleep(for: .milliseconds(5)) } }
            opened += batch
        }
        try await Task.sleep(for: .seconds(2))
        let after = PeakMemory.status("VmRSS", of: "\(pid)")
        print(String(format: "server RSS before the idle connections %.1f MiB, with them %.1f MiB", Double(before) / 1024 / 1024, Double(after) / 1024 / 1024))
        for connection in opened { connection.stop() }
        return Double(after - before) / Double(connections) / 1024
    }

    private static func container(_ server: BenchmarkServer) async throws -> Container {
        let container = Container(baseURL: server.baseURL, containerIdentifier: BenchmarkServer.containerID, apiToken: server.apiToken)
        await container.restoreSession(webAuthToken: server.webAuthToken)
        return container
    }

    /// A connected device that only listens: a bare WebSocket that drops what it hears, so this
    /// process spends little on the devices that are not measured.
    private static func listener(_ server: BenchmarkServer) async throws -> RawListener {
        let listener = RawListener()
        listener.start(url: try await PushConnection.webSocketURL(for: try await container(server)))
        return listener
    }
}

extension Sequence {
    func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var results: [T] = []
        for element in self { results.append(try await transform(element)) }
        return results
    }
}
