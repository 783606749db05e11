import Foundation
import StratusTesting

/// The crash loop's webhook receiver (`crash-loop --webhooks`): an endpoint added with
/// `stratus webhook add` hears the clients' batches while the server is killed, and at the end
/// every committed record must have been delivered at least once, in commit order (a new event
/// never comes after a later one; a repeat of one already seen may), signed, and no rolled-back
/// write may have been delivered.
struct WebhookWatch {
    let receiver: WebhookTestReceiver
    let secret: String

    /// Starts the receiver and adds its endpoint to the server's store through the CLI.
    static func start(server: ServerProcess) async throws -> WebhookWatch {
        let receiver = try await WebhookTestReceiver.start()
        let added = try await ChildProcess.run(server.executable.path, [
            "webhook", "add", "--data", server.dataDirectory.path, "--container", ServerProcess.containerID, "--url", receiver.url,
            "--webhook-allow-private", "--json",
        ], capturingStandardError: false)
        guard added.status == 0, let json = try JSONSerialization.jsonObject(with: Data(added.output.utf8)) as? [String: Any],
              let secret = json["secret"] as? String else {
            throw SimulationError("stratus webhook add failed: \(added.output)")
        }
        return WebhookWatch(receiver: receiver, secret: secret)
    }

    /// Waits (at most two minutes) until every committed record was delivered, then checks the
    /// deliveries against what was committed and what was refused.
    func check(committed: Set<String>, refused: Set<String>, into report: inout Report) async throws {
        let deadline = ContinuousClock.now + .seconds(120)
        var missing = committed
        while true {
            missing = committed.subtracting(receiver.deliveries.compactMap { $0.type == "record.saved" ? $0.data["recordName"] as? String : nil })
            if missing.isEmpty || ContinuousClock.now > deadline { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        let deliveries = receiver.deliveries
        var seen = Set<String>()
        var latest: Int64 = 0
        for delivery in deliveries {
            if !delivery.isSigned(by: secret) {
                report.webhookUnsigned += 1
                report.failures.append("delivery \(delivery.id) is not signed by the endpoint's secret")
            }
            guard seen.insert(delivery.id).inserted else {
                report.webhookDuplicates += 1
                continue
            }
            let position = delivery.position ?? 0
            if position < latest {
                report.webhookOutOfOrder += 1
                report.failures.append("event \(delivery.id) arrived after a later one (position \(latest))")
            }
            latest = max(latest, position)
            if let name = delivery.data["recordName"] as? String, refused.contains(name) {
                report.webhookRolledBack += 1
                report.failures.append("record \(name) of a refused batch was delivered")
            }
        }
        report.webhookEvents = seen.count
        report.webhookMissed = missing.count
        if !missing.isEmpty { report.failures.append("\(missing.count) committed records were never delivered, \(missing.sorted().prefix(3)) among them") }
        await receiver.stop()
    }
}
