import ArgumentParser
import StratusTesting

/// What a simulation's devices run: the generic model (a `SyncEngine` app and a StratusData app
/// per user), or one of the example apps as it ships.
enum SimulatedApp: String, CaseIterable, ExpressibleByArgument, Sendable {
    /// ``Scenario``: notes, entries with photos and cascades, sharing, zone deletions.
    case generic
    /// ``AppScenario``: users with three `NoteDevice`s each, editing their note and restoring earlier versions.
    case notes
    /// ``AppScenario``: users with two `ShoppingDevice`s each, on lists every user shares with the others,
    /// one list brought back to an earlier moment from the server's history.
    case shopping
}

/// One step of an app scenario. Devices are numbered across users: device `d` belongs to user
/// `d / devicesPerUser`. Items and lists are numbered by the scenario; list `l` is user `l`'s.
enum AppStep: Hashable, Sendable, CustomStringConvertible {
    /// Notes: the device edits its user's note (stamped with the step's time: the latest wins).
    case editNote(device: Int)
    /// Notes: the device brings back the note's previous version from the server's history.
    case restoreNote(device: Int)
    /// Shopping: the device adds an item to a list, after another item (if the device shows it) or at the top.
    case addItem(device: Int, list: Int, item: Int, after: Int?)
    /// Shopping: the device checks, unchecks or deletes an item (if it shows the item).
    case checkItem(device: Int, list: Int, item: Int)
    case uncheckItem(device: Int, list: Int, item: Int)
    case deleteItem(device: Int, list: Int, item: Int)
    /// Shopping: the device renames a list.
    case renameList(device: Int, list: Int)
    /// Shopping: the device compacts a list's journal on the server (forced).
    case compact(device: Int, list: Int)
    /// Shopping: the world notes the server's time, and what the list holds on the server then.
    case markMoment(list: Int)
    /// Shopping: the list's owner, on this device, restores the list to the moment last marked
    /// (entries added since deleted, entries compacted since undeleted).
    case restoreList(device: Int, list: Int)
    /// Time passes on every device (for the journal: compaction's 14 days, the full fetch after idling).
    case daysPass(Int)
    case sync(device: Int)
    case goOffline(device: Int)
    case goOnline(device: Int)
    /// Queues a fault for the device's next request (to an endpoint, for batch faults).
    case inject(device: Int, fault: FaultKind)
    /// Kills the app and launches it again on its files.
    case restartApp(device: Int)
    /// Purges every tombstone on the server, so change tokens from before expire.
    case purgeTombstones
    /// Kills the server with `SIGKILL` while the device syncs, then restarts it.
    case killServer(duringSyncOf: Int)

    var description: String {
        switch self {
        case .editNote(let device): "device \(device) edits the note"
        case .restoreNote(let device): "device \(device) restores the note's previous version from the server's history"
        case .addItem(let device, let list, let item, let after): "device \(device) adds item \(item) to list \(list) \(after.map { "after item \($0)" } ?? "at the top")"
        case .checkItem(let device, let list, let item): "device \(device) checks item \(item) of list \(list)"
        case .uncheckItem(let device, let list, let item): "device \(device) unchecks item \(item) of list \(list)"
        case .deleteItem(let device, let list, let item): "device \(device) deletes item \(item) of list \(list)"
        case .renameList(let device, let list): "device \(device) renames list \(list)"
        case .compact(let device, let list): "device \(device) compacts list \(list)"
        case .markMoment(let list): "the server's time is marked for list \(list)"
        case .restoreList(let device, let list): "device \(device) restores list \(list) to the marked moment"
        case .daysPass(let days): "\(days) days pass"
        case .sync(let device): "device \(device) syncs"
        case .goOffline(let device): "device \(device) goes offline"
        case .goOnline(let device): "device \(device) comes back online"
        case .inject(let device, let fault): "device \(device) meets \(fault.rawValue)"
        case .restartApp(let device): "device \(device)'s app is killed and relaunched"
        case .purgeTombstones: "the server purges tombstones"
        case .killServer(let device): "the server is killed (SIGKILL) while device \(device) syncs"
        }
    }

    /// Whether the step changes data (the scenario's operations).
    var isOperation: Bool {
        switch self {
        case .editNote, .restoreNote, .addItem, .checkItem, .uncheckItem, .deleteItem, .renameList, .compact, .restoreList: true
        default: false
        }
    }

    /// The kind of fault the step is, if it is one.
    var fault: FaultKind? {
        switch self {
        case .goOffline: .offline
        case .inject(_, let fault): fault
        case .restartApp: .appKill
        case .purgeTombstones: .tokenExpiry
        case .killServer: .serverKill
        default: nil
        }
    }
}

/// A seed's scenario for one of the example apps: the users, their devices, the operations and
/// the faults in order (offline spells, dropped requests, answers lost after commit, throttling,
/// oversized batches, app kills, expired change tokens, and one scenario in ten a real server
/// killed with `SIGKILL`).
struct AppScenario: Sendable {
    let app: SimulatedApp
    let seed: UInt64
    let killsServer: Bool
    var steps: [AppStep]

    /// Notes: two users with three devices each, one note per user. Shopping: two users with two
    /// devices each; each user owns a list shared with the other, read-write.
    var users: Int { 2 }
    var devicesPerUser: Int { app == .notes ? 3 : 2 }
    var deviceCount: Int { users * devicesPerUser }

    var operationCount: Int { steps.filter(\.isOperation).count }
    var faultKinds: Set<FaultKind> { Set(steps.compactMap(\.fault)) }

    init(app: SimulatedApp, seed: UInt64, killsServer: Bool, steps: [AppStep]) {
        self.app = app
        self.seed = seed
        self.killsServer = killsServer
        self.steps = steps
    }

    /// The scenario of `seed` for `app` (notes or shopping): 30 to 55 operations and at least
    /// three kinds of fault (offline, an answer lost, an app kill; and a server kill in one in ten).
    init(app: SimulatedApp, seed: UInt64) {
        precondition(app != .generic, "generic scenarios are Scenario's")
        self.app = app
        self.seed = seed
        killsServer = seed % 10 == 0
        steps = []
        var random = SeededGenerator(seed: seed ^ 0xA99)
        var offline = Set<Int>()
        var items: [Int: [Int]] = [:]
        let operations = Int.random(in: app == .notes ? 30...40 : 40...55, using: &random)
        var made = 0
        while made < operations {
            let device = Int.random(in: 0..<deviceCount, using: &random)
            let list = Int.random(in: 0..<users, using: &random)
            let roll = Int.random(in: 0..<100, using: &random)
            switch (app, roll) {
            case (.notes, 0..<36):
                steps.append(.editNote(device: device))
                made += 1
            case (.notes, 93..<97):
                steps.append(.restoreNote(device: device))
                made += 1
            case (.shopping, 0..<22):
                let item = items.values.reduce(0) { $0 + $1.count }
                steps.append(.addItem(device: device, list: list, item: item, after: items[list]?.randomElement(using: &random)))
                items[list, default: []].append(item)
                made += 1
            case (.shopping, 22..<36):
                guard let item = items[list]?.randomElement(using: &random) else { continue }
                let kinds: [AppStep] = [.checkItem(device: device, list: list, item: item), .checkItem(device: device, list: list, item: item),
                                        .uncheckItem(device: device, list: list, item: item), .deleteItem(device: device, list: list, item: item),
                                        .renameList(device: device, list: list), .compact(device: device, list: list)]
                steps.append(kinds.randomElement(using: &random)!)
                made += 1
            case (_, 36..<60):
                steps.append(.sync(device: device))
            case (_, 60..<68):
                if offline.remove(device) != nil { steps.append(.goOnline(device: device)) }
                else { offline.insert(device); steps.append(.goOffline(device: device)) }
            case (_, 68..<80):
                var kinds: [FaultKind] = [.dropRequest, .dropResponse, .throttle]
                // A note is one record: only a list's journal makes batches to split.
                if app == .shopping { kinds.append(.limitExceeded) }
                steps.append(.inject(device: device, fault: kinds.randomElement(using: &random)!))
            case (_, 80..<85):
                steps.append(.restartApp(device: device))
            case (.shopping, 85..<90):
                steps.append(.daysPass(Int.random(in: 1...20, using: &random)))
            case (_, 90..<93):
                if killsServer { steps.append(.killServer(duringSyncOf: device)) }
                // Notes never deletes, so only a shopping journal leaves tombstones to purge.
                else if app == .shopping { steps.append(.purgeTombstones) }
            default:
                continue
            }
        }
        var required: [AppStep] = [.goOffline(device: 0), .inject(device: 1, fault: .dropResponse), .restartApp(device: 2)]
        if killsServer { required.append(.killServer(duringSyncOf: 3)) }
        // Tombstones are purged in scenarios with a server in this process only.
        if app == .shopping, !killsServer { required.append(.purgeTombstones) }
        for step in required where !faultKinds.contains(step.fault!) {
            steps.insert(step, at: Int.random(in: 0...steps.count, using: &random))
        }
        if app == .notes, !steps.contains(where: { if case .restoreNote = $0 { true } else { false } }) {
            // Every Notes scenario restores a version while other devices edit, some offline.
            steps.insert(.restoreNote(device: Int.random(in: 0..<deviceCount, using: &random)),
                         at: Int.random(in: steps.count / 2...steps.count, using: &random))
        }
        if app == .shopping {
            // In the second half, the devices sync (faults permitting), the journal gets old
            // enough to compact, and a device compacts each list while the others hold its entries.
            let at = Int.random(in: steps.count / 2...steps.count, using: &random)
            let compactions = (0..<users).map { AppStep.compact(device: Int.random(in: 0..<deviceCount, using: &random), list: $0) }
            let block = (0..<deviceCount).map { AppStep.sync(device: $0) } + [.daysPass(15)] + compactions
            steps.insert(contentsOf: block, at: at)
            // A list's moment is marked before the compactions and restored after them, while
            // devices edit (some offline): the restore deletes entries and undeletes compacted ones.
            let list = Int.random(in: 0..<users, using: &random)
            let owner = list * devicesPerUser + Int.random(in: 0..<devicesPerUser, using: &random)
            steps.insert(contentsOf: [.goOnline(device: owner), .restoreList(device: owner, list: list)],
                         at: Int.random(in: at + block.count...steps.count, using: &random))
            steps.insert(.markMoment(list: list), at: Int.random(in: at / 2...at, using: &random))
        }
    }
}
