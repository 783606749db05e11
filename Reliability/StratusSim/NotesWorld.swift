import Foundation
import NotesKit
import StratusClient
import StratusTesting

/// A Notes device as it ships (``NoteDevice``), on a network that fails on demand.
struct SimulatedNoteDevice: AppDevice {
    let app: NoteDevice
    let transport: FaultInjectingTransport

    func sync() async throws { try await app.sync() }
    func backlog() async throws -> [String] { try await app.store.engine.snapshot().backlog }
}

/// The Notes app's users, each with three devices editing the one note and now and then restoring
/// its previous version from the server's history, and the edit that must win: the one with the
/// latest `modified`, which is the latest step's. After a restore and no edit since, the restored
/// version competes with edits still waiting on offline devices by the versions' `modified`, which
/// the world does not see: every device must then show the same one of the user's edits.
final class NotesWorld: AppWorld {
    private let scenario: AppScenario
    private let clock: SimulatedClock
    private let time: AppTime
    private let root: URL
    private(set) var devices: [any AppDevice] = []
    /// The latest edit of each user's note, and every edit.
    private var latest: [Int: String] = [:]
    private var edits: [Int: Set<String>] = [:]
    /// The users whose last step was a restore (tried: it may have committed even if it failed).
    private var restoredLast: Set<Int> = []

    init(scenario: AppScenario, server: any SimulationServer, clock: SimulatedClock, time: AppTime, root: URL) async throws {
        self.scenario = scenario
        self.clock = clock
        self.time = time
        self.root = root
        let (baseURL, apiToken) = (await server.baseURL, await server.apiToken)
        for user in 0..<scenario.users {
            let username = "notes-\(scenario.seed)-\(user)-\(UUID().uuidString.prefix(6))"
            for index in 0..<scenario.devicesPerUser {
                try await NoteDevice.setup(directory: directory(of: user * scenario.devicesPerUser + index), server: baseURL,
                                           container: server.containerID, apiToken: apiToken,
                                           signIn: .password(username: username, password: "password-\(username)", signUp: index == 0))
            }
        }
        for device in 0..<scenario.deviceCount { devices.append(try await open(device, transport: FaultInjectingTransport(clock: clock))) }
    }

    private func directory(of device: Int) -> URL { root.appendingPathComponent("device-\(device)") }

    /// Opens a device's app on its files; the network (and the faults queued on it) stays the device's.
    private func open(_ device: Int, transport: FaultInjectingTransport) async throws -> SimulatedNoteDevice {
        let app = try await NoteDevice(directory: directory(of: device), transport: transport, now: { [time] in time.now }, clock: clock)
        return SimulatedNoteDevice(app: app, transport: transport)
    }

    func perform(_ step: AppStep, index: Int, outcome: inout ScenarioOutcome) async throws -> Bool {
        switch step {
        case .editNote(let device):
            let user = device / scenario.devicesPerUser
            let text = "u\(user):device-\(device):step-\(index)"
            try await (devices[device] as! SimulatedNoteDevice).app.edit(text)
            latest[user] = text
            edits[user, default: []].insert(text)
            restoredLast.remove(user)
            return true
        case .restoreNote(let device):
            restoredLast.insert(device / scenario.devicesPerUser)
            guard try await (devices[device] as! SimulatedNoteDevice).app.restorePreviousVersion() else { return false }
            outcome.restores += 1
            return true
        default:
            return false
        }
    }

    func restartApp(_ device: Int) async throws {
        devices[device] = try await open(device, transport: devices[device].transport)
    }

    /// Every device of a user shows the latest edit of the user's note; after a restore with no
    /// edit since, every device shows the same one of the user's edits.
    func check() async throws -> [Violation] {
        var violations: [Violation] = []
        for user in restoredLast {
            let range = user * scenario.devicesPerUser..<(user + 1) * scenario.devicesPerUser
            var shown: [String?] = []
            for index in range { shown.append(try await (devices[index] as! SimulatedNoteDevice).app.note()?.text) }
            if Set(shown).count != 1 || !(edits[user] ?? []).contains(shown[0] ?? "") {
                violations.append(Violation(kind: .divergence, detail: "after a restore, user \(user)'s devices show \(shown.map { $0 ?? "no note" })"))
            }
        }
        for (index, device) in devices.enumerated() where !restoredLast.contains(index / scenario.devicesPerUser) {
            let user = index / scenario.devicesPerUser
            let shown = try await (device as! SimulatedNoteDevice).app.note()?.text
            if shown != latest[user] {
                violations.append(Violation(kind: latest[user] == nil ? .duplicate : .divergence,
                                            detail: "device \(index) shows '\(shown ?? "no note")', not the latest edit '\(latest[user] ?? "none")'"))
            }
        }
        return violations
    }
}
