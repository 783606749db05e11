import ArgumentParser
import Foundation
import StratusHarness
import StratusSync
import StratusTesting

/// `stratus-sim simulate` (the default): seeded scenarios through dropped requests, answers lost
/// after commit, throttling, oversized batches, offline spells, app kills, expired change tokens
/// and (one scenario in ten) a real server killed with `SIGKILL`; then the invariants, "no device
/// wedged" among them. `--app generic` (the default): three users with two devices each — one
/// syncing with a `SyncEngine`, one with StratusData tables — editing, creating and deleting,
/// sharing. `--app notes` and `--app shopping`: the example apps' own device models as they ship.
/// A failure prints its seed and the shortest sub-trace that still fails; `--seed N` replays a
/// seed's operations and faults in the same order.
struct Simulate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Seeded multi-device scenarios with faults; invariants checked.")

    @Option(help: "The app the devices run: generic, notes (NoteDevice) or shopping (ShoppingDevice).") var app: SimulatedApp = .generic
    @Option(help: "Scenarios to run, seeds first-seed, first-seed + 1, …") var seeds = 100
    @Option(help: "The first seed.") var firstSeed: UInt64 = 1
    @Option(help: "Run this one seed (and print its trace).") var seed: UInt64?
    @Option(help: "Scenario runs the shrinking of a failure may take.") var shrinkBudget = 150
    @Option(help: "The stratus executable for the kill scenarios (default: the one built next to this tool).") var stratus: String?
    @Flag(help: "Check the checks: empty one device's tables behind the sync's back once quiet; succeed only if every scenario reports it (generic).")
    var selfTest = false
    @Flag(help: "Check the checks: put back the Notes wedge (a conflict's server version applied without its files, its row upserted); succeed only if a scenario reports a wedged device (notes).")
    var revertingFix = false

    func validate() throws {
        if selfTest, app != .generic { throw ValidationError("--self-test checks the generic scenarios") }
        if revertingFix, app != .notes { throw ValidationError("--reverting-fix checks the notes scenarios") }
    }

    func run() async throws {
        let executable = stratus.map(URL.init(fileURLWithPath:)) ?? ServerProcess.siblingExecutable
        switch app {
        case .generic: try await simulate(executable) { Scenario(seed: $0) }
        case .notes, .shopping: try await simulate(executable) { [app] in AppScenario(app: app, seed: $0) }
        }
    }

    private func simulate<S: SimulationScenario>(_ executable: URL, scenario make: (UInt64) -> S) async throws {
        let chosen = seed.map { [$0] } ?? Array(firstSeed..<(firstSeed + UInt64(seeds)))
        InstalledHarness.install(revertingFix ? ProcessHarness(restoredBugs: [.partialConflictApply]) : nil)
        var report = SimulationReport()
        let started = ContinuousClock.now
        var wedgesFound = 0
        for seed in chosen {
            let scenario = make(seed)
            if self.seed != nil {
                print("seed \(seed): \(scenario.steps.count) steps")
                for (index, step) in scenario.steps.enumerated() { print("  \(index). \(step)") }
            }
            let outcome = await scenario.outcome(stratus: executable, selfTest: selfTest)
            report.add(scenario, outcome)
            if report.scenarios % 100 == 0 {
                print("… \(report.scenarios) of \(chosen.count) scenarios, \(report.failed) failed")
                flushOutput()
            }
            if selfTest {
                let caught = outcome.violations.contains { $0.kind == .divergence }
                print("seed \(seed): self-test \(caught ? "caught the tampering" : "MISSED the tampering")")
                if !caught { throw ExitCode.failure }
                continue
            }
            if revertingFix {
                let wedged = outcome.violations.filter { $0.kind == .wedged }
                if let first = wedged.first { print("seed \(seed): with the fix reverted, \(first)") }
                wedgesFound += wedged.isEmpty ? 0 : 1
                continue
            }
            if outcome.violations.isEmpty {
                if self.seed != nil { print("seed \(seed): ok") }
                continue
            }
            print("seed \(seed): FAILED")
            for violation in outcome.violations.prefix(10) { print("  \(violation)") }
            flushOutput()
            let shortest = await shrink(scenario, executable: executable)
            print("seed \(seed): the shortest trace that still fails (\(shortest.steps.count) of \(scenario.steps.count) steps; replay the seed with `stratus-sim --app \(app.rawValue) --seed \(seed)`):")
            for step in shortest.steps { print("  \(step)") }
            flushOutput()
        }
        report.print(app: app, duration: ContinuousClock.now - started)
        if revertingFix {
            print("with the Notes fix reverted: \(wedgesFound) of \(chosen.count) scenarios found a wedged device")
            if wedgesFound == 0 { throw ExitCode.failure }
            return
        }
        if report.failed > 0, !selfTest { throw ExitCode.failure }
    }

    /// The shortest sub-sequence of the scenario's steps found that still breaks an invariant:
    /// removes ever smaller chunks while the failure persists (delta debugging).
    private func shrink<S: SimulationScenario>(_ scenario: S, executable: URL) async -> S {
        var current = scenario
        var chunk = max(1, current.steps.count / 2)
        var runs = 0
        while chunk >= 1, runs < shrinkBudget {
            var start = 0
            var removedAny = false
            while start < current.steps.count, runs < shrinkBudget {
                var candidate = current
                candidate.steps.removeSubrange(start..<min(start + chunk, candidate.steps.count))
                runs += 1
                if !(await candidate.outcome(stratus: executable, selfTest: false)).violations.isEmpty {
                    current = candidate
                    removedAny = true
                } else {
                    start += chunk
                }
            }
            if !removedAny { chunk /= 2 }
        }
        return current
    }
}

/// A seeded scenario the simulation can run, replay and shrink.
protocol SimulationScenario: Sendable {
    associatedtype Step: CustomStringConvertible & Sendable
    var seed: UInt64 { get }
    var steps: [Step] { get set }
    var killsServer: Bool { get }
    var operationCount: Int { get }
    /// The faults the scenario meets, one per step that is one.
    var faults: [FaultKind] { get }
    /// Runs the scenario against a fresh server (a `stratus` process if it kills the server).
    func outcome(stratus: URL, selfTest: Bool) async -> ScenarioOutcome
}

extension Scenario: SimulationScenario {
    var faults: [FaultKind] { steps.compactMap(\.fault) }
    func outcome(stratus: URL, selfTest: Bool) async -> ScenarioOutcome {
        await ScenarioRun(scenario: self, stratus: stratus, selfTest: selfTest).outcome()
    }
}

extension AppScenario: SimulationScenario {
    var faults: [FaultKind] { steps.compactMap(\.fault) }
    func outcome(stratus: URL, selfTest: Bool) async -> ScenarioOutcome {
        await AppScenarioRun(scenario: self, stratus: stratus).outcome()
    }
}

/// The figures of a simulation run.
private struct SimulationReport {
    var scenarios = 0
    var failed = 0
    var operations = 0
    var steps = 0
    var kills = 0
    var failedSyncs = 0
    var simulatedWait: Duration = .zero
    var faults: [FaultKind: Int] = [:]
    var kindsPerScenario: [Int: Int] = [:]
    var violations: [Violation.Kind: Int] = [:]
    var participants = 0
    var sharedItems = 0
    var participantItems = 0
    var refusedItems = 0
    var performed = 0
    var compacted = 0
    var restores = 0
    var restoredRecords = 0
    var restoreDeletedRecords = 0

    mutating func add(_ scenario: some SimulationScenario, _ outcome: ScenarioOutcome) {
        scenarios += 1
        if !outcome.violations.isEmpty { failed += 1 }
        operations += scenario.operationCount
        steps += scenario.steps.count
        if scenario.killsServer { kills += 1 }
        failedSyncs += outcome.failedSyncs
        simulatedWait += outcome.simulatedWait
        for fault in scenario.faults { faults[fault, default: 0] += 1 }
        kindsPerScenario[Set(scenario.faults).count, default: 0] += 1
        for violation in outcome.violations { violations[violation.kind, default: 0] += 1 }
        participants += outcome.participants
        sharedItems += outcome.sharedItems
        participantItems += outcome.participantItems
        refusedItems += outcome.refusedItems
        performed += outcome.performed
        compacted += outcome.compacted
        restores += outcome.restores
        restoredRecords += outcome.restoredRecords
        restoreDeletedRecords += outcome.restoreDeletedRecords
    }

    func print(app: SimulatedApp, duration: Duration) {
        let devices = switch app {
        case .generic: "\(Scenario.users) users x \(Scenario.devicesPerUser) devices each"
        case .notes: "2 users x 3 Notes devices each"
        case .shopping: "2 users x 2 Shopping devices each, 2 shared lists"
        }
        Swift.print("""
            scenarios \(scenarios): \(scenarios - failed) passed, \(failed) failed (\(devices))
            operations \(operations) (\(operations / max(scenarios, 1)) a scenario), steps \(steps), syncs failed under faults \(failedSyncs)
            scenarios with a server SIGKILL: \(kills)
            fault kinds per scenario: \(kindsPerScenario.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", "))
            \(app == .generic ? "sharing: \(participants) participants in shares at the end, \(sharedItems) items in shared zones (\(participantItems) written by participants), \(refusedItems) participant writes refused after their access changed"
                : app == .notes ? "edits made \(performed), the note restored to its previous version \(restores) times"
                : "operations made \(performed) (the rest met a device not showing the list or item yet), journal entries compacted \(compacted)\n"
                    + "lists restored to a marked moment \(restores) times: \(restoredRecords) records saved back or undeleted, \(restoreDeletedRecords) deleted")
            faults: \(faults.sorted { $0.key < $1.key }.map { "\($0.key.rawValue) \($0.value)" }.joined(separator: ", "))
            violations: \(Violation.Kind.allCases.map { "\($0.rawValue) \(violations[$0] ?? 0)" }.joined(separator: ", "))
            simulated waits \(Int(simulatedWait.components.seconds)) s, real time \(Int(duration.components.seconds)) s
            """)
        flushOutput()
    }
}
