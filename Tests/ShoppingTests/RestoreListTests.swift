import Foundation
import ShoppingKit
import StratusClient
import StratusTesting
import Testing

/// The Shopping app restores a list to how it was at a moment, from the server's history: entries
/// added since are deleted and entries compacted since undeleted, as changes every member's device
/// fetches, while a member offline keeps what it adds.
@Suite struct RestoreListTests {
    @Test func aListComesBackAsItWasForEveryMember() async throws {
        try await TestCloud.with { cloud in
            try await cloud.importSchema("DEFINE SCHEMA RECORD TYPE JournalEntry (timestamp TIMESTAMP QUERYABLE SORTABLE);")
            let clock = TestClock()
            let aliceName = try await cloud.createUser("alice")
            let bobName = try await cloud.createUser("bob")
            let (alice, _) = try await SharedListTests.device(cloud, aliceName, "alice", clock: clock)
            let (bob, bobNet) = try await SharedListTests.device(cloud, bobName, "bob", clock: clock)
            let list = try await alice.newList(name: "Groceries")
            let milk = try await alice.add("milk", to: list)
            let bread = try await alice.add("bread", after: milk, to: list)
            try await alice.syncNow()
            let bobsList = try await bob.accept(try await alice.share(list, with: [(bobName, .readWrite)]))

            let moment = cloud.serverClock.date
            cloud.serverClock.advance(by: .milliseconds(2))
            clock.advance(1000)
            try await bob.add("eggs", after: milk, to: bobsList)
            try await bob.syncNow()
            try await alice.check(bread, in: list)
            try await alice.syncNow()
            clock.advance(15 * SharedListTests.day)
            #expect(try await alice.compact(list, force: true) == 2, "bread's add and check go")
            try await bob.syncNow()
            #expect(try await SharedListTests.texts(bob, bobsList) == ["milk", "eggs"])

            // Bob adds jam offline; Alice restores the list to the moment.
            bobNet.setOffline(true)
            try await bob.add("jam", to: bobsList)
            await #expect(throws: ShoppingError.self) { try await bob.restore(bobsList, to: moment) }
            let summary = try await alice.restore(list, to: moment)
            #expect(summary.deleted.count == 1 && summary.failures.isEmpty, "eggs' add is deleted (bread's check is gone already)")
            #expect(summary.restored.count == 2 && summary.restored.map(\.recordName).contains(list.zoneName),
                    "bread's add is undeleted, and the list's compaction mark goes back")
            #expect(try await alice.restore(list, to: moment).restored.isEmpty, "running it again changes nothing more")
            try await alice.syncNow()
            #expect(try await alice.view(list)?.items.map { "\($0.text)\($0.checked ? " ✓" : "")" } == ["milk", "bread"])

            bobNet.setOffline(false)
            try await bob.syncNow()
            try await alice.syncNow()
            let aliceView = try await alice.view(list)
            #expect(aliceView == (try await bob.view(bobsList)))
            #expect(aliceView?.items.map(\.text) == ["jam", "milk", "bread"], "what Bob added offline stays")
        }
    }
}
