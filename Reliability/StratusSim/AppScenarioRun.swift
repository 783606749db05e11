import Foundation
import StratusClient
import StratusTesting
import Synchronization

/// A device of an example app as the simulation drives it.
protocol AppDevice: Sendable {
    /// The network the device's app sends through, for faults.
    var transport: FaultInjectingTransport { get }
    /// What the app's sync command does.
    func sync() async throws
    /// What the device's engines have not settled: changes to send, changes set aside.
    func backlog() async throws -> [String]
}

/// One example app's users and devices over a server, with a model of what must hold at the end.
protocol AppWorld: AnyObject {
    var devices: [any AppDevice] { get }
    /// Plays an operation step (an edit); whether the device made it (it leaves out an operation
    /// on an item it does not show yet). It counts what compactions and restores changed, and
    /// adds what a restore got wrong, in `outcome`.
    func perform(_ step: AppStep, index: Int, outcome: inout ScenarioOutcome) async throws -> Bool
    /// Kills a device's app (no shutdown) and opens it again on its files.
    func restartApp(_ device: Int) async throws
    /// The app's invariants once every device is quiet.
    func check() async throws -> [Violation]
}

/// The time the example apps stamp their edits with: one simulated second a step, and days when
/// the scenario says they pass; shared by every device, so the latest edit is the latest step.
final class AppTime: Sendable {
    private let milliseconds = Atomic<Int64>(1_800_000_000_000)
    var now: Int64 { milliseconds.load(ordering: .relaxed) }
    func advance(by delta: Int64) { milliseconds.add(delta, ordering: .relaxed) }
}

/// Runs an app scenario against a fresh server: sets up the app's users and devices, plays the
/// steps, brings every device back to a fault-free network, syncs until quiet, and checks the
/// app's invariants and that no device is wedged.
struct AppScenarioRun {
    let scenario: AppScenario
    let stratus: URL

    func outcome() async -> ScenarioOutcome {
        let clock = SimulatedClock()
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("stratus-sim-\(scenario.app.rawValue)-\(UUID().uuidString)")
        let server: any SimulationServer
        do {
            server = scenario.killsServer ? try await ProcessServer(executable: stratus) : try await InProcessServer(clock: clock)
        } catch {
            return ScenarioOutcome(violations: [Violation(kind: .broken, detail: "the server did not start: \(error)")])
        }
        defer { try? FileManager.default.removeItem(at: root) }
        do {
            let outcome = try await play(on: server, clock: clock, root: root)
            await server.shutdown()
            return outcome
        } catch {
            await server.shutdown()
            return ScenarioOutcome(violations: [Violation(kind: .broken, detail: "\(error)")])
        }
    }

    private func play(on server: any SimulationServer, clock: SimulatedClock, root: URL) async throws -> ScenarioOutcome {
        let time = AppTime()
        let world: any AppWorld = switch scenario.app {
        case .notes: try await NotesWorld(scenario: scenario, server: server, clock: clock, time: time, root: root)
        case .shopping: try await ShoppingWorld(scenario: scenario, server: server, clock: clock, time: time, root: root)
        case .generic: throw SimulationError("generic scenarios are run by ScenarioRun")
        }
        var outcome = ScenarioOutcome()
        var watch = WedgeWatch()
        var random = SeededGenerator(seed: scenario.seed ^ 0x5EED)
        func sync(_ device: Int) async {
            var failure: (any Error)?
            do { try await world.devices[device].sync() } catch {
                failure = error
                outcome.failedSyncs += 1
            }
            if let violation = watch.synced(device, error: failure) { outcome.violations.append(violation) }
        }
        for (index, step) in scenario.steps.enumerated() {
            time.advance(by: 1000)
            switch step {
            case .editNote, .restoreNote, .addItem, .checkItem, .uncheckItem, .deleteItem, .renameList, .compact, .restoreList:
                do {
                    if try await world.perform(step, index: index, outcome: &outcome) { outcome.performed += 1 }
                } catch {
                    // Compaction and restores talk to the server directly, faults and all.
                    outcome.failedSyncs += 1
                }
            case .markMoment:
                _ = try await world.perform(step, index: index, outcome: &outcome)
            case .daysPass(let days):
                time.advance(by: Int64(days) * 24 * 3600 * 1000)
            case .sync(let device):
                await sync(device)
            case .goOffline(let device):
                world.devices[device].transport.setOffline(true)
                watch.faultMet(by: device)
            case .goOnline(let device):
                world.devices[device].transport.setOffline(false)
            case .inject(let device, let fault):
                world.devices[device].transport.meet(fault)
                watch.faultMet(by: device)
            case .restartApp(let device):
                try await world.restartApp(device)
                watch.faultMet(by: device)
            case .purgeTombstones:
                try await server.purgeTombstones()
                watch.faultMet(byAll: world.devices.count)
            case .killServer(let device):
                let syncing = Task { [device = world.devices[device]] in try await device.sync() }
                try await Task.sleep(for: .milliseconds(Int.random(in: 1...40, using: &random)))
                try await server.killAndRestart()
                if (try? await syncing.value) == nil { outcome.failedSyncs += 1 }
                watch.faultMet(byAll: world.devices.count)
            }
        }

        // Quiescence: no faults, everyone online, every device syncs until nothing moves.
        for device in world.devices {
            device.transport.clearFaults()
            device.transport.setOffline(false)
        }
        let quiet = clock.now
        for round in 0..<3 {
            for index in world.devices.indices {
                do {
                    try await world.devices[index].sync()
                } catch where round == 2 {
                    outcome.violations.append(Violation(kind: .stuck, detail: "device \(index): \(error)"))
                } catch {}
            }
        }
        outcome.simulatedWait = clock.elapsed
        let draining = quiet.duration(to: clock.now)
        if draining > WedgeWatch.drainBound {
            outcome.violations.append(Violation(kind: .wedged, detail: "the devices took \(draining) of simulated time to drain (bound \(WedgeWatch.drainBound))"))
        }
        for (index, device) in world.devices.enumerated() {
            outcome.violations += WedgeWatch.check(device: index, backlog: try await device.backlog())
        }
        outcome.violations += try await world.check()
        return outcome
    }
}
