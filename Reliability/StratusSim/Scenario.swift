import StratusTesting

/// A fault the simulation puts in a scenario's way.
enum FaultKind: String, CaseIterable, Comparable, Sendable {
    /// A device goes offline for a while.
    case offline
    /// A request never reaches the server.
    case dropRequest
    /// The server commits a request and its answer is lost.
    case dropResponse
    /// The server answers `THROTTLED` with `retryAfter`.
    case throttle
    /// The server answers `LIMIT_EXCEEDED` to a batch, which the device must split.
    case limitExceeded
    /// The app is killed with changes queued and launched again.
    case appKill
    /// Tombstones are purged, so devices' change tokens expire.
    case tokenExpiry
    /// The server is killed with `SIGKILL` while a device syncs, and restarted.
    case serverKill
    /// A zone is deleted under devices that hold its records or have changes queued for it.
    case zoneDeleted
    /// An owner removes a participant from a share, maybe while the participant is offline.
    case participantRemoved

    static func < (lhs: FaultKind, rhs: FaultKind) -> Bool { lhs.rawValue < rhs.rawValue }
}

extension FaultInjectingTransport {
    /// Queues a fault of the network's kind for the device's next request (a lost answer and an
    /// oversized batch on its next `records/modify`).
    func meet(_ fault: FaultKind) {
        switch fault {
        case .dropRequest: inject(.dropRequest)
        case .dropResponse: inject(.dropResponse, on: "records/modify")
        case .throttle: inject(.fail(.throttled, retryAfter: 3))
        // A batch of one cannot be split: the server would answer that only for a record too
        // large to save, which no scenario makes.
        case .limitExceeded: inject(.fail(.limitExceeded), on: "records/modify", minimumOperations: 2)
        default: break
        }
    }
}

/// One step of a scenario. Devices are numbered across users: device `d` belongs to user `d / 2`;
/// even devices sync through `SyncEngine`s (the private database, and the shared database for
/// the zones other users share with them), odd ones through `StratusData` tables. Every user owns
/// a shared zone (a zone-wide share) that the others may be invited to.
enum Step: Hashable, Sendable, CustomStringConvertible {
    /// Edits a note (created on first edit); the edit is stamped with its step number, and the
    /// latest stamp must win every conflict.
    case editNote(device: Int, note: Int)
    /// Creates a journal entry, a record nobody edits. On a `StratusData` device the entry carries
    /// a photo (an asset) and a mark row that cascades with it.
    case createEntry(device: Int, entry: Int)
    /// Deletes an entry (and so its mark), if the device has it.
    case deleteEntry(device: Int, entry: Int)
    /// The owner invites a user to their shared zone, or changes the user's permission.
    case setParticipant(owner: Int, user: Int, canWrite: Bool)
    /// The user accepts the owner's share (which fails unless invited).
    case accept(user: Int, owner: Int)
    /// The user leaves the owner's share.
    case leave(user: Int, owner: Int)
    /// The owner removes the user from the share.
    case removeParticipant(owner: Int, user: Int)
    /// A `SyncEngine` device adds an item to the owner's shared zone: its own user's zone through
    /// the private database, another's through the shared one (if it holds that zone).
    case writeShared(device: Int, owner: Int)
    /// Writes a record in the user's second zone, the one that gets deleted (`SyncEngine` devices).
    case writeScratch(device: Int, item: Int)
    /// Deletes the user's second zone from the device, with what it holds.
    case deleteScratchZone(device: Int)
    case sync(device: Int)
    case goOffline(device: Int)
    case goOnline(device: Int)
    /// Queues a fault for the device's next request (to an endpoint, for batch faults).
    case inject(device: Int, fault: FaultKind)
    /// Kills the app and launches it again.
    case restartApp(device: Int)
    /// Purges every tombstone on the server.
    case purgeTombstones
    /// Kills the server with `SIGKILL` while the device syncs, then restarts it.
    case killServer(duringSyncOf: Int)

    var description: String {
        switch self {
        case .editNote(let device, let note): "device \(device) edits note \(note)"
        case .createEntry(let device, let entry): "device \(device) creates entry \(entry)"
        case .deleteEntry(let device, let entry): "device \(device) deletes entry \(entry)"
        case .setParticipant(let owner, let user, let canWrite): "user \(owner) lets user \(user) \(canWrite ? "write" : "read") their shared zone"
        case .accept(let user, let owner): "user \(user) accepts user \(owner)'s share"
        case .leave(let user, let owner): "user \(user) leaves user \(owner)'s share"
        case .removeParticipant(let owner, let user): "user \(owner) removes user \(user) from their share"
        case .writeShared(let device, let owner): "device \(device) adds an item to user \(owner)'s shared zone"
        case .writeScratch(let device, let item): "device \(device) writes scratch record \(item)"
        case .deleteScratchZone(let device): "device \(device) deletes the scratch zone"
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
        case .editNote, .createEntry, .deleteEntry, .writeScratch, .setParticipant, .accept, .leave, .removeParticipant, .writeShared: true
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
        case .deleteScratchZone: .zoneDeleted
        case .removeParticipant: .participantRemoved
        default: nil
        }
    }
}

/// Everything a seed fixes: the users and devices, the operations and the faults, in order.
struct Scenario: Sendable {
    static let users = 3
    static let devicesPerUser = 2
    static let notesPerUser = 4
    static var deviceCount: Int { users * devicesPerUser }

    let seed: UInt64
    /// Whether the scenario runs against a real `stratus` process that it kills (one in ten).
    let killsServer: Bool
    var steps: [Step]

    var operationCount: Int { steps.filter(\.isOperation).count }
    var faultKinds: Set<FaultKind> { Set(steps.compactMap(\.fault)) }

    /// The scenario of `seed`: at least 50 operations and at least three kinds of fault, with a
    /// server kill in one scenario of ten.
    init(seed: UInt64) {
        self.seed = seed
        var random = SeededGenerator(seed: seed)
        killsServer = seed % 10 == 0
        var steps: [Step] = []
        var offline = Set<Int>()
        var entries = 0
        var created: [Int: [Int]] = [:]
        let operations = Int.random(in: 50...70, using: &random)
        var made = 0
        while made < operations {
            let device = Int.random(in: 0..<Self.deviceCount, using: &random)
            let user = device / Self.devicesPerUser
            switch Int.random(in: 0..<114, using: &random) {
            case 0..<28:
                steps.append(.editNote(device: device, note: Int.random(in: 0..<Self.notesPerUser, using: &random)))
                made += 1
            case 28..<44:
                steps.append(.createEntry(device: device, entry: entries))
                created[user, default: []].append(entries)
                entries += 1
                made += 1
            case 44..<50:
                guard let entry = created[user]?.randomElement(using: &random) else { continue }
                steps.append(.deleteEntry(device: device, entry: entry))
                made += 1
            case 50..<56:
                guard device % 2 == 0 else { continue }
                steps.append(.writeScratch(device: device, item: Int.random(in: 0..<6, using: &random)))
                made += 1
            case 56..<77:
                steps.append(.sync(device: device))
            case 77..<83:
                if offline.remove(device) != nil { steps.append(.goOnline(device: device)) }
                else { offline.insert(device); steps.append(.goOffline(device: device)) }
            case 83..<93:
                let kinds: [FaultKind] = [.dropRequest, .dropResponse, .throttle, .limitExceeded]
                steps.append(.inject(device: device, fault: kinds.randomElement(using: &random)!))
            case 93..<96:
                steps.append(.restartApp(device: device))
            case 96..<98:
                steps.append(.deleteScratchZone(device: device))
            case 98..<101:
                let other = (user + Int.random(in: 1..<Self.users, using: &random)) % Self.users
                steps.append(.setParticipant(owner: user, user: other, canWrite: Bool.random(using: &random)))
                made += 1
            case 101..<103:
                steps.append(.accept(user: user, owner: (user + Int.random(in: 1..<Self.users, using: &random)) % Self.users))
                made += 1
            case 103:
                steps.append(.leave(user: user, owner: (user + Int.random(in: 1..<Self.users, using: &random)) % Self.users))
                made += 1
            case 104:
                steps.append(.removeParticipant(owner: user, user: (user + Int.random(in: 1..<Self.users, using: &random)) % Self.users))
                made += 1
            case 105..<112:
                guard device % 2 == 0 else { continue }
                steps.append(.writeShared(device: device, owner: Int.random(in: 0..<Self.users, using: &random)))
                made += 1
            default:
                if killsServer { steps.append(.killServer(duringSyncOf: device)) } else { steps.append(.purgeTombstones) }
            }
        }
        // Every scenario meets at least three kinds of fault (and a killing one, a kill).
        var required: [Step] = [.goOffline(device: 0), .inject(device: 1, fault: .dropResponse), .restartApp(device: 2)]
        required.append(killsServer ? .killServer(duringSyncOf: 3) : .purgeTombstones)
        for step in required where !Set(steps.compactMap(\.fault)).contains(step.fault!) {
            steps.insert(step, at: Int.random(in: 0...steps.count, using: &random))
        }
        // Each user starts out sharing their zone with the next one, who accepts.
        let sharing = (0..<Self.users).flatMap { owner in
            let user = (owner + 1) % Self.users
            return [Step.setParticipant(owner: owner, user: user, canWrite: true), .accept(user: user, owner: owner)]
        }
        self.steps = sharing + steps
    }

    init(seed: UInt64, killsServer: Bool, steps: [Step]) {
        self.seed = seed
        self.killsServer = killsServer
        self.steps = steps
    }
}
