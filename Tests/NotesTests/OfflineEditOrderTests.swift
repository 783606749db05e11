import Foundation
import NotesKit
import StratusClient
import StratusTesting
import Synchronization
import Testing

/// The seed's own conflict scenario, as a new user of the Notes app tries it: three devices of
/// one user edit the note while the server cannot be reached, then sync in some order. Every
/// order of edits and every order of syncing must end with the newest edit on every device and
/// nothing left to send — the app as it ships (its NOT NULL asset column, its `latestModified`
/// resolver), against the real server.
@Suite struct OfflineEditOrderTests {
    /// A clock the devices share, advanced by the test.
    final class Clock: Sendable {
        private let milliseconds = Mutex<Int64>(1_790_000_000_000)
        var now: Int64 { milliseconds.withLock { $0 } }
        func advance(_ by: Int64) { milliseconds.withLock { $0 += by } }
    }

    static let devices = ["a", "b", "c"]

    /// The six orders of three devices.
    static let orders: [[String]] = {
        var orders: [[String]] = []
        func permute(_ prefix: [String], _ rest: [String]) {
            if rest.isEmpty { orders.append(prefix) }
            for (index, next) in rest.enumerated() {
                var remaining = rest
                remaining.remove(at: index)
                permute(prefix + [next], remaining)
            }
        }
        permute([], devices)
        return orders
    }()

    /// Every edit order with every sync order: 36 combinations, a user of their own each.
    @Test(.timeLimit(.minutes(10)))
    func everyOrderOfOfflineEditsAndSyncsConverges() async throws {
        try await TestCloud.with { cloud in
            let combinations = Self.orders.flatMap { edits in Self.orders.map { syncs in (edits, syncs) } }
            #expect(combinations.count == 36)
            // A few combinations at a time: each is independent (its own user).
            try await withThrowingTaskGroup(of: Void.self) { group in
                for (index, (edits, syncs)) in combinations.enumerated() {
                    if index >= 4 { try await group.next() }
                    group.addTask { try await Self.run(edits: edits, syncs: syncs, in: cloud) }
                }
                try await group.waitForAll()
            }
        }
    }

    /// The issue's reproduction: edits on c, a, b; syncs a, c, b, a, c, b.
    static func run(edits: [String], syncs: [String], in cloud: TestCloud) async throws {
        let label = "edits \(edits.joined()) syncs \(syncs.joined())"
        let user = try await cloud.createUser("notes")
        let clock = Clock()
        var devices: [String: (NoteDevice, FaultInjectingTransport)] = [:]
        for name in Self.devices {
            let directory = cloud.root.appendingPathComponent("notes/\(user)/\(name)")
            try await NoteDevice.setup(directory: directory, server: await cloud.baseURL, container: TestCloud.containerID,
                                       apiToken: await cloud.apiToken, signIn: .password(username: user, password: "password-\(user)", signUp: false))
            let transport = FaultInjectingTransport()
            devices[name] = (try await NoteDevice(directory: directory, transport: transport, now: { clock.now }), transport)
        }
        // The note exists everywhere before the server goes away.
        try await devices["a"]!.0.edit("the first text")
        for name in Self.devices { try await devices[name]!.0.sync() }
        for (_, transport) in devices.values { transport.setOffline(true) }
        for name in edits {
            clock.advance(300)
            try await devices[name]!.0.edit("edited on \(name)")
        }
        let newest = "edited on \(edits.last!)"
        for (_, transport) in devices.values { transport.setOffline(false) }
        for name in syncs + syncs {
            do {
                try await devices[name]!.0.sync()
            } catch {
                Issue.record("\(label): device \(name) failed to sync: \(error)")
                throw error
            }
        }
        for name in Self.devices {
            let device = devices[name]!.0
            #expect(try await device.note()?.text == newest, "\(label): device \(name)")
            #expect(try await device.store.hasUnsentChanges() == false, "\(label): device \(name) has unsent changes")
        }
    }
}
