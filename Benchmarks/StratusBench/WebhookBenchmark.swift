import ArgumentParser
import AsyncHTTPClient
import Foundation
import NIOCore
import StratusCore
import StratusServer
import StratusTesting

/// `stratus-bench webhooks`: webhook delivery against the loopback it runs over, with a keep-alive
/// receiver (``WebhookTestReceiver``) in this process. Throughput: `--events` records saved while
/// the endpoints are disabled, then enabled, timed until every endpoint has them all (one
/// endpoint, then 8). Lag: single-record saves one after another, each from its request leaving
/// until its delivery arrives. Beside them, the loopback round trip of a POST to the receiver. The
/// write cost: the same batches through a server with one endpoint and one without, in turns.
struct WebhookBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "webhooks", abstract: "Webhook delivery against the loopback round trip.")

    @Option(help: "Events each endpoint receives in the throughput runs.") var events = 2000
    @Option(help: "Saves whose commit-to-delivery lag is measured.") var lagSamples = 300
    @Option(help: "Records written through each server for the write cost.") var records = 10_000
    @Option(help: "Records per request.") var batch = 200

    func run() async throws {
        let directory = try ScratchDirectory.make()
        defer { ScratchDirectory.remove(directory) }
        let roundTrip = try await Self.loopbackRoundTrip()
        let one = try await throughput(endpoints: 1, in: directory.appendingPathComponent("one"))
        let eight = try await throughput(endpoints: 8, in: directory.appendingPathComponent("eight"))
        let lags = try await lag(in: directory.appendingPathComponent("lag"))
        let cost = try await writeCost(in: directory.appendingPathComponent("cost"))
        let (p50, p99) = (median(lags) * 1000, lags.sorted()[Int(Double(lags.count - 1) * 0.99)] * 1000)
        print(String(format: "loopback round trip %.3f ms (1 ÷ it: %.0f/s); one endpoint %.0f events/s (%.2f of the round trip's rate), 8 endpoints %.0f events/s; lag p50 %.2f ms, p99 %.2f ms; modify with an endpoint %.0f records/s, without %.0f (%.2f)",
                     roundTrip * 1000, 1 / roundTrip, one, one * roundTrip, eight, p50, p99, cost.with, cost.without, cost.with / cost.without))
        Report.figure("webhook_loopback_roundtrip_ms", roundTrip * 1000, decimals: 3)
        Report.figure("webhook_events_per_s_1", one, decimals: 0)
        Report.ratio("webhook_events_1_vs_roundtrip_rate", one * roundTrip, of: "webhook_events_per_s_1", to: "webhook_loopback_roundtrip_ms")
        Report.figure("webhook_events_per_s_8", eight, decimals: 0)
        Report.figure("webhook_lag_p50_ms", p50, decimals: 2)
        Report.figure("webhook_lag_p99_ms", p99, decimals: 2)
        Report.ratio("webhook_lag_p50_vs_roundtrip", p50 / (roundTrip * 1000), of: "webhook_lag_p50_ms", to: "webhook_loopback_roundtrip_ms")
        Report.figure("webhook_modify_records_per_s", cost.with, decimals: 0)
        Report.figure("webhook_none_modify_records_per_s", cost.without, decimals: 0)
        Report.ratio("webhook_modify_vs_none", cost.with / cost.without, of: "webhook_modify_records_per_s", to: "webhook_none_modify_records_per_s")
    }

    /// The median of 1,000 POSTs of a small JSON body to a keep-alive receiver, over one connection.
    static func loopbackRoundTrip() async throws -> Double {
        try await WebhookTestReceiver.with { receiver in
            var configuration = HTTPClient.Configuration()
            configuration.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: 1)
            let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
            defer { _ = client.shutdown() }
            var times: [Double] = []
            for _ in 0..<1000 {
                var request = HTTPClientRequest(url: receiver.url)
                request.method = .POST
                request.body = .bytes(ByteBuffer(string: #"{"type":"record.saved","timestamp":"2026-12-01T00:00:00Z","data":{}}"#))
                times.append(try await Stopwatch.seconds { _ = try await client.execute(request, timeout: .seconds(30)).body.collect(upTo: 1 << 16) })
            }
            return median(times)
        }
    }

    /// Events per second delivered to `endpoints` endpoints, counted over them all.
    private func throughput(endpoints count: Int, in directory: URL) async throws -> Double {
        let (events, batch) = (self.events, self.batch)
        return try await WebhookTestReceiver.with { receiver in
            try await BenchmarkServer.with(directory: directory, configure: { $0.webhooks.allowsPrivateAddresses = true }) { server in
                let admin = try server.admin()
                var ids: [String] = []
                for _ in 0..<count {
                    let id = try await admin.addWebhook(containerID: BenchmarkServer.containerID, environment: .development, url: receiver.url,
                                                        filter: WebhookFilter()).endpoint.id
                    _ = try await admin.setWebhookEnabled(false, id: id, containerID: BenchmarkServer.containerID)
                    ids.append(id)
                }
                // Disabled endpoints hear nothing; the writes are logged for history (kept 30 days), and replayed.
                let since = Int64(Date().timeIntervalSince1970 * 1000) - 1
                for first in stride(from: 0, to: events, by: batch) {
                    let names = (first..<min(first + batch, events)).map { "w\($0)" }
                    _ = try await server.post(server.databasePath("records/modify"), body: HistoryBenchmark.modifyBody(round: 0, names: names))
                }
                let began = ContinuousClock.now
                for id in ids { _ = try await admin.replayWebhook(id: id, containerID: BenchmarkServer.containerID, from: .time(since)) }
                try await Self.wait(for: events * count, at: receiver)
                let seconds = Stopwatch.elapsed(since: began)
                return Double(events * count) / seconds
            }
        }
    }

    /// The time from each save's request leaving to its delivery arriving, one save at a time.
    private func lag(in directory: URL) async throws -> [Double] {
        let samples = lagSamples
        return try await WebhookTestReceiver.with { receiver in
            try await BenchmarkServer.with(directory: directory, configure: { $0.webhooks.allowsPrivateAddresses = true }) { server in
                _ = try await server.admin().addWebhook(containerID: BenchmarkServer.containerID, environment: .development, url: receiver.url,
                                                        filter: WebhookFilter())
                var lags: [Double] = []
                for index in 0..<samples {
                    let sent = ContinuousClock.now
                    _ = try await server.post(server.databasePath("records/modify"), body: HistoryBenchmark.modifyBody(round: 0, names: ["l\(index)"]))
                    let delivery = try await Self.wait(for: index + 1, at: receiver)[index]
                    lags.append(Stopwatch.seconds(from: sent, to: delivery.arrivedAt))
                }
                return lags
            }
        }
    }

    /// `records/modify` records per second through a server with one endpoint and through one
    /// without, batch by batch in turns.
    private func writeCost(in directory: URL) async throws -> (with: Double, without: Double) {
        let (records, batch) = (self.records, self.batch)
        return try await WebhookTestReceiver.with { receiver in
            try await BenchmarkServer.with(directory: directory.appendingPathComponent("none")) { none in
                try await BenchmarkServer.with(directory: directory.appendingPathComponent("hooked"), configure: { $0.webhooks.allowsPrivateAddresses = true }) { hooked in
                    _ = try await hooked.admin().addWebhook(containerID: BenchmarkServer.containerID, environment: .development, url: receiver.url,
                                                            filter: WebhookFilter())
                    var seconds = (with: 0.0, without: 0.0)
                    for (index, first) in stride(from: 0, to: records, by: batch).enumerated() {
                        let body = HistoryBenchmark.modifyBody(round: 0, names: (first..<min(first + batch, records)).map { "c\($0)" })
                        let order = index % 2 == 0 ? [(none, false), (hooked, true)] : [(hooked, true), (none, false)]
                        for (server, hasEndpoint) in order {
                            let elapsed = try await Stopwatch.seconds { _ = try await server.post(server.databasePath("records/modify"), body: body) }
                            if hasEndpoint { seconds.with += elapsed } else { seconds.without += elapsed }
                        }
                    }
                    try await Self.wait(for: records, at: receiver)
                    return (Double(records) / seconds.with, Double(records) / seconds.without)
                }
            }
        }
    }

    /// Waits until the receiver has `count` deliveries (at most five minutes); returns them.
    @discardableResult
    static func wait(for count: Int, at receiver: WebhookTestReceiver) async throws -> [WebhookTestReceiver.Delivery] {
        let deadline = ContinuousClock.now + .seconds(300)
        while receiver.count < count {
            guard ContinuousClock.now < deadline else { throw BenchmarkError("the receiver got \(receiver.count) of \(count) deliveries") }
            try await Task.sleep(for: .microseconds(200))
        }
        return receiver.deliveries
    }
}
