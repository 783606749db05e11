import Foundation
import Testing
import StratusClient
import StratusSync
import StratusTesting

@Suite struct SharingClientTests {
    static let zone = ZoneID(zoneName: "Lists")

    static func signedIn(_ cloud: TestCloud, _ username: String) async throws -> Container {
        let container = await cloud.container()
        try await container.signIn(username: username, password: "password-\(username)")
        return container
    }

    @Test func shareAcceptAndSyncTheSharedDatabase() async throws {
        try await TestCloud.with { cloud in
            let aliceName = try await cloud.createUser("alice")
            let bobName = try await cloud.createUser("bob")
            let carolName = try await cloud.createUser("carol")
            let alice = try await Self.signedIn(cloud, aliceName).privateCloudDatabase
            try await alice.save(zone: Self.zone)
            let list = try await alice.save(CloudRecord(recordType: "List", recordID: RecordID(recordName: "list", zoneID: Self.zone),
                                                        fields: ["title": .string("Groceries")]))
            var item = CloudRecord(recordType: "Item", recordID: RecordID(recordName: "milk", zoneID: Self.zone), fields: ["name": .string("Milk")])
            item.parent = "list"
            let savedItem = try await alice.save(item)
            let outside = try await alice.save(CloudRecord(recordType: "Item", recordID: RecordID(recordName: "private", zoneID: Self.zone)))

            let share = try await alice.share(list.recordID, title: "Groceries", participants: [(bobName, .readWrite), (carolName, .readOnly)])
            let url = try #require(share.shareKeys?.shareURL)
            #expect(try await alice.sharingStatus(of: savedItem) == SharingStatus(isShared: true, isOwner: true, canEdit: true))
            #expect(try await alice.sharingStatus(of: outside).isShared == false)

            // Bob previews, accepts, and syncs the shared database with an engine.
            let bob = try await Self.signedIn(cloud, bobName)
            let preview = try await bob.sharedCloudDatabase.shareMetadata(for: url)
            #expect(preview.participantStatus == .invited && preview.rootRecord?.recordID.recordName == "list")
            try await bob.sharedCloudDatabase.acceptShare(url)
            let bobDevice = try await cloud.device("bob-phone", of: bobName, database: .shared)
            try await bobDevice.sync()
            let sharedZone = ZoneID(zoneName: "Lists", ownerRecordName: try await alice.container.currentUserRecordName())
            let bobRecords = await bobDevice.records()
            #expect(Set(bobRecords.keys.map(\.recordName)) == ["list", "milk", share.recordID.recordName])
            let bobItem = try #require(bobRecords[RecordID(recordName: "milk", zoneID: sharedZone)])
            let fetchedItem = try await bob.sharedCloudDatabase.record(for: bobItem.recordID)
            #expect(try await bob.sharedCloudDatabase.sharingStatus(of: fetchedItem) == SharingStatus(isShared: true, isOwner: false, canEdit: true))

            // Bob adds an item through his engine; it lands in Alice's zone.
            var eggs = CloudRecord(recordType: "Item", recordID: RecordID(recordName: "eggs", zoneID: sharedZone), fields: ["name": .string("Eggs")])
            eggs.parent = "list"
            try await bobDevice.save(eggs)
            try await bobDevice.sync()
            #expect(try await alice.record(for: RecordID(recordName: "eggs", zoneID: Self.zone)).string("name") == "Eggs")

            // Carol may read but not edit.
            let carol = try await Self.signedIn(cloud, carolName)
            try await carol.sharedCloudDatabase.acceptShare(url)
            let carolItem = try await carol.sharedCloudDatabase.record(for: RecordID(recordName: "milk", zoneID: sharedZone))
            #expect(try await carol.sharedCloudDatabase.sharingStatus(of: carolItem).canEdit == false)
            var change = carolItem
            change["name"] = .string("Oat milk")
            let denied = try await #require(throws: CloudError.self) { try await carol.sharedCloudDatabase.save(change) }
            #expect(denied.code == .permissionFailure)

            // Alice stops sharing: Bob's engine forgets the zone and his local copy goes.
            try await alice.deleteShare(share.recordID)
            try await bobDevice.sync()
            #expect(await bobDevice.records().isEmpty)
            #expect(try await bobDevice.engine.snapshot().recentEvents.contains { $0.contains("zones removed: Lists (ACCESS_ENDED)") })
        }
    }
}

@Suite struct SharedZoneLossTests {
    /// Found by the simulation: a participant's engine, sending into a zone no longer shared with
    /// them, tried to create the zone in the shared database and stayed stuck on the refusal.
    @Test func aChangeForAZoneNoLongerSharedIsSetAside() async throws {
        try await TestCloud.with { cloud in
            let aliceName = try await cloud.createUser("alice")
            let bobName = try await cloud.createUser("bob")
            let alice = try await SharingClientTests.signedIn(cloud, aliceName).privateCloudDatabase
            try await alice.save(zone: SharingClientTests.zone)
            let share = try await alice.shareZone(SharingClientTests.zone, participants: [(bobName, .readWrite)])
            let bob = try await SharingClientTests.signedIn(cloud, bobName)
            try await bob.sharedCloudDatabase.acceptShare(try #require(share.shareKeys?.shareURL))
            let bobDevice = try await cloud.device("bob-phone", of: bobName, database: .shared)
            try await bobDevice.sync()

            let sharedZone = ZoneID(zoneName: SharingClientTests.zone.zoneName, ownerRecordName: try await alice.container.currentUserRecordName())
            let item = RecordID(recordName: "eggs", zoneID: sharedZone)
            try await bobDevice.save(CloudRecord(recordType: "Item", recordID: item, fields: ["name": .string("Eggs")]))
            try await alice.deleteShare(share.recordID)
            try await bobDevice.sync()

            let snapshot = try await bobDevice.engine.snapshot()
            #expect(snapshot.pendingRecordChanges.isEmpty)
            #expect(await bobDevice.records().isEmpty)
            await #expect(throws: CloudError.self) { try await alice.record(for: RecordID(recordName: "eggs", zoneID: SharingClientTests.zone)) }
        }
    }
}
