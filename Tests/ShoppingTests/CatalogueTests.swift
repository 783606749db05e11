import Foundation
import ShoppingKit
import StratusClient
import StratusTesting
import Testing

/// The Shopping app's public catalogue (issue 66): products published by any user reach every
/// device through the public database's change feed, into a table the app may only read; a
/// withdrawn product leaves every device; a device offline keeps the catalogue it had.
@Suite struct CatalogueTests {
    @Test func publishedProductsReachEveryDevice() async throws {
        try await TestCloud.with { cloud in
            let schema = try String(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                .appendingPathComponent("../../Examples/Shopping/Shopping.ckdb").standardized, encoding: .utf8)
            try await cloud.importSchema(schema)
            let clock = TestClock()
            let aliceName = try await cloud.createUser("alice"), bobName = try await cloud.createUser("bob")
            let (alice, _) = try await SharedListTests.device(cloud, aliceName, "alice", clock: clock)
            let (bob, bobNet) = try await SharedListTests.device(cloud, bobName, "bob", clock: clock)

            let oats = try await alice.publish("Porridge oats", aisle: "Cereal")
            _ = try await alice.publish("Semi-skimmed milk", aisle: "Dairy")
            for device in [alice, bob] { try await device.syncCatalogue() }
            for device in [alice, bob] {
                #expect(try await device.products().map(\.name) == ["Porridge oats", "Semi-skimmed milk"])
            }

            // Bob may not change Alice's product: the server refuses it, and his mirror keeps hers.
            let bobsContainer = await cloud.container(deviceID: "bob-web")
            try await bobsContainer.signIn(username: bobName, password: "password-\(bobName)")
            var record = try await bobsContainer.publicCloudDatabase.record(for: RecordID(recordName: oats.id))
            record["name"] = .string("Bob's oats")
            await #expect(throws: CloudError.self) { _ = try await bobsContainer.publicCloudDatabase.save(record) }

            // A product added from the catalogue is an ordinary item of the list.
            let list = try await bob.newList(name: "Weekly")
            _ = try await bob.add(try await bob.products()[0].name, to: list)
            try await bob.syncNow()
            #expect(try await SharedListTests.texts(bob, list) == ["Porridge oats"])

            // Alice withdraws a product while Bob is offline: he keeps his catalogue, then loses it on sync.
            bobNet.setOffline(true)
            let alicesContainer = await cloud.container(deviceID: "alice-web")
            try await alicesContainer.signIn(username: aliceName, password: "password-\(aliceName)")
            try await alicesContainer.publicCloudDatabase.deleteRecord(withID: RecordID(recordName: oats.id))
            await #expect(throws: CloudError.self) { try await bob.syncCatalogue() }
            #expect(try await bob.products().count == 2)
            bobNet.setOffline(false)
            try await bob.syncCatalogue()
            #expect(try await bob.products().map(\.name) == ["Semi-skimmed milk"])
            #expect(try await SharedListTests.texts(bob, list) == ["Porridge oats"], "the list's item stays")
        }
    }
}
