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
        /// A device holds a record of another user, or of a share it is not in.
        case leak
        /// A record is still on the server after the record it cascades from was deleted.
        case orphan
        /// A device's records differ from the server's after quiescence.
        case divergence
        /// A device could not finish syncing once the faults were gone.
        case stuck
        /// A device's sync failed twice in a row for a reason that is not transient, or it still
        /// had changes to send or changes set aside (no scenario gives a reason to) once quiet.
        case wedged
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
    /// Participants in a share at the end (accepted), across owners.
    var participants = 0
    /// Items in shared zones at the end, and how many of them participants wrote.
    var sharedItems = 0
    var participantItems = 0
    /// Participants' items the server rightly refused: their access had changed.
    var refusedItems = 0
    /// App scenarios: operations the devices made (an operation on an item a device does not show
    /// yet is left out), and journal entries compactions removed.
    var performed = 0
    var compacted = 0
    /// App scenarios: restores from the server's history that succeeded; for Shopping, the records
    /// they saved back or undeleted and those they deleted.
    var restores = 0
    var restoredRecords = 0
    var restoreDeletedRecords = 0
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
        let server: any SimulationServer = scenario.killsServer ? try await ProcessServer(executable: stratus) : try await InProcessServer(clock: clock)
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
            Container(baseURL: baseURL, containerIdentifier: server.containerID, apiToken: apiToken, transport: transport, deviceID: device,
                      assetCacheDirectory: device.map { root.appendingPathComponent("\($0)-assets") })
        }
        var users: [String] = []
        var userRecordNames: [String] = []
        var shareURLs: [String] = []
        for user in 0..<Scenario.users {
            let name = "sim-\(scenario.seed)-\(user)-\(UUID().uuidString.prefix(6))"
            let session = container()
            _ = try await session.signUp(username: name, password: "password-\(name)")
            users.append(name)
            userRecordNames.append(try await session.currentUserRecordName())
            // The user's shared zone, shared with nobody yet.
            try await session.privateCloudDatabase.save(zone: ZoneID(zoneName: sharedZoneName))
            let share = try await session.privateCloudDatabase.shareZone(ZoneID(zoneName: sharedZoneName))
            shareURLs.append(share.shareKeys?.shareURL ?? "")
        }
        /// Sets the owner's share participants through the owner's device (faults and all).
        func setParticipants(owner: Int, _ change: (inout [Int: SharePermission]) -> Void) async throws {
            let database = sessions[owner * Scenario.devicesPerUser].privateCloudDatabase
            let share = try await database.record(for: RecordID(recordName: ShareKeys.zoneShareName, zoneID: ZoneID(zoneName: sharedZoneName)))
            var participants = Self.participants(of: share, users: userRecordNames) { $0 != .removed }
            change(&participants)
            _ = try await database.updateShare(share, participants: participants.sorted { $0.key < $1.key }.map { (users[$0.key], $0.value) })
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
        var watch = WedgeWatch()
        var random = SeededGenerator(seed: scenario.seed ^ 0x5EED)
        /// A change to a share or a zone is in the way of every device of the users it concerns.
        func disturbs(_ users: Int...) {
            for user in users { for device in 0..<Scenario.devicesPerUser { watch.faultMet(by: user * Scenario.devicesPerUser + device) } }
        }
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
                let text = "u\(user):\(name)"
                try await devices[device].createEntry(name, text: text, note: "note-\(user)-\(entry % Scenario.notesPerUser)")
                if devices[device] is TableDevice {
                    model.entries[name] = (user, text + "+photo")
                    model.marks[TableDevice.mark(ofEntry: name)] = (user, TableDevice.markText(entryText: text, entry: name), name)
                } else {
                    model.entries[name] = (user, text)
                }
            case .deleteEntry(let device, let entry):
                if try await devices[device].deleteEntry("entry-\(entry)") {
                    model.entries["entry-\(entry)"] = nil
                    model.deleted.insert("entry-\(entry)")
                }
            case .setParticipant(let owner, let user, let canWrite):
                disturbs(owner, user)
                if !canWrite { model.disturbed.insert([owner, user]) }
                do {
                    try await setParticipants(owner: owner) { $0[user] = canWrite ? .readWrite : .readOnly }
                } catch { outcome.failedSyncs += 1 }
            case .accept(let user, let owner):
                disturbs(owner, user)
                if (try? await sessions[user * Scenario.devicesPerUser].sharedCloudDatabase.acceptShare(shareURLs[owner])) == nil {
                    outcome.failedSyncs += 1
                }
            case .leave(let user, let owner):
                disturbs(owner, user)
                model.disturbed.insert([owner, user])
                let share = RecordID(recordName: ShareKeys.zoneShareName, zoneID: ZoneID(zoneName: sharedZoneName, ownerRecordName: userRecordNames[owner]))
                if (try? await sessions[user * Scenario.devicesPerUser].sharedCloudDatabase.deleteShare(share)) == nil { outcome.failedSyncs += 1 }
            case .removeParticipant(let owner, let user):
                disturbs(owner, user)
                model.disturbed.insert([owner, user])
                do {
                    try await setParticipants(owner: owner) { $0[user] = nil }
                } catch { outcome.failedSyncs += 1 }
            case .writeShared(let device, let owner):
                let writer = device / Scenario.devicesPerUser
                let name = "shared-\(owner)-\(index)"
                let text = "o\(owner):w\(writer):\(name)"
                let engineDevice = devices[device] as! EngineDevice
                if writer == owner {
                    try await engineDevice.writeOwnShared(name, text: text)
                } else if try await !engineDevice.writeShared(name, text: text, owner: userRecordNames[owner]) {
                    break
                }
                model.sharedWrites[name] = (owner, writer, text)
            case .writeScratch(let device, let item):
                let user = device / Scenario.devicesPerUser
                let name = "scratch-\(user)-\(item)"
                try await (devices[device] as! EngineDevice).writeScratch(name, text: "u\(user):\(name):step-\(index)")
            case .deleteScratchZone(let device):
                disturbs(device / Scenario.devicesPerUser)
                // Through the device's network, faults and all; it may not get through.
                if (try? await sessions[device].privateCloudDatabase.deleteRecordZone(withID: scratchZone)) == nil { outcome.failedSyncs += 1 }
            case .sync(let device):
                var failure: (any Error)?
                do {
                    try await devices[device].sync()
                } catch {
                    failure = error
                    outcome.failedSyncs += 1
                }
                if let violation = watch.synced(device, error: failure) { outcome.violations.append(violation) }
            case .goOffline(let device):
                watch.faultMet(by: device)
                devices[device].transport.setOffline(true)
            case .goOnline(let device):
                devices[device].transport.setOffline(false)
            case .inject(let device, let fault):
                watch.faultMet(by: device)
                devices[device].transport.meet(fault)
            case .restartApp(let device):
                watch.faultMet(by: device)
                try await devices[device].restartApp()
            case .purgeTombstones:
                watch.faultMet(byAll: Scenario.deviceCount)
                try await server.purgeTombstones()
            case .killServer(let device):
                let syncing = Task { [devices] in try await devices[device].sync() }
                try await Task.sleep(for: .milliseconds(Int.random(in: 1...40, using: &random)))
                try await server.killAndRestart()
                if (try? await syncing.value) == nil { outcome.failedSyncs += 1 }
                watch.faultMet(byAll: Scenario.deviceCount)
            }
        }

        // Quiescence: no faults, everyone online, every device syncs until nothing moves.
        for device in devices {
            device.transport.clearFaults()
            device.transport.setOffline(false)
        }
        let quiet = clock.now
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
        if quiet.duration(to: clock.now) > WedgeWatch.drainBound {
            outcome.violations.append(Violation(kind: .wedged, detail: "the devices took \(quiet.duration(to: clock.now)) of simulated time to drain (bound \(WedgeWatch.drainBound))"))
        }
        for (index, device) in devices.enumerated() {
            let user = index / Scenario.devicesPerUser
            let accessTaken = model.disturbed.contains { $0[1] == user }
            outcome.violations += WedgeWatch.check(device: index, backlog: try await device.backlog(sharedSetAside: !accessTaken))
        }
        if selfTest { try await (devices[1] as! TableDevice).forgetEverything() }

        // Each owner's shared zone and who, by the share, may see and change it now.
        var sharedItems: [[String: String]] = []
        var participants: [[Int: SharePermission]] = []
        for (owner, name) in users.enumerated() {
            let session = container()
            _ = try await session.signIn(username: name, password: "password-\(name)")
            let database = session.privateCloudDatabase
            sharedItems.append(try await Self.records(of: database, in: ZoneID(zoneName: sharedZoneName)))
            let share = try await database.record(for: RecordID(recordName: ShareKeys.zoneShareName, zoneID: ZoneID(zoneName: sharedZoneName)))
            let accepted = Self.participants(of: share, users: userRecordNames) { $0 == .accepted }
            participants.append(accepted)
            outcome.participants += accepted.count
            outcome.sharedItems += sharedItems[owner].count
            outcome.participantItems += sharedItems[owner].keys.filter { model.sharedWrites[$0].map { $0.writer != owner } ?? false }.count
            outcome.refusedItems += model.sharedWrites.filter { $0.value.owner == owner && $0.value.writer != owner && sharedItems[owner][$0.key] == nil }.count
            outcome.violations += model.checkShared(server: sharedItems[owner], owner: owner, participants: accepted)
        }

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
                var expected = onServer
                if let engineDevice = devices[device] as? EngineDevice {
                    expected.merge(scratch) { first, _ in first }
                    expected.merge(sharedItems[user]) { first, _ in first }
                    // The zones others share: exactly those the user is in now, as they are.
                    let holds = await engineDevice.sharedContents()
                    for owner in 0..<Scenario.users where owner != user {
                        let want = participants[owner][user] == nil ? [:] : sharedItems[owner]
                        let have = holds[userRecordNames[owner]] ?? [:]
                        if have != want {
                            outcome.violations.append(Violation(kind: want.isEmpty ? .leak : .divergence,
                                                                detail: "device \(device), user \(owner)'s shared zone: \(Model.difference(held: have, server: want))"))
                        }
                    }
                }
                outcome.violations += Model.compare(device: device, user: user, held: held, server: expected)
            }
        }
        return outcome
    }

    /// A share's participants other than its owner whose acceptance passes `status`: user → permission.
    private static func participants(of share: CloudRecord, users: [String], where status: (AcceptanceStatus?) -> Bool) -> [Int: SharePermission] {
        var participants: [Int: SharePermission] = [:]
        for participant in share.shareKeys?.participants ?? [] where participant.type != .owner && status(participant.acceptanceStatus) {
            if let user = users.firstIndex(of: participant.userIdentity?.userRecordName ?? "") {
                participants[user] = participant.permission ?? .readOnly
            }
        }
        return participants
    }

    /// Every record in a zone as the server has it now: record name → text.
    private static func records(of database: CloudDatabase, in zone: ZoneID) async throws -> [String: String] {
        var records: [String: String] = [:]
        var token: ServerChangeToken?
        while true {
            let page: RecordZoneChanges
            do {
                page = try await database.recordZoneChanges(inZoneWith: zone, since: token)
            } catch let error as CloudError where error.code == .zoneNotFound {
                return [:]
            }
            for record in page.modifications where record.recordType != ShareKeys.recordType {
                records[record.recordID.recordName] = comparedText(of: record)
            }
            for deletion in page.deletions { records[deletion.recordID.recordName] = nil }
            token = page.changeToken
            if !page.moreComing { return records }
        }
    }
}

/// What the server must hold at the end: the latest edit of every note, every entry created and
/// not deleted with its mark — by user; and in shared zones every item written by someone allowed to.
struct Model {
    var notes: [String: (user: Int, text: String)] = [:]
    var entries: [String: (user: Int, text: String)] = [:]
    /// Marks, created with their entry, deleted with it (a cascade on the server).
    var marks: [String: (user: Int, text: String, entry: String)] = [:]
    var deleted: Set<String> = []
    /// Items written to shared zones: record name → owner, writer, text.
    var sharedWrites: [String: (owner: Int, writer: Int, text: String)] = [:]
    /// [owner, user] pairs whose write access was taken away or put at risk at some point
    /// (read-only, removed, left): the user's writes may rightly be refused.
    var disturbed: Set<[Int]> = []

    func check(server: [String: String], user: Int) -> [Violation] {
        var violations: [Violation] = []
        var expected = notes.merging(entries) { first, _ in first }.filter { $0.value.user == user }
        for (name, mark) in marks where mark.user == user {
            if entries[mark.entry] != nil {
                expected[name] = (user, mark.text)
            } else if server[name] != nil {
                violations.append(Violation(kind: .orphan, detail: "user \(user): \(name) outlived its deleted \(mark.entry)"))
            }
        }
        for (name, want) in expected.sorted(by: { $0.key < $1.key }) {
            guard let have = server[name] else {
                violations.append(Violation(kind: .lost, detail: "user \(user): \(name) is not on the server"))
                continue
            }
            if have != want.text {
                violations.append(Violation(kind: .lost, detail: "user \(user): \(name) is '\(have)' on the server, not the latest edit '\(want.text)'"))
            }
        }
        for name in Set(server.keys).subtracting(expected.keys).sorted() where marks[name] == nil {
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

    /// Checks an owner's shared zone: every item on the server was written, with that text; the
    /// owner's items are all there, and so are those of participants who could always write.
    func checkShared(server: [String: String], owner: Int, participants: [Int: SharePermission]) -> [Violation] {
        var violations: [Violation] = []
        for (name, text) in server.sorted(by: { $0.key < $1.key }) where sharedWrites[name]?.text != text {
            violations.append(Violation(kind: .duplicate, detail: "user \(owner)'s shared zone: \(name) ('\(text)') was never written"))
        }
        for (name, write) in sharedWrites.sorted(by: { $0.key < $1.key }) where write.owner == owner && server[name] == nil {
            let mayWrite = write.writer == owner
                || (participants[write.writer] == .readWrite && !disturbed.contains([owner, write.writer]))
            if mayWrite {
                violations.append(Violation(kind: .lost, detail: "user \(owner)'s shared zone: \(name) by user \(write.writer) is not on the server"))
            }
        }
        return violations
    }

    static func compare(device: Int, user: Int, held: [String: String], server: [String: String]) -> [Violation] {
        var violations: [Violation] = []
        for (name, text) in held where !text.hasPrefix("u\(user):") && !text.hasPrefix("o\(user):") {
            violations.append(Violation(kind: .leak, detail: "device \(device) of user \(user) holds \(name) ('\(text)')"))
        }
        if held != server {
            violations.append(Violation(kind: .divergence, detail: "device \(device): \(difference(held: held, server: server))"))
        }
        return violations
    }

    /// How a device's records differ from the server's: a few of the missing, extra and different.
    static func difference(held: [String: String], server: [String: String]) -> String {
        let missing = Set(server.keys).subtracting(held.keys).sorted().prefix(3)
        let extra = Set(held.keys).subtracting(server.keys).sorted().prefix(3)
        let different = held.filter { server[$0.key] != nil && server[$0.key] != $0.value }.keys.sorted().prefix(3)
            .map { "\($0) '\(held[$0]!)' (server '\(server[$0]!)')" }
        return "missing \(Array(missing)), extra \(Array(extra)), different \(Array(different))"
    }
}
