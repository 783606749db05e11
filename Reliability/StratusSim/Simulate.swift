import ArgumentParser
import Foundation

/// `stratus-sim simulate` (the default): seeded scenarios of three users with two devices each —
/// one syncing with a `SyncEngine`, one with StratusData tables — editing, creating and deleting
/// through dropped requests, answers lost after commit, throttling, oversized batches, offline
/// spells, app kills, expired change tokens and (one scenario in ten) a real server killed with
/// `SIGKILL`; then the invariants. A failure prints its seed and the shortest sub-trace that still
/// fails; `--seed N` replays a seed's operations and faults in the same order.
struct Simulate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Seeded multi-device scenarios with faults; invariants checked.")

    @Option(help: "Scenarios to run, seeds first-seed, first-seed + 1, …") var seeds = 100
    @Option(help: "The first seed.") var firstSeed: UInt64 = 1
    @Option(help: "Run this one seed (and print its trace).") var seed: UInt64?
    @Option(help: "Scenario runs the shrinking of a failure may take.") var shrinkBudget = 150
    @Option(help: "The stratus executable for the kill scenarios (default: the one built next to this tool).") var stratus: String?
    @Flag(help: "Check the checks: empty one device's tables behind the sync's back once quiet; succeed only if every scenario reports it.")
    var selfTest = false

    func run() async throws {
        let executable = stratus.map(URL.init(fileURLWithPath:)) ?? ServerProcess.siblingExecutable()
        let chosen = seed.map { [$0] } ?? Array(firstSeed..<(firstSeed + UInt64(seeds)))
        var report = SimulationReport()
        let started = ContinuousClock.now
        for seed in chosen {
            let scenario = Scenario(seed: seed)
            if self.seed != nil {
                print("seed \(seed): \(scenario.steps.count) steps")
                for (index, step) in scenario.steps.enumerated() { print("  \(index). \(step)") }
            }
            let outcome = await ScenarioRun(scenario: scenario, stratus: executable, selfTest: selfTest).outcome()
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
            if outcome.violations.isEmpty {
                if self.seed != nil { print("seed \(seed): ok") }
                continue
            }
            print("seed \(seed): FAILED")
            for violation in outcome.violations.prefix(10) { print("  \(violation)") }
            flushOutput()
            let shortest = try await shrink(scenario, executable: executable)
            print("seed \(seed): the shortest trace that still fails (\(shortest.steps.count) of \(scenario.steps.count) steps; replay the seed with `stratus-sim --seed \(seed)`):")
            for step in shortest.steps { print("  \(step)") }
            flushOutput()
        }
        report.print(duration: ContinuousClock.now - started)
        if report.failed > 0, !selfTest { throw ExitCode.failure }
    }

    /// The shortest sub-sequence of the scenario's steps found that still breaks an invariant:
    /// removes ever smaller chunks while the failure persists (delta debugging).
    private func shrink(_ scenario: Scenario, executable: URL) async throws -> Scenario {
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
                let outcome = await ScenarioRun(scenario: candidate, stratus: executable).outcome()
                if !outcome.violations.isEmpty {
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

    mutating func add(_ scenario: Scenario, _ outcome: ScenarioOutcome) {
        scenarios += 1
        if !outcome.violations.isEmpty { failed += 1 }
        operations += scenario.operationCount
        steps += scenario.steps.count
        if scenario.killsServer { kills += 1 }
        failedSyncs += outcome.failedSyncs
        simulatedWait += outcome.simulatedWait
        for fault in scenario.steps.compactMap(\.fault) { faults[fault, default: 0] += 1 }
        kindsPerScenario[scenario.faultKinds.count, default: 0] += 1
        for violation in outcome.violations { violations[violation.kind, default: 0] += 1 }
        participants += outcome.participants
        sharedItems += outcome.sharedItems
        participantItems += outcome.participantItems
        refusedItems += outcome.refusedItems
    }

    func print(duration: Duration) {
        Swift.print("""
            scenarios \(scenarios): \(scenarios - failed) passed, \(failed) failed (\(Scenario.users) users x \(Scenario.devicesPerUser) devices each)
            operations \(operations) (\(operations / max(scenarios, 1)) a scenario), steps \(steps), syncs failed under faults \(failedSyncs)
            scenarios with a server SIGKILL: \(kills)
            fault kinds per scenario: \(kindsPerScenario.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", "))
            sharing: \(participants) participants in shares at the end, \(sharedItems) items in shared zones (\(participantItems) written by participants), \(refusedItems) participant writes refused after their access changed
            faults: \(faults.sorted { $0.key < $1.key }.map { "\($0.key.rawValue) \($0.value)" }.joined(separator: ", "))
            violations: \(Violation.Kind.allCases.map { "\($0.rawValue) \(violations[$0] ?? 0)" }.joined(separator: ", "))
            simulated waits \(Int(simulatedWait.components.seconds)) s, real time \(Int(duration.components.seconds)) s
            """)
        flushOutput()
    }
}
