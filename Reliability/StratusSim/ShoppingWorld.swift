import Foundation
import ShoppingKit
import StratusClient
import StratusTesting

/// A Shopping device as it ships (``ShoppingDevice``), on a network that fails on demand.
struct SimulatedShoppingDevice: AppDevice {
    let app: ShoppingDevice
    let transport: FaultInjectingTransport

    func sync() async throws { try await app.syncNow() }
    func backlog() async throws -> [String] { try await app.snapshots().flatMap(\.snapshot.backlog) }
}

/// The Shopping app's users, each with two devices and a list shared read-write with the other
/// users, and what the journals must show at the end: every item added and never checked or
/// deleted, with its text; no deleted item; every member's devices showing each list the same
/// (name, color, items in order, checks). A list restored to a marked moment must hold on the
/// server exactly what it held then; its items from before the restore are then only held to
/// every device showing them the same (which reached the server before the moment, the world
/// does not see).
final class ShoppingWorld: AppWorld {
    private let scenario: AppScenario
    private let clock: SimulatedClock
    private let time: AppTime
    private let root: URL
    private(set) var devices: [any AppDevice] = []
    /// Each list's zone name, by the list's number (its owner's).
    private var lists: [String] = []
    /// Items added: their IDs, texts and lists, by the scenario's number.
    private var items: [Int: (id: String, text: String, list: Int)] = [:]
    /// Items checked or deleted at some time (a compaction may take them), and those deleted.
    private var touched: Set<Int> = []
    private var deleted: Set<Int> = []
    /// Each list's marked moment: the server's time, and the records the list's zone held then.
    private var moments: [Int: (date: Date, records: [String: [String: FieldValue]])] = [:]
    /// Items added before a restore of their list: no longer followed one by one.
    private var restoredOver: Set<Int> = []
    private let server: any SimulationServer
    /// Each user's session on a fault-free network, to read the server's state of their list.
    private var observers: [Container] = []

    init(scenario: AppScenario, server: any SimulationServer, clock: SimulatedClock, time: AppTime, root: URL) async throws {
        self.scenario = scenario
        self.clock = clock
        self.time = time
        self.root = root
        self.server = server
        let (baseURL, apiToken) = (await server.baseURL, await server.apiToken)
        // The app's schema, as its README has it imported: compaction queries the journal by time.
        try await server.importSchema(Self.schema)
        var usernames: [String] = []
        for user in 0..<scenario.users {
            let username = "shopper-\(scenario.seed)-\(user)-\(UUID().uuidString.prefix(6))"
            usernames.append(username)
            for index in 0..<scenario.devicesPerUser {
                try await ShoppingDevice.setup(directory: directory(of: user * scenario.devicesPerUser + index), server: baseURL,
                                               container: server.containerID, apiToken: apiToken, username: username,
                                               password: "password-\(username)", signUp: index == 0)
            }
        }
        for user in 0..<scenario.users {
            let session = try ContainerSession(contentsOf: directory(of: user * scenario.devicesPerUser).appendingPathComponent("session.json"))
            observers.append(Container(session: session, deviceID: "observer"))
        }
        for device in 0..<scenario.deviceCount { devices.append(try await open(device, transport: FaultInjectingTransport(clock: clock))) }
        // Each user's list, shared read-write with the others, who accept on their first device.
        var invitations: [String] = []
        for user in 0..<scenario.users {
            let owner = app(user * scenario.devicesPerUser)
            let list = try await owner.newList(name: "list of user \(user)")
            lists.append(list.zoneName)
            invitations.append(try await owner.share(list, with: usernames.indices.filter { $0 != user }.map { (usernames[$0], .readWrite) }))
        }
        for (owner, invitation) in invitations.enumerated() {
            for user in 0..<scenario.users where user != owner { try await app(user * scenario.devicesPerUser).accept(invitation) }
        }
        for device in devices { try await device.sync() }
    }

    /// The schema the Shopping app ships (`Examples/Shopping/Shopping.ckdb` in this checkout).
    static let schema = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Examples/Shopping/Shopping.ckdb")

    private func directory(of device: Int) -> URL { root.appendingPathComponent("device-\(device)") }
    private func app(_ device: Int) -> ShoppingDevice { (devices[device] as! SimulatedShoppingDevice).app }

    /// Opens a device's app on its files; the network (and the faults queued on it) stays the device's.
    private func open(_ device: Int, transport: FaultInjectingTransport) async throws -> SimulatedShoppingDevice {
        let app = try await ShoppingDevice(directory: directory(of: device), transport: transport, now: { [time] in time.now }, clock: clock)
        return SimulatedShoppingDevice(app: app, transport: transport)
    }

    func restartApp(_ device: Int) async throws {
        devices[device] = try await open(device, transport: devices[device].transport)
    }

    func perform(_ step: AppStep, index: Int, outcome: inout ScenarioOutcome) async throws -> Bool {
        switch step {
        case .addItem(let device, let list, let item, let after):
            guard let (app, listID, view) = try await shown(list, on: device) else { return false }
            let predecessor = after.flatMap { items[$0]?.id }.flatMap { id in view.items.contains { $0.id == id } ? id : nil }
            let text = "item \(item)"
            items[item] = (try await app.add(text, after: predecessor, to: listID), text, list)
        case .checkItem(let device, let list, let item), .uncheckItem(let device, let list, let item), .deleteItem(let device, let list, let item):
            guard let (app, listID, view) = try await shown(list, on: device), let id = items[item]?.id, view.items.contains(where: { $0.id == id }) else { return false }
            switch step {
            case .checkItem:
                try await app.check(id, in: listID)
                touched.insert(item)
            case .uncheckItem:
                try await app.uncheck(id, in: listID)
            default:
                try await app.delete(id, in: listID)
                touched.insert(item)
                deleted.insert(item)
            }
        case .renameList(let device, let list):
            guard let (app, listID, _) = try await shown(list, on: device) else { return false }
            try await app.rename(listID, to: "list \(list), named at step \(index)")
        case .compact(let device, let list):
            guard let (app, listID, _) = try await shown(list, on: device) else { return false }
            outcome.compacted += try await app.compact(listID, force: true)
        case .markMoment(let list):
            // The server holds what the devices sent so far; every later change is later than the moment.
            let records = try await serverRecords(of: list)
            moments[list] = (try await server.moment(), records)
            return false
        case .restoreList(let device, let list):
            guard let moment = moments[list], let (app, listID, _) = try await shown(list, on: device) else { return false }
            restoredOver.formUnion(items.filter { $0.value.list == list }.keys)
            // As a user would, the owner tries again when the network fails it: a restore run
            // again (after an answer lost, say) changes nothing more.
            var answer: ZoneRestoreSummary?
            for attempt in 1...3 where answer == nil {
                do {
                    answer = try await app.restore(listID, to: moment.date)
                } catch where attempt < 3 {
                    outcome.failedSyncs += 1
                }
            }
            guard let summary = answer else { return false }
            outcome.restores += 1
            outcome.restoredRecords += summary.restored.count
            outcome.restoreDeletedRecords += summary.deleted.count
            if !summary.failures.isEmpty {
                outcome.violations.append(Violation(kind: .broken, detail: "restoring list \(list) failed for \(summary.failures)"))
            }
            let now = try await serverRecords(of: list)
            if now != moment.records {
                let differing = Set(now.keys).symmetricDifference(moment.records.keys).union(now.keys.filter { now[$0] != moment.records[$0] })
                outcome.violations.append(Violation(kind: .divergence, detail: "list \(list) restored at step \(index) differs from its marked moment in \(differing.sorted())"))
            }
        default:
            return false
        }
        return true
    }

    /// The records of a list's zone on the server now (its share aside), with their fields.
    private func serverRecords(of list: Int) async throws -> [String: [String: FieldValue]] {
        let database = observers[list].privateCloudDatabase
        let zoneID = ZoneID(zoneName: lists[list])
        var records: [String: [String: FieldValue]] = [:]
        var token: ServerChangeToken?
        var more = true
        while more {
            let page = try await database.recordZoneChanges(inZoneWith: zoneID, since: token)
            for record in page.modifications where !record.isShare { records[record.recordID.recordName] = record.fields }
            for deletion in page.deletions { records[deletion.recordID.recordName] = nil }
            (token, more) = (page.changeToken, page.moreComing)
        }
        return records
    }

    /// The device's app, and the list as the device shows it, if the device has the list.
    private func shown(_ list: Int, on device: Int) async throws -> (ShoppingDevice, ShoppingDevice.ListID, ShoppingListView)? {
        let app = app(device)
        guard let listID = try? await app.list(named: lists[list]), let view = try await app.view(listID) else { return nil }
        return (app, listID, view)
    }

    func check() async throws -> [Violation] {
        var violations: [Violation] = []
        for (list, zoneName) in lists.enumerated() {
            var views: [(device: Int, view: ShoppingListView)] = []
            for device in devices.indices {
                guard let (_, _, view) = try await shown(list, on: device) else {
                    violations.append(Violation(kind: .lost, detail: "device \(device) does not have list \(list) (\(zoneName))"))
                    continue
                }
                views.append((device, view))
            }
            for (device, view) in views.dropFirst() where view != views[0].view {
                violations.append(Violation(kind: .divergence, detail: "list \(list): device \(device) shows \(Self.describe(view)), device \(views[0].device) \(Self.describe(views[0].view))"))
            }
            for (device, view) in views {
                let shown = Dictionary(view.items.map { ($0.id, $0.text) }, uniquingKeysWith: { first, _ in first })
                for (number, item) in items.sorted(by: { $0.key < $1.key }) where item.list == list && !restoredOver.contains(number) {
                    if deleted.contains(number), shown[item.id] != nil {
                        violations.append(Violation(kind: .resurrected, detail: "list \(list): device \(device) shows deleted item \(number)"))
                    } else if !touched.contains(number), shown[item.id] != item.text {
                        violations.append(Violation(kind: .lost, detail: "list \(list): device \(device) does not show item \(number) ('\(item.text)')"))
                    }
                }
            }
        }
        return violations
    }

    private static func describe(_ view: ShoppingListView) -> String {
        "'\(view.name)' [\(view.items.map { "\($0.text)\($0.checked ? " ✓" : "")" }.joined(separator: ", "))]"
    }
}
