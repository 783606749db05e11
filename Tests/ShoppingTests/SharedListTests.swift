import Foundation
import ShoppingKit
import StratusClient
import StratusTesting
import Synchronization
import Testing

/// A settable clock for devices.
final class TestClock: Sendable {
    private let milliseconds: Mutex<Int64>
    init(_ start: Int64 = Int64(Date().timeIntervalSince1970 * 1000)) { milliseconds = Mutex(start) }
    var now: Int64 { milliseconds.withLock { $0 } }
    func advance(_ by: Int64) { milliseconds.withLock { $0 += by } }
}

@Suite struct SharedListTests {
    static let day: Int64 = 24 * 3600 * 1000

    /// A device of a user, with a transport that can go offline and a clock tests control.
    static func device(_ cloud: TestCloud, _ user: String, _ name: String, clock: TestClock) async throws -> (ShoppingDevice, FaultInjectingTransport) {
        let directory = cloud.root.appendingPathComponent("shopping/\(name)")
        let transport = FaultInjectingTransport()
        try await ShoppingDevice.setup(directory: directory, server: await cloud.baseURL, container: TestCloud.containerID,
                                       apiToken: await cloud.apiToken, username: user, password: "password-\(user)", signUp: false)
        return (try await ShoppingDevice(directory: directory, transport: transport, now: { clock.now }), transport)
    }

    static func texts(_ device: ShoppingDevice, _ list: ShoppingDevice.ListID) async throws -> [String] {
        try await device.view(list)?.items.map(\.text) ?? []
    }

    @Test func aliceAndBobConvergeOnASharedList() async throws {
        try await TestCloud.with { cloud in
            let clock = TestClock()
            let aliceName = try await cloud.createUser("alice")
            let bobName = try await cloud.createUser("bob")
            let (alice, aliceNet) = try await Self.device(cloud, aliceName, "alice", clock: clock)
            let (bob, bobNet) = try await Self.device(cloud, bobName, "bob", clock: clock)

            let list = try await alice.newList(name: "Groceries")
            let milk = try await alice.add("milk", to: list)
            try await alice.syncNow()
            let url = try await alice.share(list, with: [(bobName, .readWrite)])
            let bobsList = try await bob.accept(url)
            #expect(try await Self.texts(bob, bobsList) == ["milk"])
            #expect(try await bob.activity(bobsList).contains { $0.contains("added milk") })

            // Offline, both add an item after milk and rename the list.
            aliceNet.setOffline(true)
            bobNet.setOffline(true)
            clock.advance(1000)
            try await alice.add("bread", after: milk, to: list)
            try await bob.add("eggs", after: milk, to: bobsList)
            clock.advance(1000)
            try await alice.rename(list, to: "Alice's name")
            clock.advance(1000)
            try await bob.rename(bobsList, to: "Bob's later name")
            await #expect(throws: CloudError.self) { try await alice.syncNow() }
            #expect(try await alice.diagnostics().contains("record change(s) to send"))

            aliceNet.setOffline(false)
            bobNet.setOffline(false)
            try await alice.syncNow()
            try await bob.syncNow()
            try await alice.syncNow()
            let aliceView = try await alice.view(list)
            let bobView = try await bob.view(bobsList)
            #expect(aliceView == bobView)
            #expect(aliceView?.name == "Bob's later name")
            #expect(Set(aliceView?.items.map(\.text) ?? []) == ["milk", "bread", "eggs"] && aliceView?.items.first?.text == "milk")
            #expect(try await alice.activity(list).contains { $0.contains("joined") })
        }
    }

    @Test func readOnlyRemovalAndStoppingSharing() async throws {
        try await TestCloud.with { cloud in
            let clock = TestClock()
            let aliceName = try await cloud.createUser("alice")
            let bobName = try await cloud.createUser("bob")
            let carolName = try await cloud.createUser("carol")
            let (alice, _) = try await Self.device(cloud, aliceName, "alice", clock: clock)
            let (bob, _) = try await Self.device(cloud, bobName, "bob", clock: clock)
            let (carol, _) = try await Self.device(cloud, carolName, "carol", clock: clock)
            let list = try await alice.newList(name: "Party")
            try await alice.add("cake", to: list)
            try await alice.syncNow()
            let url = try await alice.share(list, with: [(bobName, .readWrite)])
            let bobsList = try await bob.accept(url)
            let carolURL = try await alice.share(list, with: [(bobName, .readWrite), (carolName, .readOnly)])
            #expect(carolURL == url)
            let carolsList = try await carol.accept(url)

            // Carol's add is refused by the server and set aside; nobody else gets it.
            try await carol.add("crisps", to: carolsList)
            try await carol.syncNow()
            #expect(try await carol.diagnostics().contains("set aside"))
            try await alice.syncNow()
            #expect(try await Self.texts(alice, list) == ["cake"])

            // Removing Bob takes the list off his device.
            try await alice.remove(bobName, from: list)
            try await bob.syncNow()
            #expect(try await bob.lists().isEmpty)
            #expect(try await bob.activity(bobsList).last?.contains("no longer available") == true)

            // Stopping sharing takes it off Carol's.
            try await alice.unshare(list)
            try await carol.syncNow()
            #expect(try await carol.lists().isEmpty)
            #expect(try await Self.texts(alice, list) == ["cake"])
        }
    }

    @Test func compactionKeepsEveryDeviceIdenticalAndLateJoinersBuildTheSameList() async throws {
        try await TestCloud.with { cloud in
            try await cloud.importSchema("DEFINE SCHEMA RECORD TYPE JournalEntry (timestamp TIMESTAMP QUERYABLE SORTABLE);")
            let clock = TestClock(Int64(Date().timeIntervalSince1970 * 1000) - 30 * Self.day)   // a month ago
            let aliceName = try await cloud.createUser("alice")
            let bobName = try await cloud.createUser("bob")
            let daveName = try await cloud.createUser("dave")
            let (alice, _) = try await Self.device(cloud, aliceName, "alice", clock: clock)
            let (bob, _) = try await Self.device(cloud, bobName, "bob", clock: clock)
            let list = try await alice.newList(name: "Weekly")
            let apples = try await alice.add("apples", to: list)
            let pears = try await alice.add("pears", after: apples, to: list)
            clock.advance(1)
            try await alice.add("plums", to: list)
            try await alice.check(apples, in: list)
            try await alice.delete(pears, in: list)
            try await alice.syncNow()
            let url = try await alice.share(list, with: [(bobName, .readWrite), (daveName, .readWrite)])
            let bobsList = try await bob.accept(url)

            // A month later: a recent item and a recent purchase, which compaction must keep.
            clock.advance(30 * Self.day)
            let recent = try await bob.add("bread", to: bobsList)
            try await bob.check(recent, in: bobsList)
            try await bob.syncNow()
            try await alice.syncNow()
            let removed = try await alice.compact(list, force: true)
            #expect(removed == 4)   // apples (add, check) and pears (add, delete)
            try await bob.syncNow()
            let aliceView = try await alice.view(list)
            #expect(aliceView == (try await bob.view(bobsList)))
            #expect(aliceView?.items.map(\.text) == ["bread", "plums"])
            #expect(aliceView?.items.first?.checked == true)   // bought today: kept

            // Dave joins after the compaction and builds the same list.
            let (dave, _) = try await Self.device(cloud, daveName, "dave", clock: clock)
            let davesList = try await dave.accept(url)
            #expect(try await dave.view(davesList) == aliceView)
        }
    }

    @Test func shoppingModeHoldsOthersAddsButAppliesChecksAtOnce() async throws {
        try await TestCloud.with { cloud in
            let clock = TestClock()
            let aliceName = try await cloud.createUser("alice")
            let bobName = try await cloud.createUser("bob")
            let (alice, _) = try await Self.device(cloud, aliceName, "alice", clock: clock)
            let (bob, _) = try await Self.device(cloud, bobName, "bob", clock: clock)
            let list = try await alice.newList(name: "Now")
            let milk = try await alice.add("milk", to: list)
            try await alice.syncNow()
            let bobsList = try await bob.accept(try await alice.share(list, with: [(bobName, .readWrite)]))

            try await alice.setShoppingMode(true)
            try await bob.add("chocolate", to: bobsList)
            try await bob.check(milk, in: bobsList)
            try await bob.syncNow()
            try await alice.syncNow()
            #expect(try await alice.view(list)?.items.map(\.text) == ["milk"])          // the add is held...
            #expect(try await alice.view(list)?.items.first?.checked == true)            // ...the check is not
            #expect(try await alice.diagnostics().contains("1 held item(s)"))
            try await alice.applyHeld()
            #expect(try await alice.view(list) == (try await bob.view(bobsList)))
        }
    }
}
