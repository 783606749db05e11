import StratusClient
import StratusSync

/// The "no wedge" invariant (every scenario's): once a device is online and the server up, its
/// sync does not fail twice in a row for a reason that is not transient, and after quiescence it
/// has nothing left to send and nothing set aside (no scenario injects a reason to set one aside).
struct WedgeWatch {
    /// How long a device may take, in simulated time, to drain what it queued once the faults are gone.
    static let drainBound: Duration = .seconds(15 * 60)

    /// Devices that met a fault since their last sync: a failure of that sync is the fault's.
    private var excused: Set<Int> = []
    /// Syncs in a row that failed for a reason that is not transient, by device.
    private var failures: [Int: Int] = [:]

    /// A fault (offline, an injected failure, an app kill) is in the device's way until its next sync.
    mutating func faultMet(by device: Int) { excused.insert(device) }

    /// A fault in every device's way (a server kill).
    mutating func faultMet(byAll count: Int) { excused.formUnion(0..<count) }

    /// Records the end of a device's sync; a violation if it failed twice in a row for a reason
    /// that is neither transient nor a fault's.
    mutating func synced(_ device: Int, error: (any Error)?) -> Violation? {
        defer { excused.remove(device) }
        guard let error else {
            failures[device] = 0
            return nil
        }
        guard !excused.contains(device), !Self.isTransient(error) else { return nil }
        failures[device, default: 0] += 1
        guard failures[device] == 2 else { return nil }
        return Violation(kind: .wedged, detail: "device \(device): sync failed twice in a row, not for a transient reason: \(error)")
    }

    /// What a device still holds after quiescence: changes to send and changes set aside, as
    /// violations.
    static func check(device: Int, backlog: [String]) -> [Violation] {
        backlog.prefix(3).map { Violation(kind: .wedged, detail: "device \(device) after quiescence: \($0)") }
    }

    /// What an app retries as it is: the network, throttling, a busy or failing server.
    static func isTransient(_ error: any Error) -> Bool {
        guard let error = error as? CloudError else { return false }
        return error.isTransient || error.code == .internalError
    }
}

extension SyncEngine.State {
    /// What the engine has not settled, in words: changes to send, and changes set aside with their reasons.
    var backlog: [String] {
        pendingRecordChanges.map { "still to send: \($0)" } + pendingDatabaseChanges.map { "still to send: \($0)" }
            + setAsideChanges.map { "set aside\($0.isServerVersion ? " (the server's version)" : ""): \($0.change): \($0.reason)" }
    }
}
