import ArgumentParser
import Foundation
import GRDB
import StratusClient
import StratusTesting
import Synchronization

/// `stratus-sim crash-loop`: kills a real `stratus serve` with `SIGKILL` at random moments while
/// concurrent clients send atomic batches, restarts it on the same files, and checks what
/// survived: every batch is all there or not there at all, every acknowledged batch is there,
/// and a change feed followed across the crashes ends with exactly what a fresh read finds. With
/// `--webhooks`, a webhook receiver must have heard every committed record (``WebhookWatch``).
struct CrashLoop: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "crash-loop", abstract: "Kill the server mid-batch, again and again; check what survived.")

    @Option(help: "Kills to make that hit a batch in flight (kills between batches do not count).") var kills = 1000
    @Option(help: "Concurrent clients, one user and zone each.") var clients = 8
    @Option(help: "Records per batch.") var recordsPerBatch = 5
    @Option(help: "Shortest and longest wait from a restart to the next kill, in milliseconds.") var killEvery = "5-100"
    @Option(help: "The seed of the kill schedule (random when absent; printed either way).") var seed: UInt64?
    @Option(help: "The stratus executable (default: the one built next to this tool).") var stratus: String?
    @Flag(help: "Deliver webhooks to a receiver in this process while the server is killed; check that every committed record was delivered, in order, signed.")
    var webhooks = false
    @Flag(help: "Check the checks: before the final reads, remove one record of an acknowledged batch behind the stopped server's back; succeed only if the reads report it.")
    var selfTest = false

    func run() async throws {
        let seed = self.seed ?? UInt64.random(in: 1...UInt64.max)
        let bounds = killEvery.split(separator: "-").compactMap { Int($0) }
        guard bounds.count == 2, bounds[0] > 0, bounds[0] <= bounds[1] else { throw ValidationError("--kill-every takes MIN-MAX") }
        print("crash-loop: seed \(seed), \(kills) kills mid-batch, batches of \(recordsPerBatch) records from \(clients) clients, a kill \(killEvery) ms after each restart")

        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("stratus-crash-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = ServerProcess(executable: stratus.map(URL.init(fileURLWithPath:)) ?? ServerProcess.siblingExecutable,
                                   dataDirectory: directory, arguments: webhooks ? ["--webhook-allow-private"] : [])
        try await server.start()
        defer { server.stop() }
        let watch = webhooks ? try await WebhookWatch.start(server: server) : nil

        var writers: [Writer] = []
        for index in 0..<clients {
            writers.append(try await Writer.signedUp(index: index, server: server))
        }
        let ledger = SharedLedger()
        let (target, size) = (kills, recordsPerBatch)
        let kills = try await withThrowingTaskGroup(of: Void.self) { group in
            for writer in writers {
                group.addTask { try await writer.send(size: size, ledger: ledger) }
            }
            var generator = SeededGenerator(seed: seed)
            var kills = (all: 0, inFlight: 0)
            while kills.inFlight < target {
                try await Task.sleep(for: .milliseconds(Int.random(in: bounds[0]...bounds[1], using: &generator)))
                let hit = ledger.withLock { ledger in
                    ledger.serverUp = false
                    return !ledger.inFlight.isEmpty
                }
                server.kill()
                kills.all += 1
                if hit { kills.inFlight += 1 }
                try await server.start()
                ledger.withLock { $0.serverUp = true }
                for writer in writers { try await writer.follow() }
                if kills.all % 100 == 0 {
                    print("  \(kills.all) kills, \(kills.inFlight) mid-batch")
                    flushOutput()
                }
            }
            ledger.withLock { $0.finished = true }
            try await group.waitForAll()
            return kills
        }

        if selfTest { try await tamper(server: server, acknowledged: ledger.withLock { $0.acknowledged }) }
        var report = Report()
        var committed = Set<String>()
        for writer in writers {
            try await writer.follow()
            committed.formUnion(try await writer.check(ledger: ledger.withLock { $0 }, size: size, into: &report))
        }
        let outcome = ledger.withLock { $0 }
        if let watch {
            let refused = Set(outcome.refused.flatMap { batch in (0..<size).map { "b\(batch)-r\($0)" } })
            try await watch.check(committed: committed, refused: refused, into: &report)
            print("webhooks: \(report.webhookEvents) events delivered (\(report.webhookDuplicates) repeats), \(report.webhookMissed) committed records missed, "
                  + "\(report.webhookOutOfOrder) out of order, \(report.webhookUnsigned) unsigned, \(report.webhookRolledBack) of refused batches")
            for (name, value) in [("crash_webhook_events", report.webhookEvents), ("crash_webhook_repeats", report.webhookDuplicates),
                                  ("crash_webhook_missed", report.webhookMissed), ("crash_webhook_out_of_order", report.webhookOutOfOrder)] {
                print("figure \(name) \(value)")
            }
        }
        print("batches sent \(outcome.started): acknowledged \(outcome.acknowledged.count), refused \(outcome.refused.count), "
              + "unanswered \(outcome.unanswered.count) (\(report.unansweredCommitted) of them committed whole, the rest not at all)")
        print("kills \(kills.all), \(kills.inFlight) of them with a batch in flight")
        print("torn batches \(report.torn), acknowledged batches lost \(report.lostAcknowledged), refused batches present \(report.refusedPresent), "
              + "records a followed change feed missed or invented \(report.feedMismatches)")
        for (name, value) in [("crash_batches", outcome.started), ("crash_kills_in_flight", kills.inFlight), ("crash_torn_batches", report.torn),
                              ("crash_lost_acknowledged", report.lostAcknowledged), ("crash_feed_mismatches", report.feedMismatches)] {
            print("figure \(name) \(value)")
        }
        if selfTest {
            guard report.torn == 1, report.lostAcknowledged == 1, report.feedMismatches == 1 else {
                throw SimulationError("self-test: the checks did not report the removed record exactly once")
            }
            print("self-test: the checks reported the record removed behind the server's back")
            return
        }
        guard report.torn == 0, report.lostAcknowledged == 0, report.refusedPresent == 0, report.feedMismatches == 0, report.webhookMissed == 0,
              report.webhookOutOfOrder == 0, report.webhookUnsigned == 0, report.webhookRolledBack == 0 else {
            throw SimulationError("crash-loop failed (seed \(seed)): \(report.failures.prefix(10).joined(separator: "; "))")
        }
    }
}

extension CrashLoop {
    /// Stops the server, deletes the first record of the lowest acknowledged batch from its
    /// database file (as a lost write would), and starts it again.
    private func tamper(server: ServerProcess, acknowledged: Set<Int>) async throws {
        guard let batch = acknowledged.min() else { throw SimulationError("self-test: no batch was acknowledged") }
        server.kill()
        let database = try DatabaseQueue(path: server.dataDirectory.appendingPathComponent("stratus.sqlite").path)
        try await database.write { db in
            try db.execute(sql: "DELETE FROM record_rows WHERE record_name = ?", arguments: ["b\(batch)-r0"])
        }
        try database.close()
        try await server.start()
    }
}

/// What the clients did, shared with the killer.
struct Ledger: Sendable {
    var started = 0
    /// Set when the run has made its kills: clients stop after their current batch.
    var finished = false
    /// Batches sent and not yet answered, by client.
    var inFlight: [Int: Int] = [:]
    var acknowledged: Set<Int> = []
    /// Answered with an error for the whole batch or one of its records: nothing may be written.
    var refused: Set<Int> = []
    /// No answer (the server died or was down): all or nothing may be written.
    var unanswered: Set<Int> = []
    var serverUp = true
}

/// The ledger, shared by the clients and the killer.
final class SharedLedger: Sendable {
    private let state = Mutex(Ledger())

    func withLock<T: Sendable>(_ body: (inout sending Ledger) -> sending T) -> T {
        state.withLock { body(&$0) }
    }
}

/// What the final reads found.
struct Report {
    var torn = 0
    var lostAcknowledged = 0
    var refusedPresent = 0
    var feedMismatches = 0
    var unansweredCommitted = 0
    /// With `--webhooks`: distinct events delivered, repeats, and the violations.
    var webhookEvents = 0
    var webhookDuplicates = 0
    var webhookMissed = 0
    var webhookOutOfOrder = 0
    var webhookUnsigned = 0
    var webhookRolledBack = 0
    var failures: [String] = []
}

/// One client: a user with a zone of their own, sending atomic batches one at a time and
/// following the zone's change feed with a token kept across crashes.
actor Writer {
    let index: Int
    let database: CloudDatabase
    let zone: ZoneID
    private var token: ServerChangeToken?
    private var followed: Set<String> = []
    /// The batches this client sent.
    private var sent: Set<Int> = []

    private init(index: Int, database: CloudDatabase, zone: ZoneID) {
        self.index = index
        self.database = database
        self.zone = zone
    }

    static func signedUp(index: Int, server: ServerProcess) async throws -> Writer {
        let container = Container(baseURL: server.baseURL, containerIdentifier: ServerProcess.containerID, apiToken: server.apiToken)
        _ = try await container.signUp(username: "writer-\(index)", password: "crash loop password \(index)")
        let zone = ZoneID(zoneName: "Crash-\(index)")
        _ = try await container.privateCloudDatabase.save(zone: zone)
        return Writer(index: index, database: container.privateCloudDatabase, zone: zone)
    }

    func send(size: Int, ledger: SharedLedger) async throws {
        while true {
            let batch = ledger.withLock { ledger -> Int? in
                guard !ledger.finished else { return nil }
                ledger.started += 1
                ledger.inFlight[index] = ledger.started
                return ledger.started
            }
            guard let batch else { return }
            sent.insert(batch)
            let records = (0..<size).map { item in
                CloudRecord(recordType: "Entry", recordID: RecordID(recordName: "b\(batch)-r\(item)", zoneID: zone),
                            fields: ["batch": .int64(Int64(batch)), "item": .int64(Int64(item))])
            }
            do {
                let result = try await database.modifyRecords(saving: records, atomically: true, echoingFields: false)
                let saved = result.saveResults.values.allSatisfy { if case .success = $0 { true } else { false } }
                ledger.withLock { ledger in
                    ledger.inFlight[index] = nil
                    if saved && result.saveResults.count == size { ledger.acknowledged.insert(batch) } else { ledger.refused.insert(batch) }
                }
            } catch let error as CloudError where !error.isTransient {
                ledger.withLock { ledger in
                    ledger.inFlight[index] = nil
                    ledger.refused.insert(batch)
                }
            } catch {
                ledger.withLock { ledger in
                    ledger.inFlight[index] = nil
                    ledger.unanswered.insert(batch)
                }
                while !ledger.withLock({ $0.serverUp }) { try await Task.sleep(for: .milliseconds(10)) }
            }
        }
    }

    /// Reads the zone's changes from the token kept so far to the end.
    func follow() async throws {
        var names = followed
        token = try await readChanges(since: token, into: &names)
        followed = names
    }

    /// Applies the zone's changes after `token` to `names`, page by page to the end; returns the
    /// last page's token.
    private func readChanges(since token: ServerChangeToken?, into names: inout Set<String>) async throws -> ServerChangeToken {
        var token = token
        while true {
            let page = try await database.recordZoneChanges(inZoneWith: zone, since: token)
            names.formUnion(page.modifications.map(\.recordID.recordName))
            names.subtract(page.deletions.map(\.recordID.recordName))
            token = page.changeToken
            if !page.moreComing { return page.changeToken }
        }
    }

    /// Compares what a fresh read of the whole zone finds with the ledger and the followed feed;
    /// returns the names of the records found.
    @discardableResult
    func check(ledger: Ledger, size: Int, into report: inout Report) async throws -> Set<String> {
        var present: Set<String> = []
        _ = try await readChanges(since: nil, into: &present)
        var counts: [Int: Int] = [:]
        for name in present {
            guard let batch = Int(name.dropFirst().prefix { $0 != "-" }) else { continue }
            counts[batch, default: 0] += 1
        }
        for (batch, count) in counts where count != size {
            report.torn += 1
            report.failures.append("batch \(batch) has \(count) of \(size) records")
        }
        for (batch, count) in counts where count == size {
            if ledger.refused.contains(batch) {
                report.refusedPresent += 1
                report.failures.append("refused batch \(batch) was written")
            }
            if ledger.unanswered.contains(batch) { report.unansweredCommitted += 1 }
        }
        for batch in ledger.acknowledged.intersection(sent) where counts[batch] != size {
            report.lostAcknowledged += 1
            report.failures.append("acknowledged batch \(batch) is missing")
        }
        let mismatched = present.symmetricDifference(followed)
        if !mismatched.isEmpty {
            report.feedMismatches += mismatched.count
            report.failures.append("client \(index)'s followed feed differs from a fresh read by \(mismatched.count) records")
        }
        return present
    }
}
