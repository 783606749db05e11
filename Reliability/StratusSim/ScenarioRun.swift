import Foundation
import StratusClient
import StratusTesting

/// An invariant a scenario broke.
struct Violation: CustomStringConvertible, Sendable {
    enum Kind: String, CaseIterable, Sendable {
        /// A write the devices made is not on the server (or lost to an older one).
        case lost
        /// A record is on the server twice, or one nobody wrote.
        case duplicate
        /// A deleted record came back.
        case resurrected
        /// A device holds a record of another user.
        case leak
        /// A device's records differ from the server's after quiescence.
        case divergence
        /// A device could not finish syncing once the faults were gone.
        case stuck
        /// A step failed in a way an app could not go on from.
        case broken
    }

    var kind: Kind
    var detail: String
    var description: String { "\(kind.rawValue): \(detail)" }
}

/// What running a scenario found.
struct ScenarioOutcome: Sendable {
    var violations: [Violation] = []
    /// Waits (backoff, `retryAfter`) the devices spent in simulated time.
    var simulatedWait: Duration = .zero
    /// Syncs that failed while faults were in the way (expected; counted for the report).
    var failedSyncs = 0
}

/// Runs one scenario against a fresh server: signs up its users, opens their devices, plays the
/// steps in order while keeping a model of what must end up on the server, brings every device
/// back to a fault-free network, syncs until quiet, and checks the invariants.
struct ScenarioRun {
    let scenario: Scenario
    /// The `stratus` executable, for scenarios that kill a real server.
    let stratus: URL
    /// Check the checks: once quiet, one device's tables are emptied behind the sync's back, which
    /// the invariants must report.
    var selfTest = false

    /// Runs the scenario; a step that fails outright is a violation too.
    func outcome() async -> ScenarioOutcome {
        do {
            return try await run()
        } catch {
            return ScenarioOutcome(violations: [Violation(kind: .broken, detail: "\(error)")])
        }
    }

    private func run() async throws -> ScenarioOutcome {
        let clock = SimulatedClock()
        let server: any SimulationServer = scenario.killsServer ? try ProcessServer(executable: stratus) : try await InProcessServer(clock: clock)
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("stratus-sim-devices-\(UUID().uuidString)")
        do {
            let outcome = try await play(on: server, clock: clock, root: root)
            await server.shutdown()
            try? FileManager.default.removeItem(at: root)
            return outcome
        } catch {
            await server.shutdown()
            try? FileManager.default.removeItem(at: root)
            throw error
        }
    }

    private func play(on server: any SimulationServer, clock: SimulatedClock, root: URL) async throws -> ScenarioOutcome {
        let (baseURL, apiToken) = (await server.baseURL, await server.apiToken)
        func container(_ transport: any Transport = HTTPTransport(), device: String? = nil) -> Container {
            Container(baseURL: baseURL, containerIdentifier: server.containerID, apiToken: apiToken, transport: transport, deviceID: device)
        }
        var users: [String] = []
        for user in 0..<Scenario.users {
            let name = "sim-\(scenario.seed)-\(user)-\(UUID().uuidString.prefix(6))"
            _ = try await container().signUp(username: name, password: "password-\(name)")
            users.append(name)
        }
        var devices: [any SimulatedDevice] = []
        var sessions: [Container] = []
        for index in 0..<Scenario.deviceCount {
            let transport = FaultInjectingTransport(clock: clock)
            let session = container(transport, device: "device-\(index)")
            let user = users[index / Scenario.devicesPerUser]
            _ = try await session.signIn(username: user, password: "password-\(user)")
            sessions.append(session)
            let directory = root.appendingPathComponent("device-\(index)")
            devices.append(index % 2 == 0
                ? try EngineDevice(name: "device-\(index)", directory: directory, container: session, transport: transport, clock: clock)
                : try TableDevice(directory: directory, container: session, transport: transport, clock: clock))
        }

        var model = Model()
        var outcome = ScenarioOutcome()
        var random = SeededGenerator(seed: scenario.seed ^ 0x5EED)
        for (index, step) in scenario.steps.enumerated() {
            switch step {
            case .editNote(let device, let note):
                let user = device / Scenario.devicesPerUser
                let name = "note-\(user)-\(note)"
                let text = "u\(user):\(name):step-\(index)"
                try await devices[device].editNote(name, text: text, modified: Int64(index))
                model.notes[name] = (user, text)
            case .createEntry(let device, let entry):
                let user = device / Scenario.devicesPerUser
                let name = "entry-\(entry)"
                try await devices[device].createEntry(name, text: "u\(user):\(name)", note: "note-\(user)-\(entry % Scenario.notesPerUser)")
                model.entries[name] = (user, "u\(user):\(name)")
            case .deleteEntry(let device, let entry):
                if try await devices[device].deleteEntry("entry-\(entry)") {
                    model.entries["entry-\(entry)"] = nil
                    model.deleted.insert("entry-\(entry)")
                    }
            case .writeScratch(let device, let item):
                let user = device / Scenario.devicesPerUser
                let name = "scratch-\(user)-\(item)"
                try await (devices[device] as! EngineDevice).writeScratch(name, text: "u\(user):\(name):step-\(index)")
            case .deleteScratchZone(let device):
                // Through the device's network, faults and all; it may not get through.
                if (try? await sessions[device].privateCloudDatabase.deleteRecordZone(withID: scratchZone)) == nil { outcome.failedSyncs += 1 }
            case .sync(let device):
                do {
                    try await devices[device].sync()
                } catch {
                    outcome.failedSyncs += 1
                }
            case .goOffline(let device):
                devices[device].transport.setOffline(true)
            case .goOnline(let device):
                devices[device].transport.setOffline(false)
            case .inject(let device, let fault):
                let transport = devices[device].transport
                switch fault {
                case .dropRequest: transport.inject(.dropRequest)
                case .dropResponse: transport.inject(.dropResponse, on: "records/modify")
                case .throttle: transport.inject(.fail(.throttled, retryAfter: 3))
                // A batch of one cannot be split: the server would answer that only for a record
                // too large to save, which this scenario never makes.
                case .limitExceeded: transport.inject(.fail(.limitExceeded), on: "records/modify", minimumOperations: 2)
                default: break
                }
            case .restartApp(let device):
                try await devices[device].restartApp()
            case .purgeTombstones:
                try await server.purgeTombstones()
            case .killServer(let device):
                let syncing = Task { [devices] in try await devices[device].sync() }
                try await Task.sleep(for: .milliseconds(Int.random(in: 1...40, using: &random)))
                try await server.killAndRestart()
                if (try? await syncing.value) == nil { outcome.failedSyncs += 1 }
            }
        }

        // Quiescence: no faults, everyone online, every device syncs until nothing moves.
        for device in devices {
            device.transport.clearFaults()
            device.transport.setOffline(false)
        }
        for round in 0..<3 {
            for (index, device) in devices.enumerated() {
                do {
                    try await device.sync()
                } catch where round == 2 {
                    outcome.violations.append(Violation(kind: .stuck, detail: "device \(index): \(error)"))
                } catch {}
            }
        }
        outcome.simulatedWait = clock.elapsed
        if selfTest { try await (devices[1] as! TableDevice).forgetEverything() }

        for (user, name) in users.enumerated() {
            let session = container()
            _ = try await session.signIn(username: name, password: "password-\(name)")
            let onServer = try await Self.records(of: session.privateCloudDatabase, in: simulationZone)
            // What the scratch zone holds depends on when its deletion landed among the queued
            // writes: the devices must agree with the server on it, whatever it is.
            let scratch = try await Self.records(of: session.privateCloudDatabase, in: scratchZone)
            outcome.violations += model.check(server: onServer, user: user)
            for index in 0..<Scenario.devicesPerUser {
                let device = user * Scenario.devicesPerUser + index
                let held = try await devices[device].contents()
                let expected = devices[device].syncsScratchZone ? onServer.merging(scratch) { first, _ in first } : onServer
                outcome.violations += Model.compare(device: device, user: user, held: held, server: expected)
            }
        }
        return outcome
    }

    /// Every record in a zone as the server has it now: record name → text.
    private static func records(of database: Database, in zone: ZoneID) async throws -> [String: String] {
        var records: [String: String] = [:]
        var token: ServerChangeToken?
        while true {
            let page: RecordZoneChanges
            do {
                page = try await database.recordZoneChanges(inZoneWith: zone, since: token)
            } catch let error as CloudError where error.code == .zoneNotFound {
                return [:]
            }
            for record in page.modifications { records[record.recordID.recordName] = record.string("text") ?? "" }
            for deletion in page.deletions { records[deletion.recordID.recordName] = nil }
            token = page.changeToken
            if !page.moreComing { return records }
        }
    }
}

/// What the server must hold at the end: the latest edit of every note, every entry created and
/// not deleted — by user.
struct Model {
    var notes: [String: (user: Int, text: String)] = [:]
    var entries: [String: (user: Int, text: String)] = [:]
    var deleted: Set<String> = []

    func check(server: [String: String], user: Int) -> [Violation] {
        var violations: [Violation] = []
        let expected = notes.merging(entries) { first, _ in first }.filter { $0.value.user == user }
        for (name, want) in expected.sorted(by: { $0.key < $1.key }) {
            guard let have = server[name] else {
                violations.append(Violation(kind: .lost, detail: "user \(user): \(name) is not on the server"))
                continue
            }
            if have != want.text {
                violations.append(Violation(kind: .lost, detail: "user \(user): \(name) is '\(have)' on the server, not the latest edit '\(want.text)'"))
            }
        }
        for name in Set(server.keys).subtracting(expected.keys).sorted() {
            violations.append(deleted.contains(name)
                ? Violation(kind: .resurrected, detail: "user \(user): deleted \(name) is on the server")
                : Violation(kind: .duplicate, detail: "user \(user): \(name) ('\(server[name]!)') is on the server but nobody wrote it"))
        }
        var seen: [String: String] = [:]
        for (name, text) in server.sorted(by: { $0.key < $1.key }) {
            if let other = seen[text] { violations.append(Violation(kind: .duplicate, detail: "user \(user): '\(text)' is both \(other) and \(name)")) }
            seen[text] = name
        }
        return violations
    }

    static func compare(device: Int, user: Int, held: [String: String], server: [String: String]) -> [Violation] {
        var violations: [Violation] = []
        for (name, text) in held where !text.hasPrefix("u\(user):") {
            violations.append(Violation(kind: .leak, detail: "device \(device) of user \(user) holds \(name) ('\(text)')"))
        }
        if held != server {
            let missing = Set(server.keys).subtracting(held.keys).sorted().prefix(3)
            let extra = Set(held.keys).subtracting(server.keys).sorted().prefix(3)
            let different = held.filter { server[$0.key] != nil && server[$0.key] != $0.value }.keys.sorted().prefix(3)
            violations.append(Violation(kind: .divergence, detail: "device \(device): missing \(Array(missing)), extra \(Array(extra)), different \(Array(different))"))
        }
        return violations
    }
}
